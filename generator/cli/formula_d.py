"""``paddock corners SPEC``: the Formula D numbers of a circuit's corners, counted on its per-lane spaces."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import app


@app.command("corners")
def corners(
    spec: Annotated[
        Path | None, typer.Argument(help="Circuit spec (YAML); default: Paddock's default circuit.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Formula D corners: stops and the longest / shortest path in spaces, computed on the per-lane board."""
    import json

    from ..formula_d.overlay import corner_marks, load_circuit

    circuit = load_circuit(spec)
    rows = []
    for m in corner_marks(circuit):
        c = circuit.corners[m.index - 1]
        rows.append(
            {
                "corner": m.index,
                "name": c.name,
                "from_mm": round(m.s_start, 1),
                "to_mm": round(m.s_end, 1),
                "radius_mm": round(c.radius, 1),
                "angle_deg": round(c.angle, 1),
                "direction": c.direction,
                "stops": m.stops,
                "stops_suggested": m.stops_suggested,
                "long": m.paths.long,
                "short": m.paths.short,
            }
        )
    if as_json:
        typer.echo(json.dumps({"circuit": circuit.name, "lanes": circuit.lanes, "corners": rows}, indent=2))
        return
    typer.echo(f"{circuit.name}: {circuit.lanes} lanes, {len(rows)} corner(s)")
    typer.echo(" #  turn   radius  angle  stops  long (green)  short (red)")
    for r in rows:
        mark = "*" if r["stops_suggested"] else " "
        typer.echo(
            f"{r['corner']:>2}  {r['direction']:<5} {r['radius_mm']:>6.0f}  {r['angle_deg']:>5.0f}  "
            f"{r['stops']:>4}{mark}  {r['long']:>12}  {r['short']:>11}"
        )
    if any(r["stops_suggested"] for r in rows):
        typer.echo("* stops suggested from the radius (the spec gives none)")
