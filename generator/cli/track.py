"""``paddock track SPEC_OR_CSV`` draws a circuit board; ``paddock check SPEC`` validates one without drawing."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..preview.rebuild import Watcher as _Watcher
from .common import output_options, publish
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


# ------------------------------------------------------------------------------------- problems in CLI words


def _paper_arg(choice) -> str:
    """The --paper value that asks for ``choice`` (a bare name means landscape on the command line)."""
    return choice.name if choice.orientation in (None, "landscape") else f"{choice.name}-{choice.orientation}"


def _size(name: str) -> str:
    return name.upper() if name.startswith("a") else name


def fix_text(fix) -> str:
    """One :class:`~generator.track.Fix` in the command line's words: its option and the spec field."""
    from ..track import OVERRIDABLE

    v = fix.value
    if fix.field == "smoothing":
        return f"smooth the centre line more (--smoothing {v:g}, or 'smoothing: {v:g}' in a spec; now {fix.now:g} mm)"
    if fix.field == "fit":
        eg = f", e.g. --paper {_paper_arg(fix.paper)} --tile-onto {fix.tile_onto}" if fix.paper else ""
        return f"make it bigger (--fit {v} for a {v}-unit lap on a larger paper{eg})"
    if fix.field == "lanes":
        return f"fewer lanes (--lanes {v} / 'lanes: {v}')"
    if fix.field == "orientation" and fix.paper is not None:
        return f"use --paper {_paper_arg(fix.paper)} (in the spec: 'orientation: {v}')"
    if fix.field == "paper" and fix.tile_onto:
        return (
            f"tile it onto {_size(fix.tile_onto)} sheets: --paper {_paper_arg(fix.paper)} --tile-onto {fix.tile_onto}"
        )
    if fix.field == "paper":
        return f"print it there (--paper {_paper_arg(fix.paper)}; in the spec 'paper: {v}')"
    if fix.field == "crossing":
        return f"draw it as a {v} (--crossing {v}, or 'crossings: [{{kind: {v}}}]' in a spec)"
    if fix.field == "start":
        return "let Paddock place the start line (--start auto)"
    if fix.field == "start.at":
        return f"--start {v:g} (or 'start: {{at: {v:g}}}' in a spec)"
    if fix.field == "cars":
        return f"race a smaller field (--cars {v})"
    if fix.field in OVERRIDABLE:
        return f"--{fix.field.replace('_', '-')} {v} (or '{fix.field}: {v}' in the spec)"
    return f"set '{fix.field}: {v}' in the spec"


def hint(problem) -> str:
    """What to change about ``problem``, in the command line's words."""
    from ..track import hint_text

    return hint_text(problem, fix_text)


def problem_text(problem) -> str:
    """``where: message — hint``, the fixes said as the command line's options."""
    return problem.text(fix_text)


def cli_error(err):
    """A library error re-said with the command line's option names (or ``err`` itself): an override error
    names its option, a geometry error's fixes are worded as options. Every command's errors pass through here
    (``generator.cli.main``)."""
    from ..errors import GeometryError, InputError
    from ..messages import said
    from ..problems import Problem, geometry_error
    from ..track import OverrideError

    if isinstance(err, OverrideError):
        if not err.applies:
            return InputError(f"--{err.key} {err.reason}", file=err.file, hint=f"leave out --{err.key}")
        if err.key == "fit" and not isinstance(err.value, int):
            reason = "give 'page' or the lap length in units (e.g. --fit 60)"
            return InputError(f"--fit {said(err.value)}: {reason}", file=err.file)
        return InputError(f"--{err.key} {said(err.value)}: {err.reason}", file=err.file)
    problems = getattr(err, "problems", None)
    if isinstance(err, GeometryError) and problems and all(isinstance(p, Problem) for p in problems):
        worded = geometry_error(err.problems, err.file, problem_text)
        worded.hint = err.hint  # what to change about all of them (a Monaco! road's lap), if the error says it
        return worded
    return err


# --------------------------------------------------------------------------------------------- JSON shapes


def _round(v, digits: int = 1):
    import math

    return round(v, digits) if math.isfinite(v) else None


def _plain(v):
    """A numpy number (a measured value a check put in a problem's numbers) as the plain number JSON takes."""
    if hasattr(v, "item"):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not JSON serializable")


def corner_entry(circuit, index: int) -> dict:
    """One corner of ``circuit`` (0-based ``index``) as ``check --json`` and ``corners --json`` give it."""
    c = circuit.corners[index]
    return {
        "corner": index + 1,
        "name": c.name,
        "unit": int(c.apex // circuit.unit_length) + 1,
        "s_start_mm": round(c.s_start, 1),
        "s_end_mm": round(c.s_end, 1),
        "apex_mm": round(c.apex, 1),
        "radius_mm": _round(c.radius),
        "angle_deg": round(c.angle, 1),
        "direction": c.direction,
        "stops": c.stops,
    }


def problem_entry(p) -> dict:
    """One problem as ``check --json`` gives it: its hint in the command line's words."""
    return p.as_dict(hint(p))


def centre_line(c) -> list:
    """The board's centre line for ``check --json``: page mm (y down), from the start line in the race direction,
    a point every mm or closer (the closing point left out)."""
    import numpy as np

    from ..track.fidelity import closed, resample

    xy = c.line.xy[:-1]
    if len(xy) > 1 and np.hypot(*np.diff(closed(xy), axis=0).T).max() > 1.0:
        xy = resample(xy, 1.0)
    return np.round(xy, 2).tolist()


def check_summary(path: Path, result=None, error=None, warnings=()) -> dict:
    """The ``check --json`` answer: for an :class:`~generator.track.Analysis` ``result``, or for a spec that could
    not be read (``error``, a PaddockError: its one problem); ``warnings``: every warning the check said on stderr.
    Every key is always there (null when unknown)."""
    out: dict = {
        "name": None,
        "file": str(path),
        "lanes": None,
        "lane_width_mm": None,
        "unit_mm": None,
        "unit_mode": None,
        "lap_mm": None,
        "units": None,
        "corners": [],
        "paper": None,
        "fits": False,
        "buildable": False,
        "problems": [],
        "changes": [],
        "pit": None,
        "deviation": None,
        "north": None,
        "source_to_page": None,
        "centre_line": [],
        "warnings": [str(w) for w in warnings],
    }
    if error is not None:
        problem = {"kind": "input", "where": error.field or "", "message": error.message, "hint": error.hint or ""}
        for key in ("file", "line", "field"):
            if getattr(error, key) is not None:
                problem[key] = getattr(error, key)
        problem["fixes"] = []
        out["problems"] = [problem]
        return out
    spec, c = result.spec, result.circuit
    out.update(
        name=spec.name,
        file=str(result.source),
        lanes=spec.lanes,
        lane_width_mm=spec.lane_width,
        unit_mm=spec.unit,
        unit_mode=spec.units,
        buildable=result.buildable,
        problems=[problem_entry(p) for p in result.problems],
        changes=list(result.changes),
    )
    paper = result.paper
    out["paper"] = getattr(paper, "label", None) or (paper.name if paper is not None else spec.paper)
    if c is None:
        return out
    out.update(
        lap_mm=round(c.lap_length, 1),
        units=c.units_count if c.graph is None else {f"lane {i + 1}": c.graph.count(i) for i in range(c.lanes)},
        corners=[corner_entry(c, i) for i in range(len(c.corners))],
        paper=c.paper.label,
        fits=not any(p.kind == "fit" for p in result.problems),
    )
    out["centre_line"] = centre_line(c)
    if c.fidelity is not None:
        out["deviation"] = c.fidelity.as_dict()
    if c.source_to_page is not None:
        sc, rot, shift = c.source_to_page
        out["source_to_page"] = {
            "flip_y": True,
            "rotation_deg": round(rot, 6),
            "scale": round(sc, 9),
            "shift_mm": [round(shift[0], 4), round(shift[1], 4)],
        }
    if c.north is not None:
        out["north"] = [round(c.north[0], 4), round(c.north[1], 4)]
    if c.pit:
        out["pit"] = {
            "side": c.pit.side,
            "from_unit": c.unit_at(c.pit.s0),
            "to_unit": c.unit_at(c.pit.s1 - 1e-6),
            "garages": c.pit.garages,
            "min_roll": c.pit.min_roll,
        }
    return out


def change_text(change: str) -> str:
    """A change the build made, said on the command line: 'close: auto' lengthens segments; anything else (a
    crossing drawn as a bridge) is said as it is."""
    return f"close: auto changed {change}" if change.startswith("segment ") else change


def _board_game(spec_path: Path, asked: str | None, overrides: dict | None = None):
    """The game whose board a spec is checked and drawn as (``--game``, else the spec's ``game``), when that game
    builds its own (Formula D's per-lane board with its corners); None: the circuit engine's board."""
    from ..errors import PaddockError
    from ..games import get
    from ..track import load_spec

    name = asked
    if name is None:
        try:
            name = load_spec(spec_path, overrides)[0].game
        except PaddockError:
            return None  # the build says what is wrong with the spec
    return get(name) if name else None


def _sheets(spec_path: Path, opts, overrides: dict | None = None):
    from ..errors import PaddockError
    from ..games import plain_board
    from ..outputs import safe_name
    from ..pipeline import Sheet
    from ..problems import geometry_error

    try:
        game = _board_game(spec_path, None, overrides)
        done = game.board_analysis(spec_path, opts.pages.board_paper(), opts.pages.edge, overrides) if game else None
        if done is not None:  # the game's own board (Formula D): as its pack prints it
            if done.problems:
                raise geometry_error(done.problems, done.source)
            circuit = done.circuit
            return circuit, [Sheet(safe_name(circuit.name.lower().replace(" ", "-")), game.board_page(circuit))]
        circuit, sheet = plain_board(spec_path, opts.pages, overrides)
    except PaddockError as err:
        raise cli_error(err) from None
    return circuit, [sheet]


def _say_changes(circuit, say) -> None:
    """What the build changed (a closing gap spread, the start placed for the grid), said once the board is written:
    a run that fails says only its one error line."""
    for change in circuit.changes:
        say(f"paddock: {change_text(change)}")


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
    import json
    import warnings

    from .. import track
    from ..errors import EXIT_GEOMETRY, PaddockError
    from ..games import board_notes
    from ..notices import LayoutWarning
    from ..paper import parse_paper_choice
    from ..problems import check_lines

    with warnings.catch_warnings(record=True) as caught:  # what is said on stderr is in the JSON too
        warnings.simplefilter("always")
        try:
            choice = parse_paper_choice(paper) if paper is not None else None
            over = _overrides(lanes, smoothing, fit, crossing, start, grid)
            board = _board_game(spec, game, over)
            result = board.board_analysis(spec, choice, edge, over) if board else None
            if result is None:
                result = track.check(spec, paper=choice, overrides=over, edge=edge, notes=board_notes)
        except PaddockError as err:
            error = cli_error(err)
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
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False, default=_plain))
        raise typer.Exit(code=error.exit_code) from None
    summary = check_summary(spec, result, warnings=said)
    quick = None
    if sim and result.buildable:
        from .simulate import quick_run

        quick = summary["sim"] = quick_run(spec)
    if json_out:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False, default=_plain))
    else:
        head = f"{spec}: {summary['name']}"
        if summary["lap_mm"] is not None:
            units = summary["units"]
            ustr = f"{units} units" if isinstance(units, int) else ", ".join(f"{k}: {v}" for k, v in units.items())
            lanes = f"{summary['lanes']} lane{'' if summary['lanes'] == 1 else 's'}"
            head += f" — {ustr}, lap {summary['lap_mm']:.0f} mm, {lanes}, {summary['paper']}"
        from ..messages import fit_line  # every line of the listing at most 300 characters, as every message

        echo = lambda line: typer.echo(fit_line(line))  # noqa: E731
        echo(head)
        for change in result.changes:
            echo(f"  {change_text(change)}")
        if not result.problems:
            echo("  OK: buildable")
        if quick is not None and quick.get("note"):
            echo(f"  sim: {quick['note']}")
        elif quick is not None:
            echo(f"  sim ({quick['races']} races of {quick['game']}): {len(quick['warnings'])} warning(s)")
            for warning in quick["warnings"]:
                echo(f"  sim: {warning}")
        for line in check_lines(spec, result.problems, problem_text):
            echo(line)
    if result.problems:
        raise typer.Exit(code=EXIT_GEOMETRY)
