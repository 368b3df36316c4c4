"""One rebuild of the preview: the board as its game's pack prints it with the options given, and what the page
shows beside it.

:func:`build_view` builds the board through the game's hook (:meth:`generator.games.Game.board`: f1-dice's and
Formula D's packs' own composers, the plain ``paddock track`` board for a game without one) with the pack's
options (``cars``, ``laps``, ``start``, ``grid``), its problems collected rather than raised: a board with problems
is drawn as the pack builds it, each problem marked where it is on it (:mod:`.locate`); a loop that does not close
is drawn open (:mod:`.sketch`). It adds what the printed sheet carries (scale bars and footer, tiles with
``--tile-onto``: :func:`generator.pipeline.prepare`) and renders it as SVG. A spec that cannot be read, or is
missing, raises (the page keeps the last good board). Everything here is in page mm, as the SVG's viewBox is.
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


def paper_said(circuit, settings) -> str | None:
    """What ``--paper`` did to the spec's own ``paper:``, in words (None when the spec's paper stands)."""
    asked = settings.board_paper()
    spec = circuit.spec
    if asked is None or "paper" not in spec.model_fields_set:
        return None
    own = spec.paper.upper() if str(spec.paper).startswith("a") else spec.paper
    if asked.name == spec.paper and asked.orientation in (None, circuit.paper.orientation):
        return None
    return f"--paper puts the board on {circuit.paper.label}; the spec's 'paper: {spec.paper}' ({own}) is overridden"


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
    if settings.board_paper() is not None:
        paper += " (--paper)"
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


def listing(problems, spec_path, circuit, wording, marks: dict | None = None) -> list[dict]:
    """The problems as the page lists them: ``text``, the line ``paddock check`` prints; its parts; ``mark``, where
    it is on the board of ``circuit`` (None without a circuit or a place); ``marks``: marks known otherwise."""
    from ..problems import check_lines, hint_text
    from .locate import mark

    out = []
    for i, p in enumerate(problems, 1):
        where = (marks or {}).get(i - 1)
        if where is None and circuit is not None:
            where = mark(p, circuit)
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
                "mark": where,
            }
        )
    return out


def grid_layer(page, circuit) -> None:
    """The grid slots (outline, disc and number of each) moved from the board's ``features`` layer into a layer
    of their own, ``grid``, drawn at once after it: the page's toggle shows and hides it. What is not recognised
    as a slot's stays where it was; the drawing is the same."""
    from ..scene import Layer, Polygon, Polyline, Text

    feats = page.layers.get("features")
    if feats is None or not circuit.grid:
        return
    outlines = {tuple(round(v, 3) for xy in slot.outline for v in xy) for slot in circuit.grid}
    centres = {(round(slot.centre[0], 3), round(slot.centre[1], 3)) for slot in circuit.grid}

    def of_grid(item) -> bool:
        if isinstance(item, Polyline):
            return tuple(round(v, 3) for xy in item.points for v in xy) in outlines
        if isinstance(item, Text):
            return (round(item.x, 3), round(item.y, 3)) in centres
        if isinstance(item, Polygon) and len(item.exterior) == 20:  # a slot's number disc
            xs = [p[0] for p in item.exterior]
            ys = [p[1] for p in item.exterior]
            c = (round(sum(xs) / 20, 3), round(sum(ys) / 20, 3))
            return any(abs(c[0] - a) < 0.01 and abs(c[1] - b) < 0.01 for a, b in centres)
        return False

    grid = [item for item in feats.items if of_grid(item)]
    if not grid:
        return
    feats.items = [item for item in feats.items if not of_grid(item)]
    layers = {}
    for name, layer in page.layers.items():
        layers[name] = layer
        if name == "features":
            layers["grid"] = Layer("grid", grid)
    page.layers = layers


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
    """Build the board of ``spec_path`` for the page, as the game's pack builds it with ``options`` (``cars``,
    ``laps``, ``start``, ``grid``: :meth:`generator.games.Game.board`). A spec that cannot be read — or is no
    longer there: never a shipped circuit of the same name in its place — raises its InputError; a board with
    problems is drawn as the pack builds it, its problems marked on it (``printable`` False); a loop that does
    not close is drawn open, its gap marked (:mod:`.sketch`); ``svg`` is None when nothing of it can be drawn.
    ``wording`` says a fix as ``paddock check`` does; ``stale()`` says a newer save came (then
    :class:`Superseded` is raised at the next checkpoint); ``notes``: further checks of a built board
    (:data:`NoteSource`); ``said_change`` words a change the build made (``close: auto``) as the command line does."""
    import time

    from .. import games
    from ..data import is_shipped
    from ..errors import GeometryError
    from ..pipeline import prepare
    from ..problems import spec_wording
    from ..scene import Document, Sheet
    from ..writers import WRITERS
    from .locate import Locator, spots

    def checkpoint() -> None:
        if stale():
            raise Superseded

    spec_path = Path(spec_path)
    wording = wording or spec_wording
    options = {k: v for k, v in (options or {}).items() if v is not None}
    t0 = time.perf_counter()
    missing(spec_path)
    game = games.board_game(spec_path, game_id)
    problems: list = []
    circuit = sheet = None
    marks: dict = {}
    try:
        circuit, sheet = game.board(spec_path, settings, problems=problems, **options)
    except GeometryError as err:
        if not getattr(err, "problems", None):
            raise
        problems = list(err.problems)
        checkpoint()
        drawn = _open_loop(spec_path, settings, problems)
        if drawn is not None:
            sheet, marks = Sheet("board", drawn[0]), drawn[1]
    if circuit is not None and circuit.source is not None and is_shipped(circuit.source) and not is_shipped(spec_path):
        missing(spec_path, always=True)  # a same-named shipped spec read in its place: never shown
    printable = not problems
    name = (circuit.spec.title or circuit.name) if circuit is not None else spec_path.name
    state: dict = {
        "name": name,
        "file": str(spec_path),
        "game": game.id,
        "printable": printable,
        "problems": listing(problems, spec_path, circuit, wording, marks),
        "notes": [],
        "figures": [],
        "tables": [],
        "tiles": [],
        "layers": [],
    }
    if sheet is None:
        state["ms"] = round((time.perf_counter() - t0) * 1000)
        return View(svg=None, pages=[], title=state["name"], state=state)
    checkpoint()
    page = sheet.page
    if circuit is not None:
        grid_layer(page, circuit)
    pages = prepare(sheet, settings)  # the sheet as printed: scale bars and footer; tiles with --tile-onto
    title = page.title or name
    checkpoint()
    svg = WRITERS["svg"].render(Document([page], title))[0]
    state.update(
        page={"w": _r(page.width), "h": _r(page.height)}, layers=[n for n, layer in page.layers.items() if layer.items]
    )
    if circuit is None:  # the open loop: its problems, no figures
        state["ms"] = round((time.perf_counter() - t0) * 1000)
        return View(svg=svg, pages=pages, title=title, state=state)
    facts = games.BoardFacts()
    try:
        facts = _facts(game, circuit, options.get("laps"))
    except Exception:  # noqa: BLE001 — the board stands without its game's figures
        facts = games.BoardFacts()
    extra = [{"source": "change", "text": said_change(change)} for change in circuit.changes]
    paper = paper_said(circuit, settings)
    if paper:
        extra.insert(0, {"source": "paper", "text": paper})
    if printable:
        for source, check in notes:
            extra += [{"source": source, "text": str(line)} for line in check(circuit)]
    tiles = _tiles(page, settings)
    checkpoint()
    try:
        located = spots(circuit, Locator(circuit, spec_path))
    except Exception:  # noqa: BLE001 — the board stands without its numbers
        located = {"spots": [], "refs": [], "size": 3.0}
    state.update(
        notes=extra,
        figures=figures(circuit, settings, game, printable, len(tiles)) + [list(f) for f in facts.figures],
        tables=list(facts.tables),
        tiles=tiles,
        units=located,
        print_pages=len(pages),
        ms=round((time.perf_counter() - t0) * 1000),
    )
    return View(svg=svg, pages=pages, title=title, state=state)


def _facts(game, circuit, laps):
    """The game's figures and tables of its board (the race length ``laps`` where the game takes it)."""
    import inspect

    hook = game.board_facts
    if laps is not None and "laps" in inspect.signature(hook).parameters:
        return hook(circuit, laps=laps)
    return hook(circuit)


def _open_loop(spec_path, settings, problems):
    from .sketch import open_loop

    try:
        return open_loop(spec_path, settings, problems)
    except Exception:  # noqa: BLE001 — the problems alone, without a drawing
        return None


def missing(spec_path: Path, always: bool = False) -> None:
    """An InputError when the spec is not there (deleted, renamed, or not yet saved again by an editor)."""
    from ..errors import InputError

    if always or not spec_path.is_file():
        raise InputError(
            "the spec file is missing (deleted or renamed?)",
            file=spec_path,
            hint="save it again under this name, or start paddock preview with its new name",
        )
