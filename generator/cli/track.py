"""``paddock track SPEC_OR_CSV`` draws a circuit board; ``paddock check SPEC`` validates one without drawing.

The circuit engine (``generator.track``: numpy, shapely, its models) is imported inside the commands: at the top
it cost ``paddock --help`` ~0.3 s of imports (``python -X importtime``; see benchmarks/README.md)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Annotated

import typer

from .. import games
from ..command import output_options, publish
from ..errors import EXIT_GEOMETRY, PaddockError
from ..messages import fit_line  # every line of the listing at most 300 characters, as every message
from ..notices import LayoutWarning
from ..paper import parse_paper_choice
from ..preview.rebuild import Watcher as _Watcher
from ..problems import check_lines, geometry_error, in_option_words, option_line
from ..scene import Sheet
from .root import app

LanesOpt = Annotated[
    int | None, typer.Option("--lanes", help="Number of lanes, 1-7 (overrides the spec's 'lanes').", show_default=False)
]
SmoothingOpt = Annotated[
    float | None,
    typer.Option(
        "--smoothing",
        metavar="MM",
        help="CSV/points: smooth the centre line over this many mm on paper (spec 'smoothing'); without it a real "
        "centre line is adapted keeping its shape.",
        show_default=False,
    ),
]
FitOpt = Annotated[
    str | None,
    typer.Option(
        "--fit",
        metavar="page|N",
        help="CSV/points: 'page' (largest that fits the paper) or a lap of N units (spec 'fit').",
        show_default=False,
    ),
]

CrossingOpt = Annotated[
    str | None,
    typer.Option(
        "--crossing",
        metavar="bridge|tunnel",
        help="Draw every place the track crosses itself (and the spec declares no crossings) as a bridge or a "
        "tunnel; a real figure-eight from a CSV is a bridge anyway.",
        show_default=False,
    ),
]
StartOpt = Annotated[
    str | None,
    typer.Option(
        "--start",
        metavar="UNITS|auto|real",
        help="Where the start line goes: UNITS along the centre line (spec 'start.at'), 'auto' (where the grid "
        "stands on straight track; a CSV's default) or 'real' (a CSV's first point, its real start line).",
        show_default=False,
    ),
]
GridOpt = Annotated[
    int | None,
    typer.Option("--grid", metavar="N", help="Grid slots behind the start line (spec 'grid').", show_default=False),
]

GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game",
        metavar="GAME",
        help="Check the board this game's pack prints (its spaces, paper and corners), e.g. formula-d; default: "
        "the spec's 'game'.",
        show_default=False,
    ),
]


def _overrides(lanes, smoothing, fit, crossing=None, start=None, grid=None) -> dict:
    """The spec fields the options replace; ``--fit`` is 'page' or a lap length in units (anything else is left
    for the library to refuse, after it has checked that the spec takes a --fit at all)."""
    if isinstance(fit, str):
        text = fit.strip().lower()
        fit = "page" if text == "page" else int(text) if text.lstrip("-").isdigit() else fit
    return {"lanes": lanes, "smoothing": smoothing, "fit": fit, "crossing": crossing, "start": start, "grid": grid}


def _analysis(spec_path: Path, game: str | None, overrides: dict, paper, edge: float):
    """The board of ``spec_path`` (read once, ``overrides`` applied) as the game ``game`` (else the spec's own)
    prints it: its :class:`~generator.track.Analysis`, never raising for geometry."""
    from .. import track

    asked = games.get(game) if game is not None else None  # an unknown --game is refused before the spec is read
    request = track.read_request(
        spec_path, overrides, paper=paper, edge=edge, profile=track.BoardProfile(notes=games.board_notes)
    )
    return (asked or games.get(request.spec.game)).board_analysis(request)


def _sheets(spec_path: Path, opts, overrides: dict | None = None):
    """The board ``paddock track`` draws: as the spec's game prints it."""
    from ..track import board_stem

    try:
        done = _analysis(spec_path, None, overrides or {}, opts.pages.board_paper(), opts.pages.edge)
        if done.problems:
            raise geometry_error(done.problems, done.source)
        circuit = done.circuit
        page = games.get(circuit.spec.game).board_page(circuit)
    except PaddockError as err:
        raise in_option_words(err) from None
    return circuit, [Sheet(board_stem(circuit.name), page)]


def _say_changes(circuit, say) -> None:
    """What the build changed (a closing gap spread, the start placed for the grid), said once the board is written:
    a run that fails says only its one error line."""
    for change in circuit.changes:
        say(f"paddock: {change.line}")


@app.command("track")
@output_options
def track_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    watch: Annotated[bool, typer.Option("--watch", help="Rebuild whenever the spec file changes.")] = False,
    lanes: LanesOpt = None,
    smoothing: SmoothingOpt = None,
    fit: FitOpt = None,
    crossing: CrossingOpt = None,
    start: StartOpt = None,
    grid: GridOpt = None,
    *,
    opts,
) -> None:
    """Draw a circuit board from a spec file or a centre-line CSV (true scale, print-ready)."""
    over = _overrides(lanes, smoothing, fit, crossing, start, grid)
    if not watch:
        circuit, sheets = _sheets(spec, opts, over)
        publish(sheets, opts, title=f"Paddock — {circuit.name}")
        if not opts.output.quiet:
            _say_changes(circuit, lambda line: typer.echo(line, err=True))
        return
    Watcher(spec, opts, overrides=over).run()


class Watcher(_Watcher):
    """``track --watch``: rewrites the board's files whenever the spec (or the centre-line CSV it names) changes,
    on the rebuild path ``paddock preview`` shares (:mod:`generator.preview.rebuild`). ``say`` receives each
    status line (stderr by default)."""

    def __init__(self, spec: Path, opts, say=None, overrides: dict | None = None) -> None:
        super().__init__(spec, say or (lambda line: typer.echo(line, err=True)))
        self.opts = opts
        self.overrides = overrides

    def build(self):
        circuit, sheets = _sheets(self.spec, self.opts, self.overrides)
        publish(sheets, self.opts, title=f"Paddock — {circuit.name}")
        return circuit

    def built(self, circuit) -> None:
        _say_changes(circuit, self.say)

    def name(self, circuit) -> str:
        return circuit.name


@app.command("check")
def check_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")] = False,
    paper: Annotated[str | None, typer.Option("--paper", help="Check against this paper instead.")] = None,
    edge: Annotated[
        float, typer.Option("--edge", min=0, max=30, help="Printer's unprintable edge in mm, kept clear.")
    ] = 6.0,
    lanes: LanesOpt = None,
    smoothing: SmoothingOpt = None,
    fit: FitOpt = None,
    crossing: CrossingOpt = None,
    start: StartOpt = None,
    grid: GridOpt = None,
    game: GameOpt = None,
    sim: Annotated[
        bool,
        typer.Option("--sim", help="Also race it a few hundred times (paddock simulate) and list the warnings found."),
    ] = False,
) -> None:
    """Validate a circuit without drawing it: exit 0 only if it builds; list every problem otherwise."""
    from ..track.summary import check_summary, plain

    with warnings.catch_warnings(record=True) as caught:  # what is said on stderr is in the JSON too
        warnings.simplefilter("always")
        try:
            choice = parse_paper_choice(paper) if paper is not None else None
            over = _overrides(lanes, smoothing, fit, crossing, start, grid)
            result = _analysis(spec, game, over, choice, edge)
        except PaddockError as err:
            error = in_option_words(err)
        else:
            error = None
    once = {str(w.message): w for w in caught}.values()  # a fix tried builds the board again: said once
    said = [w.message for w in once if issubclass(w.category, LayoutWarning)]
    for w in once:  # said as every command says them
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if error is not None:
        if not json_out:
            raise error from None
        # a spec that cannot be read still gets its machine-readable answer (and keeps its exit code)
        out = check_summary(spec, error=error, warnings=said)
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False, default=plain))
        raise typer.Exit(code=error.exit_code) from None
    summary = check_summary(spec, result, warnings=said)
    quick = None
    if sim and result.buildable:
        from .simulate import quick_run

        quick = summary["sim"] = quick_run(spec)
    if json_out:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False, default=plain))
    else:
        head = f"{spec}: {summary['name']}"
        if summary["lap_mm"] is not None:
            units = summary["units"]
            ustr = f"{units} units" if isinstance(units, int) else ", ".join(f"{k}: {v}" for k, v in units.items())
            lanes = f"{summary['lanes']} lane{'' if summary['lanes'] == 1 else 's'}"
            head += f" — {ustr}, lap {summary['lap_mm']:.0f} mm, {lanes}, {summary['paper']}"
        echo = lambda line: typer.echo(fit_line(line))  # noqa: E731
        echo(head)
        for change in result.changes:
            echo(f"  {change.line}")
        if not result.problems:
            echo("  OK: buildable")
        if quick is not None and quick.get("note"):
            echo(f"  sim: {quick['note']}")
        elif quick is not None:
            echo(f"  sim ({quick['races']} races of {quick['game']}): {len(quick['warnings'])} warning(s)")
            for warning in quick["warnings"]:
                echo(f"  sim: {warning}")
        for line in check_lines(spec, result.problems, option_line):
            echo(line)
    if result.problems:
        raise typer.Exit(code=EXIT_GEOMETRY)
