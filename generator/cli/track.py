"""``paddock track SPEC_OR_CSV`` draws a circuit board; ``paddock check SPEC`` validates one without drawing."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import app
from .common import output_options, publish


def _sheets(spec_path: Path, opts):
    from .. import track

    circuit = track.load(spec_path, paper=opts.paper)
    for change in circuit.changes:
        typer.echo(f"paddock: close: auto changed {change}", err=True)
    return circuit, [track.board_sheet(circuit)]


@app.command("track")
@output_options
def track_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    watch: Annotated[bool, typer.Option("--watch", help="Rebuild whenever the spec file changes.")] = False,
    *,
    opts,
) -> None:
    """Draw a circuit board from a spec file or a centre-line CSV (true scale, print-ready)."""
    if not watch:
        circuit, sheets = _sheets(spec, opts)
        publish(sheets, opts, title=f"Paddock — {circuit.name}")
        return
    _watch(spec, opts)


def _watch(spec: Path, opts) -> None:
    import time

    from ..errors import PaddockError

    def stamp():
        files = [spec]
        try:
            from ..track import load_spec

            s, _, _ = load_spec(spec)
            if s.csv:
                csv = Path(s.csv)
                files.append(csv if csv.is_absolute() else spec.parent / csv)
        except PaddockError:
            pass
        out = []
        for f in files:
            try:
                out.append(f.stat().st_mtime_ns)
            except OSError:
                out.append(None)
        return tuple(out)

    typer.echo(f"paddock: watching {spec} (Ctrl-C to stop)", err=True)
    last = None
    try:
        while True:
            now = stamp()
            if now != last:
                last = now
                try:
                    circuit, sheets = _sheets(spec, opts)
                    publish(sheets, opts, title=f"Paddock — {circuit.name}")
                    typer.echo(f"paddock: built {circuit.name} at {time.strftime('%H:%M:%S')}", err=True)
                except PaddockError as err:
                    typer.echo(f"paddock: error: {err}", err=True)
            time.sleep(0.4)
    except KeyboardInterrupt:
        typer.echo("paddock: stopped watching", err=True)


@app.command("check")
def check_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")] = False,
    paper: Annotated[str | None, typer.Option("--paper", help="Check against this paper instead.")] = None,
) -> None:
    """Validate a circuit without drawing it: exit 0 only if it builds; list every problem otherwise."""
    import json

    from .. import track
    from ..errors import EXIT_GEOMETRY
    from ..paper import parse_paper

    _, problems, summary = track.check(spec, paper=parse_paper(paper) if paper else None)
    if json_out:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        head = f"{spec}: {summary['name']}"
        if summary["lap_mm"] is not None:
            units = summary["units"]
            ustr = f"{units} units" if isinstance(units, int) else ", ".join(f"{k}: {v}" for k, v in units.items())
            head += f" — {ustr}, lap {summary['lap_mm']:.0f} mm, {summary['lanes']} lanes, {summary['paper']}"
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
