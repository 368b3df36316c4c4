"""The spaces of a per-lane board and which space neighbours which — the contract between the circuit
builder (which fills it) and everything that moves cars (Formula D corners, later simulation).

Conventions
- Lanes are numbered 0 … lanes-1 from the LEFT edge of the track to the right, looking in the race direction.
- ``index`` counts the spaces of one lane from the start/finish line, 0 first, in the race direction.
- ``s0``/``s1`` are where the space starts and ends, as arc length (mm) along the track's CENTRE line from the
  start/finish line, so spaces of different lanes can be compared; ``length`` is measured along the space's own
  lane centre.
- ``ahead`` is the next space in the same lane (the one after the last space is space 0 of that lane: the loop).
  ``diagonal`` are the spaces a car may move to diagonally forward in the neighbouring lane(s): for each
  neighbouring lane, the space of that lane whose centre-line span contains (or, failing that, first follows)
  this space's end ``s1``.
- Spaces under a tunnel are ``hidden``: they exist for geometry but cannot be stopped on; their numbers go on the
  far side (road-race rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True)
class Space:
    id: int  # index into LaneGraph.spaces
    lane: int
    index: int
    s0: float
    s1: float
    length: float
    polygon: tuple[Point, ...]  # outline on the board, mm
    center: Point
    ahead: int  # id of the next space in the same lane
    diagonal: tuple[int, ...] = ()
    hidden: bool = False


@dataclass
class LaneGraph:
    lanes: int
    spaces: list[Space] = field(default_factory=list)
    lap_length: float = 0.0  # centre-line length, mm

    def lane(self, lane: int) -> list[Space]:
        return [s for s in self.spaces if s.lane == lane]

    def count(self, lane: int) -> int:
        return sum(1 for s in self.spaces if s.lane == lane)

    def moves(self, space_id: int) -> tuple[int, ...]:
        """Every space a car on ``space_id`` may move to with one step forward."""
        s = self.spaces[space_id]
        return (s.ahead, *s.diagonal)
