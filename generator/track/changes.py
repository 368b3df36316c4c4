"""The changes an adaptation made, in words: each stretch of the board further than :data:`CHANGE_TOL` from the real
line, how far, and why — the rules that bound the fit (:mod:`.fit`) in or next to it: "bend widened to the minimum
radius", "chicane opened …", "kept clear of units 30–32", "kept on the paper".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .centerline import Line, cyclic_runs
from .fit import FitState
from .problems import unit_of, unit_span

#: A stretch of the board further than this (mm) from the real line is reported as a change.
CHANGE_TOL = 1.0


@dataclass
class Change:
    """A stretch of the board that differs from the real line by more than :data:`CHANGE_TOL`, and why."""

    s0: float  # arc length on the board, mm (s1 < s0 when it runs over the start line)
    s1: float
    units: tuple[int, int]
    max_mm: float
    causes: tuple[str, ...]  # radius | clearance | paper (empty: carried along by a neighbour)
    what: str

    def as_dict(self) -> dict:
        return {
            "s0_mm": round(self.s0, 1),
            "s1_mm": round(self.s1, 1),
            "units": list(self.units),
            "max_mm": round(self.max_mm, 1),
            "causes": list(self.causes),
            "what": self.what,
        }


def changes(line: Line, dev: np.ndarray, st: FitState, s_corner: np.ndarray, unit_mm: float) -> list[Change]:
    """Stretches of the board further than CHANGE_TOL from the real line (closer than a unit apart: one
    stretch), with the rules binding in or next to them."""
    n = len(dev) - 1
    L = line.length
    runs = cyclic_runs(dev[:n] > CHANGE_TOL)
    merged: list[list[int]] = []
    for i0, i1 in runs:
        if merged and line.s[i0 % n] - line.s[(merged[-1][1] - 1) % n] < unit_mm:
            merged[-1][1] = i1
        else:
            merged.append([i0, i1])
    if len(merged) > 1 and (line.s[merged[0][0] % n] + L - line.s[(merged[-1][1] - 1) % n]) % L < unit_mm:
        merged[0][0] = merged[-1][0] - n  # the last stretch runs over the start line into the first
        merged.pop()
    out = []
    for i0, i1 in merged:
        idx = np.arange(i0, i1) % n
        s0, s1 = float(line.s[idx[0]]), float(line.s[idx[-1]])
        pad = 1.5 * L / len(s_corner)  # a rule binding at a corner just outside the stretch moved it too
        inside = ((s_corner - s0) % L <= (s1 - s0) % L + pad) | ((s0 - s_corner) % L <= pad)
        causes = tuple(
            c for c, m in (("radius", st.curv), ("clearance", st.push), ("paper", st.paper)) if m[inside].any()
        )
        what = describe(causes, st, inside, s_corner, line, unit_mm)
        units = (unit_of(s0, line, unit_mm), unit_of(s1, line, unit_mm))
        out.append(Change(s0, s1, units, float(dev[idx].max()), causes, what))
    return out


def describe(causes, st: FitState, inside: np.ndarray, s_corner: np.ndarray, line: Line, unit_mm: float) -> str:
    """A change in words: what the rules that bind in it (``causes``) did to the corners ``inside`` it."""
    parts = []
    if "radius" in causes:
        # which way the corners held at the bound turn: both ways is a chicane (or esses)
        X = st.X
        a, c = np.roll(X, 1, axis=0), np.roll(X, -1, axis=0)
        cross = (X - a)[:, 0] * (c - X)[:, 1] - (X - a)[:, 1] * (c - X)[:, 0]
        side = np.sign(cross[inside & st.curv])
        both = (side > 0).any() and (side < 0).any()
        parts.append("chicane opened to the minimum radius" if both else "bend widened to the minimum radius")
    if "clearance" in causes:
        others = st.partner[inside & st.push]
        us = sorted({unit_of(float(s_corner[o]), line, unit_mm) for o in others[others >= 0]})
        parts.append(f"kept clear of {unit_span(us[0], us[-1])}" if us else "kept clear of another part")
    if "paper" in causes:
        parts.append("kept on the paper")
    return "; ".join(parts) if parts else "carried along by the change next to it"
