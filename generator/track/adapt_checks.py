"""An adapted board's rules measured on its final centre line itself, independently of the solver that made it
(:mod:`.fit`): the lap long enough to race, every bend at least the minimum radius, two parts of the track the
clearance apart, the line on the paper, and crossings only where the real line crosses, at a readable angle. The
rules and their numbers are those of :mod:`.rules`, the same the checks of a built circuit use.
"""

from __future__ import annotations

import math

import numpy as np

from ..problems import Problem
from .centerline import Line, cyclic_runs
from .problems import unit_of, unit_span
from .rules import MIN_CROSSING_DEG, MIN_UNITS, Rules, close_pairs

#: The line may stray this far (mm) past the paper's margin: rounding, not a rule broken.
PAPER_TOL = 0.05


def check_adapted(line: Line, rules: Rules, box, unit_mm: float, crossings, real_crossings: int) -> list[Problem]:
    """The problems of the adapted ``line`` (page mm, closed) in the content ``box`` ``(x, y, w, h)``:
    ``crossings`` are where it crosses itself (:class:`~generator.track.adapt.Crossing`), ``real_crossings``
    how often the real line does."""
    out: list[Problem] = []
    L = line.length
    unit = lambda s: unit_of(s, line, unit_mm)  # noqa: E731
    n_units = max(1, round(L / unit_mm))
    if n_units < MIN_UNITS:
        out.append(
            Problem(
                "fit",
                f"the lap is only {L:.0f} mm ({n_units} units)",
                f"a race needs at least {MIN_UNITS} units",
                where="lap",
            )
        )
    # radius
    k = np.abs(line.k[:-1])
    bad = k * rules.min_radius > 1.0 + 1e-9
    for i0, i1 in cyclic_runs(bad):
        idx = np.arange(i0, i1) % len(k)
        j = idx[np.argmax(k[idx])]
        s = float(line.s[j])
        r = 1.0 / k[j]
        out.append(
            Problem(
                "fold",
                f"centre-line radius {math.floor(r * 10) / 10:.1f} mm is under the {rules.min_radius:g} mm minimum",
                "a bend could not be widened here: give the circuit more room (a larger paper)",
                where=unit_span(unit(float(line.s[i0 % len(k)])), unit(float(line.s[(i1 - 1) % len(k)]))),
                s=s,
                unit=unit(s),
                numbers={"radius_mm": r, "min_radius_mm": rules.min_radius},
            )
        )
    # clearance
    C = rules.clearance
    exempt = [(cr.s_first, cr.s_second, rules.crossing_reach(cr.angle_deg, unit_mm)) for cr in crossings]
    _, s, a, b, dist = close_pairs(line, C, exempt)
    seen: list[tuple[int, int]] = []
    for k_ in np.argsort(dist):
        ua, ub = unit(float(s[a[k_]])), unit(float(s[b[k_]]))
        if any(abs(ua - x) <= 3 and abs(ub - y) <= 3 for x, y in seen):
            continue
        seen.append((ua, ub))
        out.append(
            Problem(
                "proximity",
                f"unit {ua} comes within {dist[k_]:.1f} mm of unit {ub} (centre lines); they need {C:g} mm",
                "these parts could not be pushed apart: give the circuit more room (a larger paper)",
                where=f"unit {ua} ↔ unit {ub}",
                s=float(s[a[k_]]),
                unit=ua,
                numbers={"distance_mm": float(dist[k_]), "needed_mm": C},
            )
        )
    # paper
    x0, y0, W, H = box
    m = rules.margin
    lo, hi = line.xy.min(axis=0), line.xy.max(axis=0)
    over = max(x0 + m - lo[0], y0 + m - lo[1], hi[0] - (x0 + W - m), hi[1] - (y0 + H - m))
    if over > PAPER_TOL:
        out.append(
            Problem(
                "fit",
                f"the circuit runs {over:.1f} mm past the paper's edge",
                "use a larger paper",
                where="paper",
                numbers={"over_mm": float(over)},
            )
        )
    # crossings: only where the real line crosses, at a readable angle
    if len(crossings) != real_crossings:
        out.append(
            Problem(
                "crossing",
                f"the board crosses itself {len(crossings)} time(s), the real circuit {real_crossings}",
                "give the circuit more room (a larger paper)",
                where="lap",
            )
        )
    for n, cr in enumerate(crossings):
        if cr.angle_deg < MIN_CROSSING_DEG:
            out.append(
                Problem(
                    "crossing",
                    f"crossing {n} meets at only {cr.angle_deg:.0f}°",
                    f"a bridge needs the two passes to cross at {MIN_CROSSING_DEG}° or more",
                    where=f"unit {unit(cr.s_first)} × unit {unit(cr.s_second)}",
                    s=cr.s_first,
                    unit=unit(cr.s_first),
                    numbers={"angle_deg": cr.angle_deg},
                )
            )
    return out
