"""Formula D's board hooks (:class:`generator.games.Game`): :data:`profile` (what its boards are to the circuit
engine), :func:`board` and :func:`board_facts` (the preview), :func:`analysis` and :func:`page` (``check`` and
``track``). The board itself is built in :mod:`.circuit` and drawn in :mod:`.overlay`."""

from __future__ import annotations

from ...scene import Sheet
from .. import BoardFacts
from .circuit import analysis, arc_corners, board_analysis, board_path, load_circuit, profile  # noqa: F401
from .overlay import corner_marks, formula_d_board

#: The pack's field when no players are named (``pack.build``: "Player 1" to "Player 4"): a garage each.
PACK_PLAYERS = 4


def board(spec_path, settings, players: int = PACK_PLAYERS, gt: bool = False, pit_roll: int | None = None):
    """The pack's board: ruled per lane, the corner lines, flags and paths, a garage per player."""
    paper, edge = settings.board_paper(), settings.edge
    circuit = load_circuit(spec_path, paper, edge, road_race=gt, garages=players)
    page = formula_d_board(
        spec_path, n_cars=players, pit_roll=pit_roll, paper=paper, edge=edge, road_race=gt, circuit=circuit
    )
    return circuit, Sheet("board", page)


def board_facts(circuit) -> BoardFacts:
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
