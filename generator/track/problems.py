"""A :class:`Report` collects the problems found (and what the build changed: :mod:`.changed`) while one circuit
spec is built, each problem located at the spec line and field it belongs to. The problems themselves are
:class:`generator.problems.Problem` (with :class:`~generator.problems.Fix`es as data), shared with every other
kind of input Paddock checks.
"""

from __future__ import annotations

from pathlib import Path

from ..problems import Problem
from ..specs import field_name
from .changed import Change


class Report:
    """The problems found and the changes made while one spec is built, located in the spec file."""

    def __init__(self, path: Path | None, lines) -> None:
        self.path = path
        self.lines = lines
        self.problems: list[Problem] = []
        self.changes: list[Change] = []
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
        line = self.line_of(*loc) if loc else None
        self.problems.append(Problem(kind, message, advice, line=line, field=field_name(loc) or None, **kw))


def unit_span(a: int, b: int) -> str:
    """Where a problem is, in units: "unit 4" or "units 4–6"."""
    return f"unit {a}" if a == b else f"units {a}–{b}"


def unit_of(s: float, line, unit_mm: float) -> int:
    """The 1-based unit of arc length ``s`` on the closed ``line`` cut into units of about ``unit_mm``."""
    n = max(1, round(line.length / unit_mm))
    return int((s % line.length) // (line.length / n)) + 1
