"""How a Formula D board plays, as its legend and ``check`` say it: a short board (a lap the gear dice were not
built for) says so on its legend; a corner every path of which is as long as its stops (every move through it one
space: a queue) is named, with its zone a space longer as the fix, built before it is said. The measures are
data, in ``templates/formula-d/play.yaml``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import facts
from .corners import corner_paths


def settings():
    """``templates/formula-d/play.yaml``, read once (typed: :class:`.models.Play`)."""
    return facts.play()


def lap_spaces(circuit) -> int:
    """The board's lap in spaces, counted in its shortest lane (0 for a board ruled in units across)."""
    g = circuit.graph
    return 0 if g is None else min(g.count(lane) for lane in range(g.lanes))


def play_notes(circuit) -> tuple[str, ...]:
    """The legend's lines on how the board plays: a short board (a lap shorter than ``short_lap_spaces`` in its
    shortest lane) is raced mostly in 2nd-4th gear."""
    cfg = settings()
    n = lap_spaces(circuit)
    if 0 < n < cfg.short_lap_spaces:
        return (cfg.legend.short_board.format(spaces=n),)
    return ()


def with_play_notes(done):
    """An :class:`~generator.track.Analysis` whose circuit carries :func:`play_notes` on its legend."""
    c = done.circuit
    if c is None:
        return done
    notes = tuple(n for n in play_notes(c) if n not in c.notes)
    return done if not notes else replace(done, circuit=replace(c, notes=c.notes + notes))


@dataclass(frozen=True)
class Forced:
    """A corner every path of which has no more spaces than its stops: ``index`` counts from 1."""

    index: int
    name: str | None
    stops: int
    spaces: int


def forced_corners(circuit) -> list[Forced]:
    """The corners with stops every path of which has no more spaces than the corner's stops: a car makes them
    only by moving one space a turn through the corner."""
    if circuit.graph is None:
        return []
    out = []
    for i, k in enumerate(circuit.corners, 1):
        if not k.stops:
            continue
        try:
            long = corner_paths(circuit.graph, k.s_start, k.s_end).long
        except Exception:  # noqa: BLE001 - a corner with no way through: corner_notes says so
            continue
        if long <= k.stops:
            out.append(Forced(i, k.name, k.stops, long))
    return out


def forced_notes(done, rebuild) -> list[str]:
    """What ``check`` says of each corner of ``done`` (an Analysis of a spec that declares its corners) every path
    of which is its stops, with the fix: its ``corners`` entry a unit longer at its entry (or its exit), rebuilt by
    ``rebuild(spec)`` (an Analysis) and said only where that board builds with the corner no longer forced."""
    c = done.circuit
    if c is None or done.problems or not c.spec.corners or len(c.spec.corners) != len(c.corners):
        return []
    say = settings().check
    out = []
    n = max(1, round(c.lap_length / c.spec.unit))
    for m in forced_corners(c):
        entry = sorted(c.spec.corners, key=lambda k: k.from_)[m.index - 1]
        name = f"corner {m.index}" + (f" ({m.name})" if m.name else "")
        line = say.forced.format(name=name, spaces=m.spaces, stops=m.stops)
        for wider in ({"from": (entry.from_ - 2) % n + 1}, {"to": entry.to % n + 1}):
            fixed = _widened(c.spec, entry, wider)
            try:
                built = rebuild(fixed)
            except Exception:  # noqa: BLE001 - a fix that does not build is not said
                continue
            if built.circuit is None or built.problems:
                continue
            if any(k.index == m.index for k in forced_corners(built.circuit)):
                continue
            new = fixed.corners[c.spec.corners.index(entry)]
            text = f"{{from: {new.from_}, to: {new.to}, stops: {new.stops}" + (
                f", name: {new.name}}}" if new.name else "}"
            )
            line += say.forced_fix.format(entry=text)
            break
        out.append(line)
    return out


def _widened(spec, entry, wider: dict):
    """``spec`` with its corner ``entry`` a unit longer (``wider``: its new ``from`` or ``to``), its arcs' own
    corners (``stops``, ``name``) left to its ``corners`` list (which holds them already)."""
    from ...track.model import CornerSpec

    corners = [
        CornerSpec.model_validate({"from": k.from_, "to": k.to, "stops": k.stops, "name": k.name} | wider)
        if k is entry
        else k
        for k in spec.corners
    ]
    segments = spec.segments
    if segments is not None:
        segments = [
            s.model_copy(update={"arc": s.arc.model_copy(update={"stops": None, "name": None})}) if s.arc else s
            for s in segments
        ]
    return spec.model_copy(update={"corners": corners, "segments": segments})


def raced_fixes(track, circuit, report, build, race, most: float) -> None:
    """Each of ``report``'s warnings of a corner overshot in more than ``most`` of its passes, on a spec
    (``track``) that lists its corners in ``corners`` (none of its own on an arc): the corner's zone longer —
    its entry a unit earlier; and its exit a unit later; its entry two earlier — where that reaches no neighbour,
    each board built (``build(corners)``: the circuit with those ``corners`` entries) and raced (``race(circuit)``:
    the figures of :func:`.simulate.play_figures`); the warning says the first that brings the corner to ``most``
    of its passes or under (its ``corners`` entry and its share), else what the last made of it."""
    spec = circuit.spec
    if track is None or not spec.corners or len(spec.corners) != len(circuit.corners):
        return
    if any(s.arc is not None and (s.arc.stops or s.arc.name) for s in spec.segments or []):
        return
    entries = sorted(spec.corners, key=lambda k: k.from_)
    n = max(1, round(circuit.lap_length / spec.unit))
    for c in report.data["corners"]:
        share = c.get("overshoot_share")
        if share is None or share <= most:
            continue
        at = next((i for i, w in enumerate(report.warnings) if w.startswith(f"{c['label']} is overshot in")), None)
        if at is None:
            continue
        i = c["corner"] - 1
        entry, said = entries[i], ""
        before, after = entries[i - 1], entries[(i + 1) % len(entries)]
        for earlier, later in ((1, 0), (1, 1), (2, 1)):
            first, last = (entry.from_ - 1 - earlier) % n + 1, (entry.to - 1 + later) % n + 1
            if len(entries) > 1 and (_within(first, before.from_, before.to) or _within(last, after.from_, after.to)):
                continue  # into a neighbour's units
            fixed = [
                {"from": k.from_, "to": k.to, "stops": k.stops, "name": k.name}
                | ({"from": first, "to": last} if k is entry else {})
                for k in entries
            ]
            try:
                got = race(build(fixed))["corners"][c["corner"] - 1]["overshoot_share"]
            except Exception:  # noqa: BLE001 - a fix that does not build or race is not said
                continue
            new = fixed[entries.index(entry)]
            text = f"{{from: {new['from']}, to: {new['to']}, stops: {new['stops']}" + (
                f", name: {new['name']}}}" if new["name"] else "}"
            )
            said = f"; built and raced with the corners entry {text}: {100 * (got or 0):.0f} % of passes"
            if got is not None and got <= most:
                break
        report.warnings[at] += said


def _within(unit: int, first: int, last: int) -> bool:
    """Whether ``unit`` lies in the units ``first`` to ``last`` (past the start line when ``last`` < ``first``)."""
    return first <= unit <= last if first <= last else unit >= first or unit <= last
