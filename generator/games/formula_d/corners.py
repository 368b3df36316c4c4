"""Formula D corners on the board's own spaces: their stepped limits and long (green) / short (red) paths are
computed on the :class:`~generator.track.spaces.LaneGraph` (see ``generator/track/spaces.py``, where the rules
are written out); this module adds the stops Paddock suggests when a spec gives none."""

from __future__ import annotations

from ...track.spaces import (  # noqa: F401  (the corner geometry lives with the spaces; Formula D's names)
    CornerLimits,
    CornerPaths,
    corner_limits,
    corner_paths,
    corner_spaces,
    nearest_edge,
    plausible_short,
)


def suggest_stops(radius_mm: float, short: int | None = None) -> int:
    """Stops for a corner whose spec gives none: from its centre-line radius (``templates/formula-d/sheets.yaml``),
    never more than the spaces on its shortest path (a car must be able to stop that many times inside)."""
    from .facts import sheets

    stops = 1
    for row in sheets()["stops_by_radius"]:
        if row["max_radius_mm"] is None or radius_mm <= row["max_radius_mm"]:
            stops = int(row["stops"])
            break
    if short is not None:
        stops = max(1, min(stops, short))
    return stops
