"""Formula D's board as its pack prints it (:class:`generator.games.Game`'s hooks): :func:`board` and
:func:`board_facts` (the preview), :func:`page` (``track``). The board itself is built in :mod:`.circuit` (its
``profile`` and ``analysis``: what the engine and ``check`` ask) and drawn in :mod:`.overlay`."""

from __future__ import annotations

from ...errors import InputError
from ...problems import geometry_error
from ...scene import Sheet
from .. import BoardFacts
from .builds import PLAYERS_MAX
from .circuit import analysis, arc_corners, board_analysis, board_path, load_circuit, profile  # noqa: F401
from .cli import MAX_LAPS
from .overlay import corner_marks, formula_d_board

#: The pack's field when no players are named (``pack.build``: "Player 1" to "Player 4"): a garage each.
PACK_PLAYERS = 4


def board(
    spec_path,
    settings,
    players: int = PACK_PLAYERS,
    gt: bool = False,
    pit_roll: int | None = None,
    cars: int | None = None,
    laps: int | None = None,
    start: str | None = None,
    grid: int | None = None,
    problems: list | None = None,
):
    """The pack's board: ruled per lane, the corner lines, flags and paths, a garage per player (``cars`` players
    when given), the race length (``laps``); ``start`` and ``grid`` replace the spec's as ``check --game
    formula-d`` takes them. ``problems``: a list the board's problems go into instead of being raised (see
    :meth:`generator.games.Game.board`)."""
    if cars is not None:
        if not 1 <= cars <= PLAYERS_MAX:
            raise InputError(f"--cars {cars}", field="--cars", hint=f"a Formula D race has 1 to {PLAYERS_MAX} cars")
        players = cars
    if laps is not None and not 1 <= laps <= MAX_LAPS:
        raise InputError(f"--laps {laps}", field="--laps", hint=f"the pack prints races of 1 to {MAX_LAPS} laps")
    paper, edge = settings.board_paper(), settings.edge
    overrides = {"start": start, "grid": grid}
    if problems is None:
        circuit = load_circuit(spec_path, paper, edge, road_race=gt, garages=players, overrides=overrides)
    else:
        done = board_analysis(spec_path, paper, edge, gt, players, overrides)
        problems.extend(done.problems)
        if done.circuit is None:
            raise geometry_error(done.problems, done.source)
        circuit = done.circuit
    page = formula_d_board(
        spec_path,
        n_cars=players,
        pit_roll=pit_roll,
        paper=paper,
        edge=edge,
        road_race=gt,
        circuit=circuit,
        laps=laps,
    )
    return circuit, Sheet("board", page)


def board_facts(circuit, laps: int | None = None) -> BoardFacts:
    """The corners as the board marks them: stops (``?``: suggested, the spec gives none), the green (long) and red
    (short) paths in spaces."""
    rows = [
        [m.index, m.name or "", f"{m.stops}{'?' if m.stops_suggested else ''}", m.paths.long, m.paths.short]
        for m in corner_marks(circuit)
    ]
    corners = {"title": "Corners", "columns": ["#", "name", "stops", "green (long)", "red (short)"], "rows": rows}
    return BoardFacts(tables=(corners,))


def page(circuit):
    """The page of a board :func:`analysis` built, as the pack prints it (its layer on the engine's)."""
    return formula_d_board(circuit=circuit)
