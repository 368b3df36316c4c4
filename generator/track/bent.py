"""The real line's straights a board bends, measured the way a player would check them against a map.

A *straight* is a stretch of the real centre line at least :data:`MIN_MM` long at the board's scale whose heading
(over chords :data:`~.straights.CHORD_UNITS` of a unit, so survey noise does not count) stays within
:data:`TOL_DEG`. Its *bend* on the board is the range of the board's heading over the middle :data:`MIDDLE` of it
(its ends give way to the bends either side), the real line carried to the board by the fit's own pairing
(:func:`.character.pairing`). A straight bent more than :data:`SAID_DEG` is named in the legend and by ``check``.

This is stricter than what the fit holds straight (:mod:`.straights`: 3° over 3 units, less the room each bend at
its ends needs at the board's least radius): it is the measure a board is judged by.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .character import pairing
from .straights import data_straights, heading_range

#: A straight: at least this long on the board's scale (mm) ...
MIN_MM = 100.0
#: ... its heading within this range (degrees).
TOL_DEG = 2.0
#: The share of a straight (its middle) over which the board's heading is measured.
MIDDLE = 0.8
#: A straight bent more than this (degrees) is named.
SAID_DEG = 10.0


@dataclass(frozen=True)
class Bent:
    """A straight of the real line and how far the board bends it: from ``s0`` to ``s1`` on the board (the middle
    of it, arc length from the real start line; ``s1 < s0`` over the line), from ``m0`` metres along the real line,
    ``length_m`` long, ``bend_deg`` the board's heading range there."""

    s0: float
    s1: float
    m0: float
    length_m: float
    bend_deg: float


def bent_straights(res, metres_per_mm: float) -> list[Bent]:
    """Every straight of the real line of ``res`` (an :class:`~.adapt.Adapted`) with its bend on the board, in
    order along the real line; empty when the fit kept no pairing."""
    if res.real is None or res.real_u is None or len(res.real_u) < 2:
        return []
    real = np.asarray(res.real, dtype=float)
    if np.hypot(*(real[-1] - real[0])) < 1e-9:
        real = real[:-1]
    line = res.line
    to_board = pairing(real, line.length, np.asarray(res.real_u), np.asarray(res.board_s))
    out = []
    for st in data_straights(real, res.unit_mm, tol_deg=TOL_DEG, min_units=MIN_MM / res.unit_mm):
        cut = st.length * (1 - MIDDLE) / 2
        a, b = st.u0 + cut, st.u1 - cut
        s0, s1 = to_board(a), to_board(b)
        if (s1 - s0) % line.length > line.length / 2:  # the pairing runs backwards here: not a stretch to measure
            continue
        lap_m = float(np.hypot(*np.diff(np.vstack((real, real[:1])), axis=0).T).sum()) * metres_per_mm
        m0, m1 = (st.u0 * metres_per_mm) % lap_m, st.length * metres_per_mm
        out.append(Bent(s0, s1, m0, m1, heading_range(line, s0, s1)))
    return sorted(out, key=lambda k: k.m0)


def said(k: Bent, units: str) -> str:
    """A bent straight in the legend's words, ``units`` where it is on the board ("units 12–17")."""
    return (
        f"{units}: the real line's {k.length_m / 1000:.2f} km straight (from {k.m0 / 1000:.2f} km) bends "
        f"{k.bend_deg:.0f}° here, to make room for the bends at its ends"
    )
