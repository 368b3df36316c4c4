"""What building a board changed of what its spec asked, as typed data: a closing gap spread over a segment
(``close: auto``), a pit lane drawn beside a bare centre line's grid (or none), every self-crossing drawn as a
bridge or tunnel, the start line moved for the grid, a smaller grid, a real bend the board could not keep.

Each kind words itself once (``str(change)``: what ``check`` lists and ``check --json`` gives); :attr:`Change.line`
is how the command line says it after a board is written (``close: auto changed segment 3: …``). A caller asks
of a change by its type (``isinstance(change, PitLaneDrawn)``), never by its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Side = Literal["left", "right"]
Way = Literal["forward", "back"]


class Change:
    """One thing the build changed. ``str(change)``: in words."""

    @property
    def line(self) -> str:
        """The change as the command line says it."""
        return str(self)


@dataclass(frozen=True)
class SegmentLengthened(Change):
    """``close: auto`` spread the closing gap: straight ``index`` (0-based) from ``before`` to ``after`` mm."""

    index: int
    before: float
    after: float

    def __str__(self) -> str:
        return f"segment {self.index + 1}: straight {self.before:.1f} → {self.after:.1f} mm"

    @property
    def line(self) -> str:
        return f"close: auto changed {self}"


@dataclass(frozen=True)
class PitLaneDrawn(Change):
    """A bare centre line's board got a pit lane beside its grid's straight, units ``first`` to ``last``."""

    first: int
    last: int
    side: Side

    def __str__(self) -> str:
        return f"a pit lane drawn beside the grid's straight, units {self.first} to {self.last} on the {self.side}"


@dataclass(frozen=True)
class NoPitLane(Change):
    """A bare centre line's board has no room for a pit lane beside its grid's straight."""

    def __str__(self) -> str:
        return "no pit lane: none fits beside the grid's straight without folding or touching"


@dataclass(frozen=True)
class CrossingsDrawn(Change):
    """Every place the track crosses itself (``count``), declared by no spec, drawn as ``kind``."""

    count: int
    kind: Literal["bridge", "tunnel"]

    def __str__(self) -> str:
        n = self.count
        return f"the track crosses itself {'once' if n == 1 else f'{n} times'}: drawn as a {self.kind}"


@dataclass(frozen=True)
class StartMoved(Change):
    """The start line moved ``by`` units ``way`` (to ``start.at`` ``at``) so that the grid of ``grid`` stands on
    straight track; ``turn_deg`` None when it does, else the most its rows turn on the straightest stretch."""

    by: float
    way: Way
    at: float
    grid: int
    turn_deg: float | None = None

    def __str__(self) -> str:
        where = (
            "stands on straight track behind it"
            if self.turn_deg is None
            else "stands on the straightest stretch of the lap (none is straight for all of it: its rows turn up to "
            f"{self.turn_deg:.0f}° each)"
        )
        units = f"{self.by:g} unit{'s' if self.by != 1 else ''}"
        return f"start line moved {units} {self.way} (start.at {self.at:g}), so the grid of {self.grid} {where}"


@dataclass(frozen=True)
class StartClearOfCorners(Change):
    """A per-lane board's start line moved ``spaces`` spaces ``way`` (to ``start.at`` ``at``) so that the grid and
    the first moves stand clear of every corner and crossing (``clear``), or the least of them in one."""

    spaces: int
    way: Way
    at: float
    clear: bool

    def __str__(self) -> str:
        why = (
            "the grid and the first moves stand clear of every corner and crossing"
            if self.clear
            else "the least of the grid and the first moves stands in a corner (no place is clear of them all)"
        )
        n = self.spaces
        return f"start line moved {n} space{'s' if n != 1 else ''} {self.way} (start.at {self.at:g}), so {why}"


@dataclass(frozen=True)
class FewerOnGrid(Change):
    """A grid of ``grid`` where the spec asked ``asked``: no straight of the circuit holds more."""

    grid: int
    asked: int

    def __str__(self) -> str:
        return f"a grid of {self.grid} (not {self.asked}): no straight of the circuit holds more cars on straight track"


@dataclass(frozen=True)
class GridAtRealStart(Change):
    """A real circuit's grid of ``cars`` (not ``asked``) kept behind its real start line; ``move``: the units and
    way the start line moves for a grid of ``whole`` to stand on straight track (None: no such place builds)."""

    cars: int
    asked: int
    whole: int
    move: tuple[float, Way] | None = None

    def __str__(self) -> str:
        fix = ""
        if self.move is not None:
            (by, way), n = self.move, self.whole
            fix = f"; --grid {n} moves the start line {by:g} units {way}, where {n} stand on straight track"
        return f"a grid of {self.cars} (not {self.asked}) behind the real start line, the most it holds{fix}"


@dataclass(frozen=True)
class BendLost(Change):
    """What of the real line's character the board could not keep, in the words of :func:`.character.said`."""

    text: str

    def __str__(self) -> str:
        return self.text
