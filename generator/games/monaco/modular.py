"""The modular road set: straights, curves of two radii and a pit section, for building circuits freely on the floor
as the rulebook's players do ("you can, of course, invent your own circuits").

Every piece of one road width (double or quadruple) has the same ends, with the same join marks, so any piece
joins any other. A curve is the same whichever way it is driven: a left curve driven the other way is a right one.
A piece larger than the paper is cut into parts the same way a circuit's road is. The sizes are in
``templates/monaco/road.yaml`` (``modular``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...units import inch_to_mm
from .facts import frac_in, road
from .pieces import Piece, cut_open
from .road import Mark, PitArea, Road, road_numbers


class PathLine:
    """A centre line of constant curvature ``k`` (left positive, 1/mm) from (0, 0) heading +x: a straight or an
    arc, with exact positions and headings (the interface :class:`Road` uses)."""

    def __init__(self, length: float, k: float = 0.0, step: float = 1.0) -> None:
        self._k = float(k)
        n = max(2, math.ceil(length / step), math.ceil(abs(k) * length / math.radians(1)))
        self.s = np.linspace(0.0, length, n + 1)
        self.xy = self.point(self.s)
        self.th = -self._k * self.s
        self.k = np.full_like(self.s, self._k)

    @property
    def length(self) -> float:
        return float(self.s[-1])

    @property
    def turning(self) -> float:
        return self._k * self.length

    def point(self, s):
        s = np.asarray(s, dtype=float)
        k = self._k
        if abs(k) < 1e-12:
            return np.stack((s, np.zeros_like(s)), axis=-1)
        return np.stack((np.sin(k * s) / k, (np.cos(k * s) - 1) / k), axis=-1)

    def heading(self, s):
        return -self._k * np.asarray(s, dtype=float)

    def curvature(self, s):
        return np.full_like(np.asarray(s, dtype=float), self._k)


@dataclass(frozen=True)
class Kind:
    id: str  # straight-12, curve-90-tight, pit
    label: str  # short, printed big on the piece: S12, C90T, PIT
    name: str  # for people: 12″ straight, 90° curve, tight (6″ radius)
    length_in: float = 0.0
    angle: float = 0.0  # degrees
    radius_in: float = 0.0
    pit: bool = False
    start: bool = False


def kinds(width: str) -> list[Kind]:
    """The kinds of piece in the set for road ``width``, from road.yaml."""
    m = road().modular
    out = [Kind(f"straight-{L:g}", f"S{L:g}", f"{frac_in(L)} straight", length_in=L) for L in m.straights_in]
    radii = m.radii_in.of(width)
    for size, r in (("tight", radii.tight), ("wide", radii.wide)):
        for a in m.curve_angles_deg:
            out.append(
                Kind(
                    f"curve-{a:g}-{size}",
                    f"C{a:g}{size[0].upper()}",
                    f"{a:g}° curve, {size} ({frac_in(r)} radius)",
                    angle=a,
                    radius_in=r,
                )
            )
    out.append(Kind("pit", "PIT", f"{frac_in(m.pit_section_in)} pit section", length_in=m.pit_section_in, pit=True))
    start = m.start_section_in
    out.insert(0, Kind("start", "START", f"{frac_in(start)} start/finish with grid", length_in=start, start=True))
    return out


def parse_set(text: str | None, width: str) -> list[tuple[Kind, int]]:
    """``straight-12=4,curve-90-tight=4,pit=1`` → the kinds and how many of each (in the set's own order)."""
    known = {k.id: k for k in kinds(width)}
    raw = text if text is not None else road().modular.default_set
    counts: dict[str, int] = {}
    for part in [p.strip() for p in str(raw).split(",") if p.strip()]:
        m = re.fullmatch(r"([a-z0-9-]+)\s*(?:[=:x×]\s*(\d+))?", part.lower())
        if not m or m.group(1) not in known:
            raise InputError(
                f"unknown piece '{part[:30]}' in the set",
                field="--set",
                hint="use " + ", ".join(known) + " with a count, e.g. straight-12=4",
            )
        n = int(m.group(2) or 1)
        if not 0 <= n <= 99:
            raise InputError(f"{n} is not a count for '{m.group(1)}'", field="--set", hint="give 0 to 99")
        counts[m.group(1)] = counts.get(m.group(1), 0) + n
    if not any(counts.values()):
        raise InputError("the set is empty", field="--set", hint="e.g. straight-12=4,curve-90-tight=4")
    return [(known[k], counts[k]) for k in known if counts.get(k)]


def band_for(
    kind: Kind, width: str, lane_width_in: float | None = None, car_length_in: float | None = None, right=False
) -> Road:
    """The road of one modular piece (open at both ends); a curve turns left, or ``right`` (the same piece driven
    the other way: its mirror image)."""
    n = road_numbers(width, lane_width_in, car_length_in)
    if kind.angle:
        r = inch_to_mm(kind.radius_in)
        line = PathLine(r * math.radians(kind.angle), (-1.0 if right else 1.0) / r)
        kerbs = [Mark(0.0, line.length, "right" if right else "left")]
    else:
        line = PathLine(inch_to_mm(kind.length_in))
        kerbs = []
    band = Road(
        name=kind.name,
        source=None,
        width_name=width,
        n=n,
        line=line,
        scale=1.0,
        board=None,
        pit=None,
        kerbs=kerbs,
        corners=[],
        crossings=[],
        grid=[],
        closed=False,
        start_at=None,
    )
    if kind.start:  # the line near the exit end, grid boxes behind it: as many as the piece holds
        at = line.length - inch_to_mm(road().modular.start_line_from_end_in)
        pitch = n.car_len + n.grid_gap
        slots = max(1, int((at - n.grid_gap) // pitch))
        band.start_at = at
        band.grid = [(at - k * pitch, at - k * pitch - n.car_len) for k in range(slots)]
    if kind.pit:
        L = line.length
        taper = min(n.pit_taper, L / 4)
        pit = PitArea("right", 0.0, L, taper, n.pit_lanes * n.lane_w)
        step = n.car_len + n.box_gap
        a, b = taper, L - taper
        count = int((b - a + n.box_gap) // step)
        start = a + (b - a - (count * step - n.box_gap)) / 2
        pit.boxes = [(start + i * step, start + i * step + n.car_len) for i in range(count)]
        band.pit = pit
    return band


@dataclass
class SetPlan:
    width: str
    entries: list[tuple[Kind, int, int]]  # kind, how many, parts each
    pieces: list[Piece]
    sheets: int = 0


def modular_pieces(
    text: str | None, width: str, W: float, H: float, paper_label: str, lane_width_in=None, car_length_in=None
) -> SetPlan:
    """Every part of every piece of the set, cut to fit a W × H box (not yet packed)."""
    from .pieces import FIT_MARGIN

    entries = []
    pieces: list[Piece] = []
    for kind, count in parse_set(text, width):
        band = band_for(kind, width, lane_width_in, car_length_in)
        parts = cut_open(band, W - 2 * FIT_MARGIN, H - 2 * FIT_MARGIN, paper_label)
        entries.append((kind, count, len(parts)))
        for _ in range(count):
            for part in parts:
                label = kind.label + (f"-{part.number}" if len(parts) > 1 else "")
                pieces.append(
                    Piece(
                        len(pieces) + 1,
                        part.s0,
                        part.s1,
                        part.ring,
                        band,
                        label=label,
                        kind=f"{kind.id}/{part.number}",
                    )
                )
    return SetPlan(width, entries, pieces)
