"""What stops a circuit printing, as data: a :class:`Problem` says what is wrong, where, with which numbers, and
what to change — the change as :class:`Fix` objects (a spec field and its new value, a paper, a tiling), never
as command-line wording. The command line turns fixes into its option names (``generator/cli/track.py``);
:func:`hint_text` with :func:`spec_wording` says them in spec fields, for every other caller.

A :class:`Report` collects the problems (and the changes ``close: auto`` made) while a circuit is built, with
the spec line each belongs to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GeometryError
from ..paper import PaperChoice


@dataclass(frozen=True)
class Fix:
    """One change that would clear (or help clear) a problem.

    ``field`` is the spec field to set (``smoothing``, ``lanes``, ``fit``, ``orientation``, ``paper``, or any
    other field of :class:`~generator.track.model.CircuitSpec`) and ``value`` its new value; ``now`` the value it
    has, where that helps. ``paper`` is the paper to print on with this change (for ``paper`` and ``orientation``:
    the paper that fits; for ``fit``: an example of a larger paper); ``tile_onto`` the paper size to tile it onto.
    """

    field: str
    value: Any
    now: Any = None
    paper: PaperChoice | None = None
    tile_onto: str | None = None

    def as_dict(self) -> dict:
        out: dict = {"field": self.field, "value": self.value}
        if self.now is not None:
            out["now"] = self.now
        if self.paper is not None:
            out["paper"] = {"name": self.paper.name, "orientation": self.paper.orientation}
        if self.tile_onto is not None:
            out["tile_onto"] = self.tile_onto
        return out


@dataclass
class Problem:
    """One reason a circuit cannot print: what, where, the numbers, and what to change.

    ``advice`` is what to do in words (no option names), ``fixes`` the changes that would help, as data; either
    may be empty. :func:`hint_text` joins them into one sentence."""

    kind: str  # fold | room | proximity | crossing | pit | fit | closure | turning | corner | kerb | danger | police…
    message: str
    advice: str = ""
    fixes: tuple[Fix, ...] = ()
    where: str = ""
    s: float | None = None  # arc length (mm) along the centre line where it is worst
    unit: int | None = None
    numbers: dict = field(default_factory=dict)
    line: int | None = None  # spec line, where the problem belongs to one field
    field: str | None = None

    @property
    def hint(self) -> str:
        """What to change, in spec fields."""
        return hint_text(self)

    def __str__(self) -> str:
        loc = f"{self.where}: " if self.where else ""
        return f"{loc}{self.message} — {self.hint}"


def _size(name: str) -> str:
    return name.upper() if name.startswith("a") else name


def spec_wording(fix: Fix) -> str:
    """A fix in the words of the spec file: the field to set and its value."""
    v = fix.value
    if fix.field == "smoothing":
        return f"smooth the centre line more ('smoothing: {v:g}'; now {fix.now:g} mm)"
    if fix.field == "fit":
        eg = f", e.g. {_size(fix.paper.name)} tiled onto {_size(fix.tile_onto)}" if fix.paper and fix.tile_onto else ""
        return f"make it bigger ('fit: {v}' for a {v}-unit lap on a larger paper{eg})"
    if fix.field == "lanes":
        return f"fewer lanes ('lanes: {v}')"
    if fix.field == "orientation" and fix.paper is not None:
        return f"use {fix.paper.resolve(v).label} ('orientation: {v}')"
    if fix.field == "paper" and fix.tile_onto:
        return f"tile it onto {_size(fix.tile_onto)} sheets ('paper: {v}', printed in tiles)"
    if fix.field == "paper":
        return f"print it there ('paper: {v}')"
    if fix.field == "crossing":
        return f"declare it as a {v} ('crossings: [{{kind: {v}}}]')"
    if fix.field == "cars":
        return f"race a field of {v} cars"
    return f"set '{fix.field}: {v}'"


def hint_text(problem: Problem, wording: Callable[[Fix], str] = spec_wording) -> str:
    """The advice and the fixes of ``problem`` as one sentence, each fix said by ``wording``."""
    parts = [wording(f) for f in problem.fixes]
    if len(parts) > 1:
        parts[-1] = "or " + parts[-1]
    fixes = ", ".join(parts)
    if problem.advice and fixes:
        return f"{problem.advice}: {fixes}"
    return problem.advice or fixes


def geometry_error(problems: list[Problem], path, describe: Callable[[Problem], str] = str) -> GeometryError:
    """One :class:`GeometryError` listing ``problems`` (each said by ``describe``); ``.problems`` keeps them."""
    first = problems[0]
    msg = describe(first)
    if len(problems) > 1:
        msg = f"{len(problems)} problems:\n" + "\n".join(f"  - {describe(p)}" for p in problems)
    err = GeometryError(msg, file=path, line=first.line if len(problems) == 1 else None)
    err.problems = problems
    return err


class Report:
    """The problems found and the changes made while one spec is built, located in the spec file."""

    def __init__(self, path: Path | None, lines) -> None:
        self.path = path
        self.lines = lines
        self.problems: list[Problem] = []
        self.changes: list[str] = []
        self.unfit = False  # the circuit does not fit its paper (reported once; nothing else blamed on it)

    def line_of(self, *loc) -> int | None:
        """The line of the nearest given key on the path ``loc`` (not the top of the file)."""
        if self.lines is None:
            return None
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return None

    def problem(self, kind: str, message: str, advice: str = "", loc: tuple = (), **kw) -> None:
        """Record a problem; ``loc`` is the spec path it belongs to (its line and field name are looked up)."""
        from ..specs import field_name

        line = self.line_of(*loc) if loc else None
        self.problems.append(Problem(kind, message, advice, line=line, field=field_name(loc) or None, **kw))
