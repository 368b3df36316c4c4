"""``paddock track SPEC_OR_CSV`` draws a circuit board; ``paddock check SPEC`` validates one without drawing."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import app
from .common import output_options, publish

LanesOpt = Annotated[
    int | None, typer.Option("--lanes", help="Number of lanes, 1-7 (overrides the spec's 'lanes').", show_default=False)
]
SmoothingOpt = Annotated[
    float | None,
    typer.Option(
        "--smoothing",
        metavar="MM",
        help="CSV/points: smooth the centre line over this many mm on paper (spec 'smoothing'; a CSV gets 30).",
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


def _overrides(lanes, smoothing, fit) -> dict:
    return {"lanes": lanes, "smoothing": smoothing, "fit": fit}


def _sheets(spec_path: Path, opts, overrides: dict | None = None):
    from .. import track

    circuit = track.load(spec_path, paper=opts.board_paper(), overrides=overrides, edge=opts.edge)
    for change in circuit.changes:
        typer.echo(f"paddock: close: auto changed {change}", err=True)
    return circuit, [track.board_sheet(circuit)]


@app.command("track")
@output_options
def track_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    watch: Annotated[bool, typer.Option("--watch", help="Rebuild whenever the spec file changes.")] = False,
    lanes: LanesOpt = None,
    smoothing: SmoothingOpt = None,
    fit: FitOpt = None,
    *,
    opts,
) -> None:
    """Draw a circuit board from a spec file or a centre-line CSV (true scale, print-ready)."""
    over = _overrides(lanes, smoothing, fit)
    if not watch:
        circuit, sheets = _sheets(spec, opts, over)
        publish(sheets, opts, title=f"Paddock — {circuit.name}")
        return
    Watcher(spec, opts, overrides=over).run()


class Watcher:
    """Rebuilds a spec whenever it (or the centre-line CSV it names) changes: one :meth:`step` per poll.

    ``say`` receives each status line (stderr by default). A bad edit prints its error and the watcher carries
    on; the next save that fixes it rebuilds."""

    def __init__(self, spec: Path, opts, say=None, overrides: dict | None = None) -> None:
        self.spec = spec
        self.opts = opts
        self.overrides = overrides
        self.say = say or (lambda line: typer.echo(line, err=True))
        self.last: tuple | None = None
        self._csv: tuple[int | None, Path | None] = (None, None)  # (spec mtime it was read at, csv path)
        self.builds = 0
        self.errors = 0

    def _mtime(self, f: Path | None) -> int | None:
        try:
            return f.stat().st_mtime_ns if f is not None else None
        except OSError:
            return None

    def _csv_of(self, spec_mtime: int | None) -> Path | None:
        """The CSV the spec reads, re-read from the spec only when the spec itself changed."""
        if self._csv[0] != spec_mtime:
            from ..errors import PaddockError
            from ..track import load_spec

            csv = None
            try:
                s, _, _ = load_spec(self.spec)
                if s.csv:
                    csv = Path(s.csv)
                    csv = csv if csv.is_absolute() else self.spec.parent / csv
            except PaddockError:
                pass
            self._csv = (spec_mtime, csv)
        return self._csv[1]

    def stamp(self) -> tuple:
        m = self._mtime(self.spec)
        csv = self._csv_of(m)
        return (m, str(csv), self._mtime(csv))

    def step(self) -> bool:
        """Rebuild if anything changed since the last step; True if a build (good or bad) was attempted."""
        import time

        from ..errors import PaddockError

        now = self.stamp()
        if now == self.last:
            return False
        self.last = now
        try:
            circuit, sheets = _sheets(self.spec, self.opts, self.overrides)
            publish(sheets, self.opts, title=f"Paddock — {circuit.name}")
        except PaddockError as err:
            self.errors += 1
            self.say(f"paddock: error: {err}")
            self.say("paddock: still watching; save a fix to rebuild")
        except Exception as err:  # a bug must not end a design session: report it and keep watching
            self.errors += 1
            self.say(f"paddock: internal error ({type(err).__name__}: {err}); still watching")
        else:
            self.builds += 1
            self.say(f"paddock: built {circuit.name} at {time.strftime('%H:%M:%S')}")
        return True

    def run(self, interval: float = 0.4, max_steps: int | None = None, sleep=None) -> None:
        """Poll until Ctrl-C (or ``max_steps`` polls, for tests)."""
        import time

        sleep = sleep or time.sleep
        self.say(f"paddock: watching {self.spec} (Ctrl-C to stop)")
        n = 0
        try:
            while max_steps is None or n < max_steps:
                self.step()
                n += 1
                if max_steps is None or n < max_steps:
                    sleep(interval)
        except KeyboardInterrupt:
            self.say("paddock: stopped watching")


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
) -> None:
    """Validate a circuit without drawing it: exit 0 only if it builds; list every problem otherwise."""
    import json

    from .. import track
    from ..errors import EXIT_GEOMETRY, PaddockError
    from ..paper import parse_paper_choice

    try:
        choice = parse_paper_choice(paper) if paper is not None else None
        _, problems, summary = track.check(spec, paper=choice, overrides=_overrides(lanes, smoothing, fit), edge=edge)
    except PaddockError as err:
        if not json_out:
            raise
        # a spec that cannot be read still gets its machine-readable answer (and keeps its exit code)
        typer.echo(json.dumps(track.error_summary(spec, err), indent=2, ensure_ascii=False))
        raise typer.Exit(code=err.exit_code) from None
    if json_out:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        head = f"{spec}: {summary['name']}"
        if summary["lap_mm"] is not None:
            units = summary["units"]
            ustr = f"{units} units" if isinstance(units, int) else ", ".join(f"{k}: {v}" for k, v in units.items())
            lanes = f"{summary['lanes']} lane{'' if summary['lanes'] == 1 else 's'}"
            head += f" — {ustr}, lap {summary['lap_mm']:.0f} mm, {lanes}, {summary['paper']}"
        typer.echo(head)
        for change in summary["changes"]:
            typer.echo(f"  close: auto changed {change}")
        if not problems:
            typer.echo("  OK: buildable")
        for p in problems:
            loc = f"{spec}:{p.line}: " if p.line else ""
            typer.echo(f"  {loc}{p}")
    if problems:
        raise typer.Exit(code=EXIT_GEOMETRY)
