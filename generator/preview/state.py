"""One rebuild of the preview: the board as its game's pack prints it, and what the page shows beside it.

:func:`build_view` builds the board through the game's hook (:meth:`generator.games.Game.board`: f1-dice's and
Formula D's packs' own composers, the plain ``paddock track`` board for a game without one), adds what the
printed sheet carries (its scale bars and footer, its tiles with ``--tile-onto``: :func:`generator.pipeline.prepare`)
and renders it as SVG. A board that does not build (a GeometryError listing problems) is drawn as far as
``paddock check`` builds it, each problem marked where it is on it (:func:`mark`); a spec that cannot be read
raises (the page keeps the last good board). Everything here is in page mm, as the SVG's viewBox is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A check that says more about a built board (say, a race simulator's warnings): its name and a function of
#: the circuit giving lines of text. Each is listed under its name beside the board (see :class:`Preview`).
NoteSource = tuple[str, Callable[[Any], Sequence[str]]]


class Superseded(Exception):  # noqa: N818 — not an error: a newer save came while this build ran
    """Raised at a checkpoint of a build whose spec changed again meanwhile: the newer save is built instead."""


@dataclass
class View:
    """What one good rebuild shows: the board's ``svg`` and the ``pages`` its PDF prints (the sheet as printed:
    scale bars, tiles and assembly page), and ``state``, the page's data (JSON-able)."""

    svg: bytes | None
    pages: list
    title: str
    state: dict = field(default_factory=dict)


def _r(v: float, digits: int = 2) -> float:
    return round(float(v), digits)


def mark(problem, circuit) -> dict | None:
    """Where ``problem`` is on the board of ``circuit``, in page mm: ``x``, ``y`` (the worst point) and ``path``,
    the centre line over the unit it names (or a unit's length round its point). None when it has no place (the
    paper, the lap as a whole)."""
    import numpy as np

    try:
        lap, u = circuit.lap_length, circuit.unit_length
        s = problem.s
        if s is None and problem.unit is not None:
            a, b = circuit.unit_bounds(problem.unit)
            s = (a + b) / 2
        if s is None and (problem.where or "").startswith("pit") and circuit.pit is not None:
            xy = np.asarray(circuit.pit.polygon, dtype=float)
            return {"x": _r(xy[:, 0].mean()), "y": _r(xy[:, 1].mean()), "path": []}
        if s is None and (problem.where or "") == "grid":
            s = 0.0
        if s is None or not np.isfinite(s):
            return None
        s %= lap
        a, b = s - u / 2, s + u / 2  # a unit's length round the point
        if problem.unit is not None:
            a0, b0 = circuit.unit_bounds(problem.unit)
            if a0 - 1e-6 <= s <= b0 + 1e-6:  # the unit it names, where the point lies in it
                a, b = a0, b0
        x, y = circuit.point_at(s)
        path = circuit.offset_line(a % lap, a % lap + (b - a), 0.0)
        return {"x": _r(x), "y": _r(y), "path": np.round(np.asarray(path, dtype=float), 2).tolist()}
    except Exception:  # noqa: BLE001 — a circuit that failed its checks may not answer every question
        return None


def figures(circuit, settings, game, printable: bool, tiles: int = 0) -> list[list[str]]:
    """The key figures beside the board: units or spaces, lap, paper (and tiles), grid and pit, and for a real
    circuit how far the board is from its shape."""
    out: list[list[str]] = [["Game", f"{game.id} ({game.title})" if game.title != game.id else game.id]]
    if circuit.graph is not None:
        per = [str(circuit.graph.count(i)) for i in range(circuit.lanes)]
        out.append(["Spaces", " · ".join(f"lane {i + 1}: {n}" for i, n in enumerate(per))])
    else:
        out.append(["Units", f"{circuit.units_count} of {circuit.unit_length:.1f} mm"])
    out.append(["Lap", f"{circuit.lap_length:,.0f} mm, {circuit.lanes} lane{'s' if circuit.lanes != 1 else ''}"])
    paper = circuit.paper.label
    tile = settings.tile_paper
    if tile is not None:
        size = tile.name.upper() if tile.name.startswith("a") else tile.name
        paper += f", tiled onto {tiles} {size} sheets" if tiles else f", fits on {size}"
    out.append(["Paper", paper])
    if circuit.grid:
        out.append(["Grid", f"{len(circuit.grid)} slots"])
    if circuit.pit is not None:
        out.append(["Pit lane", f"{circuit.pit.garages} garages"])
    if circuit.fidelity is not None:
        f = circuit.fidelity
        out.append(
            ["Off the real shape", f"at most {f.max_mm:.1f} mm ({f.max_pct:.1f} %), {f.mean_mm:.1f} mm on average"]
        )
    if not printable:
        out.append(["Prints", "not yet: see the problems"])
    return out


def _tiles(page, settings) -> list[dict]:
    """The tiles ``--tile-onto`` cuts the sheet into: each window on the sheet (page mm) and its label."""
    from ..compose.tiling import plan
    from ..pipeline import fits_on

    tile = settings.tile_paper
    if tile is None or fits_on(page, tile):
        return []
    p = plan(page, tile, edge=settings.edge, overlap=settings.overlap, free=settings.tile_onto.orientation is None)
    return [dict(label=t.label, **dict(zip("xywh", map(_r, t.window), strict=True))) for t in p.tiles]


def _fallback(spec_path, settings, game, err):
    """A board whose pack refuses it (``err``, a GeometryError listing problems): the circuit as far as
    ``paddock check`` builds it and its problems (the pack's own when check finds none: a field's grid), or
    (None, the pack's problems) when there is nothing to draw."""
    from .. import track
    from ..games import board_notes

    problems = list(err.problems)
    try:
        found = track.check(spec_path, settings.board_paper(), edge=settings.edge, notes=board_notes)
    except Exception:  # noqa: BLE001 — the pack's error stands
        return None, problems
    return found.circuit, (found.problems or problems)


def listing(problems, spec_path, circuit, wording) -> list[dict]:
    """The problems as the page lists them: ``text``, the line ``paddock check`` prints; its parts; ``mark``, where
    it is on the board of ``circuit`` (None without a circuit or a place)."""
    from ..problems import check_lines, hint_text

    out = []
    for i, p in enumerate(problems, 1):
        out.append(
            {
                "n": i,
                "text": check_lines(spec_path, [p], lambda p: p.text(wording))[0].strip(),
                "kind": p.kind,
                "where": p.where,
                "message": p.message,
                "hint": hint_text(p, wording),
                "line": p.line,
                "field": p.field,
                "mark": mark(p, circuit) if circuit is not None else None,
            }
        )
    return out


def build_view(
    spec_path: Path,
    settings,
    game_id: str | None = None,
    options: dict | None = None,
    wording: Callable | None = None,
    stale: Callable[[], bool] = lambda: False,
    notes: Sequence[NoteSource] = (),
    said_change: Callable[[str], str] = str,
) -> View:
    """Build the board of ``spec_path`` for the page. A spec that cannot be read raises its InputError; a board
    that does not build gives its problems, over the board as far as it builds (``svg`` None when nothing of it
    can be drawn). ``wording`` says a fix as ``paddock check`` does; ``stale()`` says a newer save came (then
    :class:`Superseded` is raised at the next checkpoint); ``notes``: further checks of a built board
    (:data:`NoteSource`); ``said_change`` words a change the build made (``close: auto``) as the command line does."""
    import time

    from .. import games
    from ..errors import GeometryError
    from ..pipeline import prepare
    from ..problems import spec_wording
    from ..scene import Document, Sheet
    from ..track import draw_board
    from ..writers import WRITERS

    def checkpoint() -> None:
        if stale():
            raise Superseded

    wording = wording or spec_wording
    t0 = time.perf_counter()
    game = games.board_game(spec_path, game_id)
    problems: list = []
    sheet = None
    try:
        circuit, sheet = game.board(spec_path, settings, **(options or {}))
        printable = True
    except GeometryError as err:
        if not getattr(err, "problems", None):
            raise
        checkpoint()
        printable = False
        circuit, problems = _fallback(spec_path, settings, game, err)
        if circuit is not None:
            try:
                sheet = Sheet("board", draw_board(circuit).page)
            except Exception:  # noqa: BLE001 — a circuit too broken to draw: its problems alone
                circuit = None
    state: dict = {
        "name": circuit.spec.title or circuit.name if circuit is not None else Path(spec_path).name,
        "file": str(spec_path),
        "game": game.id,
        "printable": printable,
        "problems": listing(problems, spec_path, circuit, wording),
        "notes": [],
        "figures": [],
        "tables": [],
        "tiles": [],
    }
    if sheet is None:
        state["ms"] = round((time.perf_counter() - t0) * 1000)
        return View(svg=None, pages=[], title=state["name"], state=state)
    checkpoint()
    pages = prepare(sheet, settings)  # the sheet as printed: scale bars and footer; tiles with --tile-onto
    page = sheet.page
    title = page.title or circuit.name
    checkpoint()
    svg = WRITERS["svg"].render(Document([page], title))[0]
    facts = games.BoardFacts()
    if printable:
        try:
            facts = game.board_facts(circuit)
        except Exception:  # noqa: BLE001 — the board stands without its game's figures
            facts = games.BoardFacts()
    extra = [{"source": "change", "text": said_change(change)} for change in circuit.changes]
    if printable:
        for source, check in notes:
            extra += [{"source": source, "text": str(line)} for line in check(circuit)]
    tiles = _tiles(page, settings)
    state.update(
        notes=extra,
        figures=figures(circuit, settings, game, printable, len(tiles)) + [list(f) for f in facts.figures],
        tables=list(facts.tables),
        page={"w": _r(page.width), "h": _r(page.height)},
        tiles=tiles,
        print_pages=len(pages),
        ms=round((time.perf_counter() - t0) * 1000),
    )
    return View(svg=svg, pages=pages, title=title, state=state)
