"""``paddock simulate SPEC|CSV``: race a board many times with computer drivers and report how it plays; and the
quick run behind ``paddock check --sim``. Thin: the game's ``simulate`` hook races, ``generator.simulate`` holds
what every game shares (the runner, the report model, the sheet)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..command import output_options, publish
from ..simulate import MAX_JOBS, MAX_RACES, QUICK_RACES
from .root import app


@app.command("simulate")
@output_options
def simulate_cmd(
    specs: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Circuit spec (YAML) or a centre-line CSV; default: the game's own board. Two: both raced with "
            "the same dice and compared (Formula D).",
            metavar="[SPEC] [SPEC_B]",
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option("--game", help="formula-d or f1-dice; default: the spec's 'game' (f1-dice for a CSV)."),
    ] = None,
    races: Annotated[int, typer.Option("--races", min=1, max=MAX_RACES, help="Races to run.")] = 1000,
    cars: Annotated[
        int | None, typer.Option("--cars", min=1, max=60, help="Cars in each race; default: the game's field.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1, help="Same seed, same races.")] = 1,
    ai: Annotated[
        str | None,
        typer.Option("--ai", help="Computer drivers: strong (default), simple, or mixed (the two alternate)."),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, max=MAX_JOBS, help="Processes to race on (results do not change).")
    ] = 1,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Optional rules, comma-separated. Formula D: slipstream, weather, rain, three-laps; "
            "f1-dice: quick (the quick race).",
        ),
    ] = None,
    assume: Annotated[
        str | None,
        typer.Option(
            "--assume", metavar="KEY=N,…", help="Values for numbers the rulebook leaves open, e.g. brake_wp=2."
        ),
    ] = None,
    laps: Annotated[
        int | None, typer.Option("--laps", min=1, max=30, help="f1-dice: laps (default: the board's race).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON instead (no sheet).")] = False,
    *,
    opts,
) -> None:
    """Race a circuit many times with computer drivers and report how it plays: a two-page sheet (the board
    coloured by where places change and where wear is lost, tables, charts, warnings) and a summary. Two
    circuits: both raced with the same dice, and the differences larger than their noise reported."""
    with terminated_as_interrupt():
        _simulate(specs, game, races, cars, seed, ai, jobs, rules, assume, laps, as_json, opts)


def _simulate(specs, game, races, cars, seed, ai, jobs, rules, assume, laps, as_json, opts) -> None:
    import json

    from .. import games
    from ..errors import InputError
    from ..simulate import SimOptions
    from ..simulate.progress import Progress

    specs = list(specs or [])
    if len(specs) > 2:
        raise InputError(f"{len(specs)} circuits given: simulate races one, or compares two", field="SPEC")
    spec = specs[0] if specs else None
    against = specs[1] if len(specs) == 2 else None
    chosen = games.get(game or spec_game(spec))
    if against is not None and (game or spec_game(against)) != chosen.id:
        raise InputError(f"{against}: a {spec_game(against)} board, not {chosen.id}", file=against, field="game")
    options = SimOptions(
        races=races,
        cars=cars,
        seed=seed,
        ai=ai,
        jobs=jobs,
        rules=parse_rules(rules),
        assume=parse_assume(assume),
        laps=laps,
        against=against,
    )
    bar = Progress(races, "races" if against is None else "races of each", enabled=not opts.output.quiet)
    try:
        report = chosen.simulate(spec, options, bar)
    finally:
        bar.close()
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
        return
    if not opts.output.quiet:
        for line in report.text_lines():
            typer.echo(line)
    publish_report(report, opts)


def publish_report(report, opts):
    """The report's sheet into ``OUT/simulate/``: ``<board>-<game>-1``/``-2`` and both pages in one PDF."""
    from ..scene import numbered
    from ..simulate.report import Comparison
    from ..simulate.sheet import PAPER, report_pages
    from ..track import board_stem

    kind = "compare" if isinstance(report, Comparison) else "sim"
    stem = board_stem(f"{report.board}-{report.game}-{kind}")  # named as the board's own files are
    pages = report_pages(report, opts.pages.text_page(PAPER))
    title = f"Paddock — {report.board}: {report.title}"
    return publish(numbered(stem, pages), opts, folder="simulate", merged=f"{stem}-print", title=title)


@contextlib.contextmanager
def terminated_as_interrupt():
    """SIGTERM while a simulation runs is answered as Ctrl-C is: the run stops, its workers are ended, nothing is
    written, one line is said (in the main thread only: elsewhere signals are not ours to handle)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def spec_game(spec: Path | None) -> str:
    """The game a spec names (``game:``); Paddock's default game for a CSV or no spec."""
    from .. import games

    if spec is None:
        return games.default_game().id
    from ..track import load_spec

    loaded, _, _ = load_spec(spec)
    return loaded.game


def parse_rules(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    return tuple(dict.fromkeys(names))


def parse_assume(text: str | None) -> dict:
    """``brake_wp=2,pit_roll=5`` → ``{"brake_wp": 2, "pit_roll": 5}`` (the game checks the keys and ranges)."""
    from ..errors import InputError
    from ..messages import quote

    out: dict = {}
    if text is None:
        return out
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        try:
            number = int(value.strip())
        except ValueError:
            number = None
        if not sep or not key or number is None:
            raise InputError(f"--assume {quote(part.strip())}: write KEY=N, e.g. brake_wp=2", field="--assume")
        out[key] = number
    return out


def quick_run(
    spec: Path, seed: int = 1, races: int | None = None, game_id: str | None = None, bar=True, cancel=None
) -> dict:
    """``paddock check --sim``: a quick run (``races``: a few hundred, the default drivers) of the spec's game
    (or ``game_id``) on its board, with the spec's own field (its grid); what it found for the designer. A game
    Paddock cannot simulate says so instead. ``bar``: a progress bar on a terminal; without it the run is on this
    process alone (the live preview's). ``cancel``: asked between batches of races; when it answers true the run
    stops and :class:`generator.simulate.Cancelled` is raised (the live preview drops a run its next save made
    stale: build and show the board first, then call this on a worker thread with ``cancel=stale.is_set``)."""
    from .. import games
    from ..errors import PaddockError
    from ..simulate import SimOptions
    from ..simulate.progress import Progress

    races = races or QUICK_RACES
    game = games.get(game_id or spec_game(spec))
    if not game.simulates:
        return {"game": game.id, "races": 0, "warnings": [], "note": f"Paddock cannot simulate {game.title} races"}
    progress = Progress(races, "races (check --sim)", stream=sys.stderr, enabled=bar)
    jobs = max(1, min(4, os.cpu_count() or 1, races // 50)) if bar else 1  # a quick answer: the cores there are
    try:
        report = game.simulate(spec, SimOptions(races=races, seed=seed, jobs=jobs, cancel=cancel), progress)
    except PaddockError as err:  # the board builds but cannot be raced as it is (a field its grid cannot hold)
        return {"game": game.id, "races": 0, "warnings": [], "note": f"not raced: {err}"}
    finally:
        progress.close()
    return {
        "game": game.id,
        "races": races,
        "seed": seed,
        "warnings": list(report.warnings),
        "figures": {f.label: f.value for f in report.figures},
    }


#: Races the live preview runs after each rebuild (``paddock preview --sim``): enough for its warnings, quick
#: enough to wait for (f1-dice well under a second, Formula D's strong drivers a few seconds).
PREVIEW_RACES = 100


def preview_notes(spec: Path, game_id: str | None = None, races: int = PREVIEW_RACES, cancel=None) -> tuple:
    """The check ``paddock preview --sim`` lists beside the board after each rebuild: a quick run's warnings for
    the designer (a :data:`generator.preview.state.NoteSource`); ``cancel`` as :func:`quick_run` takes it."""

    def check(_circuit) -> list[str]:
        found = quick_run(spec, races=races, game_id=game_id, bar=False, cancel=cancel)
        if found.get("note"):
            return [found["note"]]
        return found["warnings"] or [f"no warnings from {races} races of {found['game']}"]

    return (("sim", check),)
