"""A built circuit as the commands' ``--json`` answers give it: ``check --json`` (:func:`check_summary`: the
circuit, its corners, problems, changes, deviation and centre line) and each corner (:func:`corner_entry`, which
``corners --json`` of a game's board extends). Every key is always there; numbers rounded as the answer has always
given them; :func:`plain` turns a numpy number into the plain one JSON takes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..problems import option_entry
from .fidelity import closed, resample


def _round(v, digits: int = 1):
    return round(v, digits) if math.isfinite(v) else None


def plain(v):
    """A numpy number (a measured value a check put in a problem's numbers) as the plain number JSON takes."""
    if hasattr(v, "item"):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not JSON serializable")


def corner_entry(circuit, index: int) -> dict:
    """One corner of ``circuit`` (0-based ``index``) as ``check --json`` and ``corners --json`` give it."""
    c = circuit.corners[index]
    return {
        "corner": index + 1,
        "name": c.name,
        "unit": int(c.apex // circuit.unit_length) + 1,
        "s_start_mm": round(c.s_start, 1),
        "s_end_mm": round(c.s_end, 1),
        "apex_mm": round(c.apex, 1),
        "radius_mm": _round(c.radius),
        "angle_deg": round(c.angle, 1),
        "direction": c.direction,
        "stops": c.stops,
    }


def centre_line(c) -> list:
    """The board's centre line for ``check --json``: page mm (y down), from the start line in the race direction,
    a point every mm or closer (the closing point left out)."""
    xy = c.line.xy[:-1]
    if len(xy) > 1 and np.hypot(*np.diff(closed(xy), axis=0).T).max() > 1.0:
        xy = resample(xy, 1.0)
    return np.round(xy, 2).tolist()


def check_summary(path: Path, result=None, error=None, warnings=()) -> dict:
    """The ``check --json`` answer: for an :class:`~generator.track.Analysis` ``result``, or for a spec that could
    not be read (``error``, a PaddockError: its one problem); ``warnings``: every warning the check said on stderr.
    Every key is always there (null when unknown)."""
    out: dict = {
        "name": None,
        "file": str(path),
        "lanes": None,
        "lane_width_mm": None,
        "unit_mm": None,
        "unit_mode": None,
        "lap_mm": None,
        "units": None,
        "corners": [],
        "paper": None,
        "fits": False,
        "buildable": False,
        "problems": [],
        "changes": [],
        "pit": None,
        "deviation": None,
        "north": None,
        "source_to_page": None,
        "centre_line": [],
        "warnings": [str(w) for w in warnings],
    }
    if error is not None:
        problem = {"kind": "input", "where": error.field or "", "message": error.message, "hint": error.hint or ""}
        for key in ("file", "line", "field"):
            if getattr(error, key) is not None:
                problem[key] = getattr(error, key)
        problem["fixes"] = []
        out["problems"] = [problem]
        return out
    spec, c = result.spec, result.circuit
    out.update(
        name=spec.name,
        file=str(result.source),
        lanes=spec.lanes,
        lane_width_mm=spec.lane_width,
        unit_mm=spec.unit,
        unit_mode=spec.units,
        buildable=result.buildable,
        problems=[option_entry(p) for p in result.problems],
        changes=[str(change) for change in result.changes],
    )
    paper = result.paper
    out["paper"] = getattr(paper, "label", None) or (paper.name if paper is not None else spec.paper)
    if c is None:
        return out
    out.update(
        lap_mm=round(c.lap_length, 1),
        units=c.units_count if c.graph is None else {f"lane {i + 1}": c.graph.count(i) for i in range(c.lanes)},
        corners=[corner_entry(c, i) for i in range(len(c.corners))],
        paper=c.paper.label,
        fits=not any(p.kind == "fit" for p in result.problems),
    )
    out["centre_line"] = centre_line(c)
    if c.fidelity is not None:
        out["deviation"] = c.fidelity.as_dict()
    if c.source_to_page is not None:
        sc, rot, shift = c.source_to_page
        out["source_to_page"] = {
            "flip_y": True,
            "rotation_deg": round(rot, 6),
            "scale": round(sc, 9),
            "shift_mm": [round(shift[0], 4), round(shift[1], 4)],
        }
    if c.north is not None:
        out["north"] = [round(c.north[0], 4), round(c.north[1], 4)]
    if c.pit:
        out["pit"] = {
            "side": c.pit.side,
            "from_unit": c.unit_at(c.pit.s0),
            "to_unit": c.unit_at(c.pit.s1 - 1e-6),
            "garages": c.pit.garages,
            "min_roll": c.pit.min_roll,
        }
    return out
