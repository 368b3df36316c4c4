"""How a Formula D board plays, as its legend and ``check`` say it: a short board (a lap the gear dice were not
built for) says so on its legend. The measures are data, in ``templates/formula-d/play.yaml``."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from ...data import template


@cache
def settings() -> dict:
    """``templates/formula-d/play.yaml``, read once."""
    return template("formula-d/play.yaml")


def lap_spaces(circuit) -> int:
    """The board's lap in spaces, counted in its shortest lane (0 for a board ruled in units across)."""
    g = circuit.graph
    return 0 if g is None else min(g.count(lane) for lane in range(g.lanes))


def play_notes(circuit) -> tuple[str, ...]:
    """The legend's lines on how the board plays: a short board (a lap shorter than ``short_lap_spaces`` in its
    shortest lane) is raced mostly in 2nd-4th gear."""
    cfg = settings()
    n = lap_spaces(circuit)
    if 0 < n < cfg["short_lap_spaces"]:
        return (cfg["legend"]["short_board"].format(spaces=n),)
    return ()


def with_play_notes(done):
    """An :class:`~generator.track.Analysis` whose circuit carries :func:`play_notes` on its legend."""
    c = done.circuit
    if c is None:
        return done
    notes = tuple(n for n in play_notes(c) if n not in c.notes)
    return done if not notes else replace(done, circuit=replace(c, notes=c.notes + notes))
