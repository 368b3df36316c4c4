"""Sample laps of the modular set (``templates/monaco/road.yaml``, ``modular.layouts``): each traced piece by piece
on the floor, so the set's sheet can draw it and the tests can measure that it closes into a lap and that no two
parts of it come closer than the collision distance.

A lap is a list of piece ids in race order from the start piece; a curve says which way it turns as laid
(``curve-90-tight left``). Poses are ``(x, y, heading)`` in floor mm, y down the page as everywhere in Paddock,
heading in radians clockwise from +x; the lap starts at the origin heading +x.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from .modular import Kind, band_for, kinds
from .pieces import rotate


@dataclass
class Step:
    kind: Kind
    right: bool  # a curve laid turning right
    start: tuple[float, float, float]  # pose where the piece begins
    ring: np.ndarray  # the piece's outline on the floor


@dataclass
class Traced:
    name: str
    steps: list[Step]
    end: tuple[float, float, float]  # pose where the last piece ends (the start pose again, for a lap that closes)

    def parts(self) -> Counter:
        """How many of each piece the lap uses, by piece id."""
        return Counter(s.kind.id for s in self.steps)

    def listing(self) -> str:
        """``1 START, 1 PIT, 4 C90T, 2 S12`` in the set's order."""
        count = self.parts()
        order = {s.kind.id: s.kind.label for s in self.steps}
        return ", ".join(f"{count[k]} {order[k]}" for k in order)

    def gap(self) -> float:
        """How close (mm) two pieces that are not neighbours on the lap come: at least the collision distance."""
        from shapely import Polygon

        polys = [Polygon(s.ring).buffer(0) for s in self.steps]
        n = len(polys)
        best = math.inf
        for i in range(n):
            for j in range(i + 2, n):
                if i == 0 and j == n - 1:
                    continue  # the last piece joins the first
                best = min(best, polys[i].distance(polys[j]))
        return best


def _parse(entry: str, known: dict[str, Kind], where: str) -> tuple[Kind, bool]:
    words = entry.split()
    if not words or words[0] not in known or len(words) > 2:
        raise InputError(f"unknown piece {entry!r} in the sample layout {where}")
    kind = known[words[0]]
    turn = words[1] if len(words) > 1 else None
    if bool(kind.angle) != (turn is not None) or turn not in (None, "left", "right"):
        raise InputError(f"{entry!r} in the sample layout {where}: a curve says left or right, nothing else does")
    return kind, turn == "right"


def trace(name: str, lap: list[str], width: str, lane_width_in=None, car_length_in=None) -> Traced:
    """The lap laid piece after piece from the origin."""
    known = {k.id: k for k in kinds(width)}
    x, y, th = 0.0, 0.0, 0.0
    steps = []
    for entry in lap:
        kind, right = _parse(entry, known, name)
        band = band_for(kind, width, lane_width_in, car_length_in, right=right)
        local = band.outline(0.0, band.lap)
        ring = rotate(local, math.degrees(th)) + np.array([x, y])
        steps.append(Step(kind, right, (x, y, th), ring))
        end = rotate(band.line.point(np.array([band.lap])), math.degrees(th))[0]
        x, y = x + float(end[0]), y + float(end[1])
        th = th + float(band.line.heading(band.lap))
    return Traced(name, steps, (x, y, th))


def sample_layouts(width: str, lane_width_in=None, car_length_in=None) -> list[Traced]:
    """Every sample lap of road.yaml, traced at ``width``."""
    from .facts import road

    return [trace(s.name, s.lap, width, lane_width_in, car_length_in) for s in road().modular.layouts]


def closure(t: Traced) -> tuple[float, float]:
    """How far (mm) and by how much of a turn (degrees) the lap's end misses its start."""
    x, y, th = t.end
    turns = math.degrees(th) / 360.0
    return math.hypot(x, y), abs(turns - round(turns)) * 360.0
