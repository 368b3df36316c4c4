"""The one place that rebuilds a board: which requests to build, in what order, and what to keep.

A :class:`Search` answers a :class:`~generator.track.request.BoardRequest` with the board to print (or its
problems, each fix in them tried): :meth:`Search.board` is

1. the lap's scale, for a real line asked as a lap of ``fit`` units (:meth:`Search.lap_scale`: the adapted lap is
   not the real one times the scale, so the scale is corrected by the laps built);
2. one build (:func:`.build.build`, pure);
3. the start line moved where the grid stands on straight track, when the spec leaves it open
   (:meth:`Search.placed`);
4. the fixes each problem suggests, each followed (:meth:`~generator.track.fixes.CircuitFix.apply`) and kept only
   where it builds (:meth:`Search.advise`).

A game's own search — Formula D's papers and longer straights, its grid clear of corners; f1-dice's field that
fits — is its :class:`Policy`, data and a few hooks from the game's package, run by :meth:`Search.run`. Every
build goes through :meth:`Search.build`, which remembers the real lines it adapted (moving the start line only
rolls an adapted line): the search's one cache, gone with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ..errors import InputError, PaddockError
from ..problems import Problem, geometry_error
from . import grid as grids
from .adapt import RUN_WORK
from .build import Analysis, build, located
from .changed import FewerOnGrid, GridAtRealStart, StartClearOfCorners, StartMoved
from .circuit import Circuit
from .fit import run_budget
from .fixes import CrossingFix, with_value
from .model import CircuitSpec
from .place import adapt_to, fit_problem, keeps_shape, lap_paper
from .request import ENGINE, BoardRequest

#: At most this many extra builds are spent trying the fixes of one analysis.
TRIALS = 8
#: A lap of ``fit`` units is adapted at most this many times, its scale corrected each time by the lengths got.
LAP_TRIES = 6
#: Adaptations a search keeps: the last few (a start line moved, a fix tried, a lap's scale corrected).
KEEP = 4


class Search:
    """Every build of one board (see the module's docstring)."""

    def __init__(self) -> None:
        self._adapted: list[tuple[tuple, np.ndarray, tuple]] = []
        self._laps: dict[tuple, float | None] = {}

    # ------------------------------------------------------------------------------------------- one build

    def build(self, request: BoardRequest) -> Analysis:
        """One build of ``request``; for a real line asked as a lap of ``fit`` units, at the scale that gives it
        (an unfit paper: its "fit" problem, no circuit)."""
        spec = request.spec
        if request.keep_shape and keeps_shape(spec) and isinstance(spec.fit, int) and request.scale is None:
            found = self.lap_scale(request)
            if isinstance(found, Problem):
                return Analysis(spec, request.source, request.paper, None, [found], [], request=request)
            request = request.replace(scale=found)
        return build(request, self.adapt)

    def adapt(self, spec: CircuitSpec, P: np.ndarray, paper, edge: float, scale: float | None = None):
        """:func:`.place.adapt_to`, once for a line and a board: the same points, rules, paper and scale adapted
        before are not fitted again (where the start line is, how many the grid holds and the lap asked for do not
        change the adaptation: adapt_to never reads them)."""
        key = (spec.model_dump_json(exclude={"start": {"at"}, "grid": True, "fit": True}), repr(paper), edge, scale)
        for k, Q, res in self._adapted:
            # the same read-only array (a centre line read once), else the same numbers: compared, not copied into
            # a key and hashed (9.6 MB twice for a 300,000-point line)
            if k == key and ((Q is P and not P.flags.writeable) or (Q.shape == P.shape and np.array_equal(Q, P))):
                return res
        res = adapt_to(spec, P, paper, edge, scale=scale)
        self._adapted.append((key, P if not P.flags.writeable else P.copy(), res))
        if len(self._adapted) > KEEP:
            self._adapted.pop(0)
        return res

    def lap_scale(self, request: BoardRequest) -> float | Problem | None:
        """The scale at which the request's real line, adapted keeping its shape, makes a lap of ``spec.fit``
        units (None: the board as large as the page holds, when that is the lap); a "fit" problem when no paper
        allowed holds it.

        The adapted lap is not the real one's length times the scale (bends widened to the least radius cut their
        corners: Budapest's board is 13 % shorter), so the scale starts from the board as large as the page holds
        (kept when its lap is already ``fit`` units: ``--fit`` of the default's length builds the default board)
        and is corrected by the lengths got (in proportion, then between the closest shorter and longer laps); the
        closest lap is kept."""
        spec = request.spec
        key = (spec.model_dump_json(exclude={"start": {"at"}, "grid": True}), repr(request.paper), request.edge)
        if key in self._laps:
            return self._laps[key]
        P, paper, edge = request.points, request.paper, request.edge
        if spec.start.reverse:
            P = np.vstack((P[:1], P[:0:-1]))
        n = spec.fit
        want = n * spec.unit

        def units(got) -> int:
            return max(1, round(got[1].line.length / spec.unit))

        try:
            tried = [(None, self.adapt(spec, P, paper, edge))]
            for _ in range(LAP_TRIES):
                if units(tried[-1][1]) == n:
                    break
                short = [(g[1].scale, g[1].line.length) for _, g in tried if units(g) < n]
                long = [(g[1].scale, g[1].line.length) for _, g in tried if units(g) > n]
                if short and long:  # bracketed: the secant between the closest on each side, kept off their ends
                    (s0, L0), (s1, L1) = max(short, key=lambda t: t[1]), min(long, key=lambda t: t[1])
                    t = min(0.75, max(0.25, (want - L0) / (L1 - L0))) if L1 > L0 else 0.5
                    scale = s0 + t * (s1 - s0)
                else:
                    last = tried[-1][1][1]
                    scale = last.scale * want / max(last.line.length, 1e-9)
                ok, nearest, need, larger = lap_paper(spec, P, scale, paper, edge)
                if ok is None:
                    report = request.report()
                    fit_problem(report, nearest, need, larger, edge)
                    return report.problems[0]
                tried.append((scale, self.adapt(spec, P, paper, edge, scale)))
        except InputError as err:
            raise located(err, request) from None
        best = min(tried[1:] or tried, key=lambda t: (not t[1][1].ok, abs(t[1][1].line.length - want)))
        self._laps[key] = best[0]
        return best[0]

    # ----------------------------------------------------------------------------------------- the board

    def run(self, request: BoardRequest) -> Analysis:
        """The board of ``request`` as its game's :class:`Policy` (``request.profile.policy``) searches it: a real
        circuit's papers and centre lines tried, the start line moved for the game's grid; the engine's board
        (:meth:`board`) where the game has no policy. Never raises for geometry but where the game's tries all
        fail (one GeometryError: the first)."""
        policy = request.profile.policy
        with run_budget(RUN_WORK):  # the papers, start lines and fixes a search tries spend from one budget
            if policy is None:
                return self.board(request)
            if policy.tries is not None:
                return _tried(self, request, policy)
            if policy.rounds:
                return _rounds(self, request, policy)
            return _engine(self, request, policy)

    def board(self, request: BoardRequest, advice: bool = True) -> Analysis:
        """The board of ``request`` as the engine makes it: built, its start line placed for its grid where the
        spec leaves it open, and (with ``advice``) every fix its problems suggest tried: only fixes that build are
        kept (a smoothing or lap length too small is raised until it builds, within :data:`TRIALS` builds)."""
        with run_budget(RUN_WORK):  # every adaptation of this board (fixes tried too) spends from one budget
            done = self.placed(request, self.build(request))
            return self.advise(done, advice)

    def advise(self, done: Analysis, advice: bool = True) -> Analysis:
        """``done`` with what to do about its problems: an undeclared crossing may be drawn as a bridge or a
        tunnel; with ``advice``, each fix tried (:meth:`_try_fixes`)."""
        if not done.spec.crossings:
            for i, p in enumerate(done.problems):
                if p.kind == "crossing" and p.field == "crossings" and not p.fixes:
                    done.problems[i] = replace(p, fixes=(CrossingFix("bridge"), CrossingFix("tunnel")))
        if advice and done.problems:
            self._try_fixes(done)
        return done

    def placed(self, request: BoardRequest, done: Analysis) -> Analysis:
        """A spec (or a bare centre line) that does not place its start line gets one where its grid stands on
        straight track: the nearest place round the lap where every row of the grid, and the unit after the line,
        turns at most ``ROW_TURN_DEG`` and the grid at most ``GRID_TURN_DEG`` in all (its slots stay rectangular
        in their lanes), else the straightest place the lap has (:func:`.grid.grid_starts`). The move is said as
        a change."""
        spec, c = request.spec, done.circuit
        # a line of points (a real circuit) has its start moved off a crossing; a designer's segments keep theirs
        at_crossing = [p for p in done.problems if _start_at_crossing(p) and spec.segments is None]
        movable = [p for p in done.problems if p.kind == "grid"] + at_crossing  # what moving the start line mends
        placed = request.report().line_of("start") is not None and request.start != "auto"
        if c is None or len(movable) < len(done.problems) or placed or request.start in ("real", "placed"):
            return done
        if by_unit(spec):  # the spec numbers units from where the line is now: moving it would move them too
            return done
        starts = grids.clear_of_crossings(c, grids.grid_starts(c) or ([0.0] if at_crossing else []))
        grid = spec.grid
        if starts and keeps_shape(spec) and "grid" not in spec.model_fields_set:
            # a real line's default grid where no place holds it all on straight track: as many cars as one does
            starts, grid = grids.fewer_for_straight(c, starts)
            real = grids.real_line_grid(spec, c, starts, grid, at_crossing)
            if real is not None:
                again = self.build(request.respec(real))
                if again.buildable:
                    move = None  # the whole grid where it stands on straight track, said only if it builds
                    if real.grid < grid:
                        whole = moved_start(spec, c, starts[0], grid)
                        if self.build(request.respec(whole)).buildable:
                            move = starts[0]
                    return _kept_real_line(again, spec, grid, move)
        if not starts or (starts[0] == 0 and not movable and grid == spec.grid):
            return done
        for t in starts[:3]:  # the next best when a place cannot be built (a crossing at the grid, say)
            again = self.build(request.respec(moved_start(spec, c, t, grid)))
            if again.buildable:
                break
        else:
            return done
        turns = grids.grid_turns(again.circuit, 0.0) if again.circuit is not None else grids.grid_turns(c, t)
        straight = grids.grid_score(turns) <= 1
        if grid < spec.grid:
            _fewer(again, spec, grid)
        by, way = abs(t) / spec.unit, "forward" if t > 0 else "back"
        if t != 0:
            at = again.request.spec.start.at
            again.changes.append(StartMoved(by, way, at, grid, None if straight else float(turns[1:].max())))
        moved_c = again.circuit
        if moved_c is not None and keeps_shape(spec) and spec.start.at == 0 and by >= 1:  # the real line, marked
            why = "on straight track" if straight else "on the straightest track"
            moved_c.real_start = (
                float(-t % moved_c.lap_length),
                f"real start line: the race starts {by:g} unit{'s' if by != 1 else ''} "
                f"{'after' if t > 0 else 'before'} it, its grid {why}",
            )
        return again

    def _try_fixes(self, done: Analysis) -> None:
        """Keep, in every problem of ``done``, only the fixes that build (each tried once, whatever problem asked),
        each built as the command builds it when the fix is followed: its start line placed for its grid."""
        base = done.request.respec(done.spec, profile=ENGINE, paper=done.paper, keep_shape=True, scale=None)
        budget = [TRIALS]
        tried: dict = {}

        def builds(fix) -> bool:
            key = (fix.field, fix.value, fix.paper, fix.tile_onto)
            if key not in tried:
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                try:
                    request = fix.apply(base)
                    tried[key] = self.placed(request, self.build(request)).buildable
                except Exception:  # a fix the spec cannot take is not advice
                    tried[key] = False
            return tried[key]

        def working(fix):
            for v in fix.ladder(base) if hasattr(fix, "ladder") else [fix.value]:
                cand = with_value(fix, v)
                if builds(cand):
                    return cand
            return None

        for i, p in enumerate(done.problems):
            if not p.fixes:
                continue
            kept = tuple(f for f in (working(f) for f in p.fixes) if f is not None)
            if kept != p.fixes:
                advice = p.advice
                if not kept and not advice:
                    advice = "none of the options tried builds it (more smoothing, a longer lap, fewer lanes)"
                done.problems[i] = replace(p, fixes=kept, advice=advice)


def moved_start(spec: CircuitSpec, circuit: Circuit, t: float, grid: int | None = None) -> CircuitSpec:
    """``spec`` with its start line ``t`` mm further round the lap of ``circuit`` (built from it) and, if given, a
    grid of ``grid``: ``start.at`` kept within the lap (a line moved back past the start of the centre line comes
    round from its end: the build refuses a start past the lap)."""
    laps = circuit.lap_length / spec.unit  # the lap in the units of 'start.at'
    at = round((spec.start.at + grids.start_sign(spec) * t / spec.unit) % laps, 3)
    at = 0.0 if at >= laps else at
    update: dict = {"start": spec.start.model_copy(update={"at": at})}
    if grid is not None:
        update["grid"] = grid
    return spec.model_copy(update=update)


def _start_at_crossing(problem: Problem) -> bool:
    """The check's problem of a start line (or grid) standing at a crossing."""
    return problem.kind == "crossing" and problem.field == "start"


def by_unit(spec: CircuitSpec) -> bool:
    """Whether the spec numbers anything in units from its start line (a pit lane, corners, kerbs, danger spaces, a
    police line, "engines are howling" zones): moving the line would move them too."""
    numbered = spec.pit or spec.corners is not None or isinstance(spec.kerbs, list) or spec.danger
    return bool(numbered or spec.police_line or spec.howling)


def _fewer(again: Analysis, spec: CircuitSpec, grid: int) -> Analysis:
    """Said of a board whose grid is ``grid`` where ``spec`` asked more: no straight of the circuit holds more."""
    again.changes.append(FewerOnGrid(grid, spec.grid))
    if again.circuit is not None:
        again.circuit.notes = (*again.circuit.notes, f"a grid of {grid}: no straight holds more")
    return again


def _kept_real_line(again: Analysis, spec: CircuitSpec, grid: int, move: float | None) -> Analysis:
    """The board kept at the real start line with a smaller grid than ``grid`` (or the ``grid`` no straight holds
    more than), said with the fix that gives the whole grid: the start line ``move`` mm on (None: none builds)."""
    cars = again.spec.grid
    c = again.circuit
    if cars == grid:  # as many as any straight holds: the real line holds them too
        return _fewer(again, spec, grid)
    way = None if move is None else (abs(move) / spec.unit, "forward" if move > 0 else "back")
    again.changes.append(GridAtRealStart(cars, spec.grid, grid, way))
    c.notes = (*c.notes, f"a grid of {cars} behind the real start line: no more fit there")
    return again


# ----------------------------------------------------------------------------------------- a game's policy

#: How a game judges a board it tried: the one to print ("good"), one another centre line may better ("poor"), or
#: one whose paper is too small for the circuit ("small": the next paper).
Verdict = Literal["good", "poor", "small"]


@dataclass(frozen=True)
class Tries:
    """A real circuit's board as a game searches it (Formula D's): each paper in turn (``requests``, each tagged
    with the centre line it is built from), on each up to ``shapes`` centre lines — as it is, then each the game
    plans from the boards before (``reshape``, from their scores) — until the game ``judge`` s one good; then the
    start line moved in the policy's rounds, and the game's last word on the board (``finish``)."""

    requests: tuple[BoardRequest, ...]
    shapes: int
    judge: Callable[[BoardRequest, Analysis], tuple[Verdict, int]]
    reshape: Callable[[BoardRequest, list[int]], BoardRequest | None]
    finish: Callable[[BoardRequest, Analysis, float], Analysis]


@dataclass(frozen=True)
class Policy:
    """What a game's search does beyond the engine's board, as data and the game's own measures:

    - ``spec``: the spec the engine builds from a request of the game's (Formula D: its rules — per-lane spaces,
      corners from arcs, its pit lane — on the centre line the request is tagged with);
    - ``rounds``: times the start line is moved to where the game wants its grid (``shift``: mm forward round the
      lap and whether it is clear there, measured on the board with the game's ``layer`` on it; ``crossed``:
      whether a line that far on would stand at a crossing);
    - ``tries``: a real circuit's papers and centre lines (:class:`Tries`).
    """

    spec: Callable[[BoardRequest], CircuitSpec]
    shift: Callable[[Circuit], tuple[float, bool]]
    crossed: Callable[[Circuit, float], bool]
    layer: Callable[[BoardRequest, Circuit], Circuit] = lambda request, circuit: circuit
    rounds: int = 0
    tries: Tries | None = None


def _engine(search: Search, request: BoardRequest, policy: Policy) -> Analysis:
    """The engine's board of a request of the game's."""
    return search.board(request.respec(policy.spec(request)))


def _strict(search: Search, request: BoardRequest, policy: Policy) -> Analysis:
    """The engine's board of a request of the game's; one GeometryError listing its problems if it does not
    build."""
    done = _engine(search, request, policy)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done


def _rounds(search: Search, request: BoardRequest, policy: Policy) -> Analysis:
    """A board whose spec leaves the start line open, built with its line moved the least either way to where the
    game wants its grid (``policy.shift``), in rounds (the board built with the line moved has its corners a little
    elsewhere); a round that does not build as well is not kept. The move is said as a change."""
    done = _engine(search, request, policy)
    moved, cur = 0.0, request
    for _ in range(policy.rounds):
        c = done.circuit
        if c is None or not all(_start_at_crossing(p) for p in done.problems):
            break
        d, _ = policy.shift(c)
        if d < 1e-6 and not done.problems:
            break
        nxt = cur.respec(moved_start(cur.spec, c, d))
        again = _engine(search, nxt, policy)
        if again.circuit is None or len(again.problems) > len(done.problems):
            break
        done, moved, cur = again, (moved + d) % c.lap_length, nxt
    if moved > 1e-6 and done.circuit is not None:
        L, u = done.circuit.lap_length, done.circuit.unit_length
        n, way = (moved, "forward") if moved <= L / 2 else (L - moved, "back")
        d, clear = policy.shift(done.circuit)
        done.changes.append(StartClearOfCorners(max(1, round(n / u)), way, cur.spec.start.at, clear and d < 1e-6))
    return done


def _off_crossing(search: Search, request: BoardRequest, policy: Policy, placed: bool):
    """``(request, board, mm moved)``: the board of a request of the game's (one GeometryError if it does not
    build). Where the start line the spec leaves to the real circuit (its timing line) stands at a crossing — a
    figure-eight — the line is moved, the least either way, to where the game wants it (``policy.shift``) off
    the crossing, and built there; a start the spec places itself (``placed``) is the spec's to move."""
    done = _engine(search, request, policy)
    if not done.problems:
        return request, done, 0.0
    c = done.circuit
    if placed or c is None or any(not _start_at_crossing(p) for p in done.problems):
        raise geometry_error(done.problems, done.source)
    d, _ = policy.shift(c)
    if policy.crossed(c, d):
        raise geometry_error(done.problems, done.source)
    request = request.respec(moved_start(request.spec, c, d))
    return request, _strict(search, request, policy), d


def _tried(search: Search, request: BoardRequest, policy: Policy) -> Analysis:
    """A real circuit's board (:class:`Tries`): the first board the game judges good, else the first that built;
    its start line moved for the game's grid; the game's last word on it."""
    tries = policy.tries
    placed = bool(request.spec.start.at)  # the spec places its start line itself (else: the real timing line)
    first = chosen = error = None
    for tried in tries.requests:
        scores: list[int] = []
        for _ in range(tries.shapes):
            try:
                tried, done, off = _off_crossing(search, tried, policy, placed)
            except PaddockError as err:
                error = error or err
                break
            verdict, score = tries.judge(tried, done)
            first = first or (tried, done, off)
            if verdict == "small":
                break
            if verdict == "good":
                chosen = (tried, done, off)
                break
            scores.append(score)
            tried = tries.reshape(tried, scores)
            if tried is None:
                break
        if chosen:
            break
    if first is None:
        raise error
    tried, done, moved = chosen or first
    for _ in range(policy.rounds):
        c = done.circuit
        d, _ = policy.shift(policy.layer(tried, c))
        if d < 1e-6:
            break
        moved += d
        tried = tried.respec(moved_start(tried.spec, c, d))
        done = _strict(search, tried, policy)
    return tries.finish(tried, done, moved)


#: Fields tried, at most, when a game sizes its board's grid to the field that fits (f1-dice).
FIELD_TRIES = 3


def most_that_builds(first: int | None, asked: int, fewer: Callable[[int], int | None]) -> int | None:
    """The largest field from ``first`` down (fewer than ``asked``) whose board builds, within
    :data:`FIELD_TRIES` boards: ``fewer(n)`` builds the board for ``n`` and gives None where it builds, else the
    field that board's problems say fits (the next to try). None: no smaller field was found to build."""
    most = first
    for _ in range(FIELD_TRIES):
        if not most or most >= asked:
            return None
        nxt = fewer(most)
        if nxt is None:
            return most
        if nxt >= most:
            return None
        most = nxt
    return None


# ------------------------------------------------------------------------------------------- the public calls


def analyse(request: BoardRequest, advice: bool = True) -> Analysis:
    """The engine's board of ``request`` (:meth:`Search.board`): never raises for geometry."""
    return Search().board(request, advice)


def board(request: BoardRequest) -> Circuit:
    """The circuit of ``request``; one GeometryError listing every problem otherwise."""
    done = analyse(request)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit
