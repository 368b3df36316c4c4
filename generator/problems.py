"""What stops a user's input printing, as data — one :class:`Problem` type for circuits, *Monaco!* roads and MotoX
courses: what is wrong (``kind``, ``message``), where (``where`` in words; ``s``/``unit`` along a circuit, ``tile``
of a course; the spec's ``line`` and ``field``, or its path ``loc``), the measured ``numbers``, and what to change:
``advice`` in words and ``fixes``, each a :class:`Fix` (a spec field and its new value, a paper, a tiling), never
command-line wording. The command line words fixes as its options; :func:`spec_wording` says them in spec fields.

Several problems are said one way everywhere (:func:`listing`): one problem as it is; several as a first line
("3 problems:") and a line per problem. :func:`geometry_error` raises them as one located error; a check command
prints a line per problem with :func:`check_lines`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import GeometryError, InputError, OverrideError
from .messages import said

if TYPE_CHECKING:
    from .paper import PaperChoice


@dataclass(frozen=True)
class Fix:
    """One change that would clear (or help clear) a problem: a spec field (:attr:`field`, one per kind of fix)
    set to ``value`` (``now``: the value it has, where that helps). ``paper`` is the paper to print on with this
    change (for a paper or an orientation: the paper that fits; for a lap length: an example of a larger paper);
    ``tile_onto`` the paper size to tile it onto.

    Each kind of fix is a subclass that words itself both ways — :meth:`spec_text` in the words of the spec file
    (what a library's message says), :meth:`option_text` as the command line's options (what the CLI and the
    preview say) — and, for a circuit, builds itself (``generator.track.fixes``). This base is any other field,
    said plainly."""

    value: Any
    now: Any = None
    paper: PaperChoice | None = None
    tile_onto: str | None = None
    field: ClassVar[str] = ""

    def spec_text(self) -> str:
        """The fix in the words of the spec file: the field to set and its value."""
        return f"set '{self.field}: {self.value}'"

    def option_text(self) -> str:
        """The fix in the command line's words: its option (and the spec field)."""
        return f"set '{self.field}: {self.value}' in the spec"

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
    """One reason the input cannot print: what, where, the numbers, and what to change.

    ``advice`` is what to do in words (no option names), ``fixes`` the changes that would help, as data; either
    may be empty. :attr:`hint` joins them into one sentence (:func:`hint_text`)."""

    kind: str  # circuits: fold | room | proximity | crossing | pit | fit | closure | …; courses: overlap | touch | …
    message: str
    advice: str = ""
    fixes: tuple[Fix, ...] = ()
    where: str = ""  # the place in words: "units 4–6", "lap", "pit.garages"
    s: float | None = None  # arc length (mm) along a centre line where it is worst
    unit: int | None = None  # a circuit's unit
    tile: int | None = None  # a course's tile
    numbers: dict = field(default_factory=dict)
    line: int | None = None  # spec line, where the problem belongs to one field
    field: str | None = None
    loc: tuple = ()  # the spec path it belongs to (its line is looked up from it)

    @property
    def hint(self) -> str:
        """What to change, in spec fields."""
        return hint_text(self)

    def text(self, wording: Callable[[Fix], str] | None = None) -> str:
        """``where: message — hint``, the fixes said by ``wording`` (default: in spec fields)."""
        hint = hint_text(self, wording or spec_wording)
        loc = f"{self.where}: " if self.where else ""
        return f"{loc}{self.message} — {hint}" if hint else f"{loc}{self.message}"

    def __str__(self) -> str:
        return self.text()

    def as_dict(self, hint: str | None = None) -> dict:
        """For a ``--json`` answer (``hint``: the hint as the caller words it; default :attr:`hint`). A command
        keeps the keys its answer has always had, in this order."""
        said = self.hint if hint is None else hint
        d = {"kind": self.kind, "where": self.where, "message": self.message, "hint": said}
        if self.s is not None:
            d["s_mm"] = round(self.s, 1)
        if self.unit is not None:
            d["unit"] = self.unit
        if self.tile is not None:
            d["tile"] = self.tile
        if self.numbers:
            d["numbers"] = {k: _number(v) for k, v in self.numbers.items()}
        if self.line is not None:
            d["line"] = self.line
        if self.field:
            d["field"] = self.field
        d["fixes"] = [f.as_dict() for f in self.fixes]
        return d


def _number(v):
    """A measured number for JSON: a float to two decimals, a numpy integer as a plain int, anything else as it
    is."""
    if isinstance(v, float):
        return round(float(v), 2)
    return v.item() if hasattr(v, "item") else v


def spec_wording(fix: Fix) -> str:
    """A fix in the words of the spec file (:meth:`Fix.spec_text`)."""
    return fix.spec_text()


def option_wording(fix: Fix) -> str:
    """A fix as the command line's options (:meth:`Fix.option_text`)."""
    return fix.option_text()


def option_hint(problem: Problem) -> str:
    """What to change about ``problem``, in the command line's words."""
    return hint_text(problem, option_wording)


def option_line(problem: Problem) -> str:
    """``where: message — hint``, the fixes said as the command line's options."""
    return problem.text(option_wording)


def option_entry(problem: Problem) -> dict:
    """One problem as a command's ``--json`` answer gives it: its hint in the command line's words."""
    return problem.as_dict(option_hint(problem))


def in_option_words(err: Exception) -> Exception:
    """A library error re-said with the command line's option names (or ``err`` itself): an override error
    names its option, a geometry error's fixes are worded as options. Every command's errors pass through here
    (``generator.cli.main``), and a game's commands' ``--json`` answers."""
    if isinstance(err, OverrideError):
        if not err.applies:
            return InputError(f"--{err.key} {err.reason}", file=err.file, hint=f"leave out --{err.key}")
        if err.key == "fit" and not isinstance(err.value, int):
            reason = "give 'page' or the lap length in units (e.g. --fit 60)"
            return InputError(f"--fit {said(err.value)}: {reason}", file=err.file)
        return InputError(f"--{err.key} {said(err.value)}: {err.reason}", file=err.file)
    problems = getattr(err, "problems", None)
    if isinstance(err, GeometryError) and problems and all(isinstance(p, Problem) for p in problems):
        worded = geometry_error(err.problems, err.file, option_line)
        worded.hint = err.hint  # what to change about all of them (a Monaco! road's lap), if the error says it
        return worded
    return err


def hint_text(problem: Problem, wording: Callable[[Fix], str] = spec_wording) -> str:
    """The advice and the fixes of ``problem`` as one sentence, each fix said by ``wording``."""
    parts = [wording(f) for f in problem.fixes]
    if len(parts) > 1:
        parts[-1] = "or " + parts[-1]
    fixes = ", ".join(parts)
    if problem.advice and fixes:
        return f"{problem.advice}: {fixes}"
    return problem.advice or fixes


def listing(problems: Sequence[Problem], describe: Callable[[Problem], str] = str, path=None) -> str:
    """One problem said as it is (by ``describe``); several as ``paddock check`` lists them: a first line ("3
    problems:"), then a line each (:func:`check_lines`: led by ``path`` and the spec line, where it has one). The
    lines are joined by line breaks: the command line prints each as a line of its own."""
    if len(problems) == 1:
        return describe(problems[0])
    return f"{len(problems)} problems:\n" + "\n".join(check_lines(path, problems, describe))


def geometry_error(problems: Sequence[Problem], path, describe: Callable[[Problem], str] = str) -> GeometryError:
    """One :class:`GeometryError` listing ``problems`` (:func:`listing`); ``.problems`` keeps them."""
    line = problems[0].line if len(problems) == 1 else None
    err = GeometryError(listing(problems, describe, path), file=path, line=line)
    err.problems = problems
    return err


def check_lines(path, problems: Sequence[Problem], describe: Callable[[Problem], str] = str) -> list[str]:
    """What a check command prints for ``problems`` under its first line: one indented line each, led by the
    file and spec line it belongs to (where it has one)."""
    return [f"  {path}:{p.line}: {describe(p)}" if p.line and path else f"  {describe(p)}" for p in problems]


def error_entries(err, entry: Callable[[Problem], dict] | None = None) -> list[dict]:
    """The problems of an error for a ``--json`` answer: each :class:`Problem` it lists (``err.problems``, said
    by ``entry``: default :meth:`Problem.as_dict`), or the error itself as one problem of kind ``input`` (a file
    that cannot be read, an option out of range) with its file, line and field."""
    problems = getattr(err, "problems", None)
    if problems and all(isinstance(p, Problem) for p in problems):
        return [(entry or Problem.as_dict)(p) for p in problems]
    one = {"kind": "input", "where": err.field or "", "message": err.message, "hint": err.hint or ""}
    for key in ("file", "line", "field"):
        if getattr(err, key, None) is not None:
            one[key] = getattr(err, key)
    one["fixes"] = []
    return [one]
