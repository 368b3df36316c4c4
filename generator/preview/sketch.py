"""A loop that does not close has no board: the preview draws its segments as they lie, open, on the spec's paper,
the gap between the last segment's end and the start marked, so a designer sees what to lengthen."""

from __future__ import annotations

import numpy as np


def open_loop(spec_path, settings, problems) -> tuple | None:
    """``(page, marks)`` for a segments spec whose loop does not close (a ``closure`` problem among
    ``problems``): the open centre line drawn at true scale (smaller if the paper cannot hold it), each segment
    numbered, the gap in red; ``marks``: problem index → its mark (page mm). None for anything else."""
    from ..scene import Circle, Page, PageSpec, Polyline, Style, Text
    from ..track import load_spec
    from ..track.centerline import line_from_pieces, piece_starts, pieces_from_segments
    from ..track.palette import INK
    from ..track.place import papers

    closure = [i for i, p in enumerate(problems) if p.kind == "closure"]
    if not closure:
        return None
    spec, _, _ = load_spec(spec_path)
    if spec.segments is None or not spec.segments:
        return None
    pieces = pieces_from_segments(spec.segments)
    if not pieces:
        return None
    line, end, _ = line_from_pieces(pieces, closing=False)
    xy = np.asarray(line.xy, dtype=float)
    paper = papers(spec, settings.board_paper())[0]
    page = Page(PageSpec(paper, settings.edge), spec.title or spec.name)
    x0, y0, w, h = page.content_box
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    half = spec.lanes * spec.lane_width / 2
    span = np.maximum(hi - lo + 2 * half, 1e-9)
    k = min(1.0, w / span[0], h / span[1])
    shift = np.array([x0 + w / 2, y0 + h / 2]) - (lo + hi) / 2 * k
    P = xy * k + shift
    gap = np.vstack((np.asarray(end, dtype=float) * k + shift, P[0]))
    pts = tuple((float(a), float(b)) for a, b in P)
    track = page.layer("track")
    track.add(Polyline(pts, Style(stroke="#d9dde2", width=2 * half * k, join="round", cap="butt")))
    track.add(Polyline(pts, Style(stroke=INK, width=0.3)))
    labels = page.layer("labels")
    starts = piece_starts(pieces)
    done = set()
    for p, s0 in zip(pieces, starts, strict=True):
        if p.index in done:
            continue
        done.add(p.index)
        length = sum(q.length for q in pieces if q.index == p.index)
        at = line.point(np.array([s0 + length / 2]))[0] * k + shift
        labels.add(Text(str(p.index + 1), float(at[0]), float(at[1]), 3.5, "bold", "#1b5fd1", "middle", "middle"))
    red = "#d42b3a"
    g = tuple((float(a), float(b)) for a, b in gap)
    labels.add(Polyline(g, Style(stroke=red, width=0.8, dash=(2.0, 1.0))))
    labels.add(Circle(g[0], 1.6, Style(stroke=None, fill=red)))
    labels.add(Circle(g[1], 1.6, Style(stroke=None, fill=INK)))
    note = "the loop does not close: the segments as written, open" + ("" if k == 1 else f", drawn at {k:.0%}")
    labels.add(Text(note, x0 + 2, y0 + 5, 4.0, "bold", red))
    mark = {"x": round(g[0][0], 2), "y": round(g[0][1], 2), "path": [list(map(lambda v: round(v, 2), q)) for q in g]}
    return page, {i: mark for i in closure}
