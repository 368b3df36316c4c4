"""``paddock pack formula-d`` and ``paddock corners``: the Formula D commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...command import output_options, publish_pack

#: The longest race the pack prints boxes for (a lap box per lap on every scorecard, a nitro box per lap for GT).
MAX_LAPS = 5


@output_options
def pack(
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help='Player names, comma-separated: "Ann,Béla,Csaba" (at most 10; default: 10 players, the cars in '
            "the game box).",
        ),
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option("--players-file", help="YAML players file: names, colours, WP builds, GT drivers."),
    ] = None,
    wp: Annotated[
        str | None,
        typer.Option(
            "--wp", help="One custom build for every player: tires=8,brakes=3,gearbox=2,body=2,engine=3,handling=2."
        ),
    ] = None,
    gt: Annotated[bool, typer.Option("--gt", help="Road race: the ten GT drivers, in rulebook order.")] = False,
    weather: Annotated[
        bool, typer.Option("--weather", help="Weather rules in play: a weather box on scorecards.")
    ] = False,
    tyres: Annotated[bool, typer.Option("--tyres", help="Tire rules in play: a tire box on scorecards.")] = False,
    track: Annotated[
        Path | None, typer.Option("--track", help="Circuit spec (YAML) or a real circuit's centre-line CSV.")
    ] = None,
    pit_roll: Annotated[
        int | None,
        typer.Option(
            "--pit-roll",
            min=1,
            max=30,
            help="Minimum roll to enter the pit; overrides the spec's pit.min_roll (neither: a box to write it in).",
        ),
    ] = None,
    laps: Annotated[
        int | None,
        typer.Option(
            "--laps",
            min=1,
            max=MAX_LAPS,
            help="Race length in laps, on the board, cards and scorecards (default: the rulebook's 2; 1 suits "
            "a large real circuit).",
        ),
    ] = None,
    house_rules: Annotated[
        bool,
        typer.Option(
            "--house-rules",
            help="Fill the numbers the rulebook's text does not show (brake WP, pit roll, weather ranges, engine "
            "WP, the GT drivers' WP) with Paddock's house rules, marked as such; default: blank boxes to write in.",
        ),
    ] = False,
    *,
    opts,
) -> None:
    """Formula D: a per-lane board with stops and long/short paths, scorecards, dashboards, reference cards."""
    from . import GAME

    sheets = GAME.pack(
        opts.pages,
        players=players,
        players_file=players_file,
        wp=wp,
        gt=gt,
        weather=weather,
        tyres=tyres,
        track=track,
        pit_roll=pit_roll,
        laps=laps,
        house_rules=house_rules,
    )
    if players is None and players_file is None and not opts.output.quiet:
        from .pack import default_names

        n = len(default_names(gt, weather))
        typer.echo(
            f"paddock: no --players given: {n} players, "
            + ("one for each GT driver who may race" if gt else "the cars in the game box")
            + '; give --players "Ann,Béla,…" for your table',
            err=True,
        )
    publish_pack("formula-d", sheets, opts)


def corners(
    spec: Annotated[
        Path | None, typer.Argument(help="Circuit spec (YAML) or centre-line CSV; default: Paddock's default circuit.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Formula D corners: stops, the longest / shortest path in spaces, and each corner's units ready to paste
    into a spec (``corners:``), computed on the per-lane board the pack prints."""
    import json

    from ...errors import PaddockError
    from .circuit import load_circuit

    try:
        circuit = load_circuit(spec)
        rows = corner_rows(circuit)
    except PaddockError as err:
        if not as_json:
            raise
        # a circuit that does not build still gets its machine-readable answer (as `check --json`), and its exit code
        from ...problems import error_entries, in_option_words, option_entry

        err = in_option_words(err)
        out = {"name": None, "file": None if spec is None else str(spec), "lanes": None, "corners": []}
        out["problems"] = error_entries(err, option_entry)
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False, default=str))
        raise typer.Exit(code=err.exit_code) from None
    if as_json:
        source = str(circuit.source) if circuit.source else None
        out = {"name": circuit.name, "file": source, "lanes": circuit.lanes, "corners": rows, "problems": []}
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for line in corner_table(circuit, rows, _placed_start(circuit, spec)):
        typer.echo(line)


def _placed_start(circuit, spec: Path | None) -> str | None:
    """The ``start:`` the pasted corners count their units from, where the board's start line is not the spec's
    own (Paddock placed it for the grid, or moved a real circuit's off its timing line): without it, corners
    pasted into the spec would count from another line."""
    from ... import track as tr
    from .circuit import board_path

    own, now = tr.load_spec(board_path(spec))[0].start, circuit.spec.start
    if abs(own.at - now.at) < 5e-4 and own.reverse == now.reverse:
        return None
    return f"start: {{at: {now.at:g}" + (", reverse: true" if now.reverse else "") + "}"


def corner_rows(circuit) -> list[dict]:
    """Each corner as ``paddock check --json`` gives it, with the stops used, the two path counts, its spaces lane
    by lane, its units (``from``/``to``, as a spec's ``corners`` entry takes them) and, on a real circuit's board,
    its real radius and the real circuit's corners it holds."""
    import math

    from ...track.summary import corner_entry
    from .overlay import corner_marks

    g, L, u = circuit.graph, circuit.lap_length, circuit.unit_length
    rows = []
    for m in corner_marks(circuit):
        k = circuit.corners[m.index - 1]
        row = corner_entry(circuit, m.index - 1)
        row.update(stops=m.stops, stops_suggested=m.stops_suggested, long=m.paths.long, short=m.paths.short)
        real_r = k.real_radius_m  # a real circuit's: what its stops come from
        row["real_radius_m"] = None if real_r is None or not math.isfinite(real_r) else round(real_r, 1)
        # the corner's spaces lane by lane (lane 1 = left), between its stepped entry and exit lines
        row["spaces_per_lane"] = [sum(1 for i in m.paths.spaces if g.spaces[i].lane == n) for n in range(g.lanes)]
        # the units a spec's corner takes to give this one ('to' before 'from' runs over the line): a declared
        # corner's ends lie on the centre line's first sample at or past its units' edges, within a millimetre
        slack = 0.05
        row["from"] = int((k.s_start % L) / u + slack) + 1
        row["to"] = (max(1, math.ceil(k.s_end / u - slack)) - 1) % circuit.units_count + 1
        real = getattr(k, "real", None)
        if real is not None:
            row["real_corners"] = [
                {"at_km": round(rc.at_m / 1000, 2), "radius_m": round(rc.radius_m, 1), "stops": rc.stops}
                for rc in sorted(real, key=lambda rc: rc.at_m)
            ]
            row["stops_wanted"] = k.wanted
        rows.append(row)
    return rows


def corner_table(circuit, rows: list[dict], start: str | None = None) -> list[str]:
    """``paddock corners`` as text: a table, then the corners as a spec's ``corners:`` ready to paste (with the
    ``start`` line they count from, where the board placed its start line itself)."""
    from .real_line import settings as real_settings

    out = [f"{circuit.name}: {circuit.lanes} lanes, {len(rows)} corner(s)"]
    real = any(r["real_radius_m"] is not None for r in rows)
    head = " #  turn   radius mm" + ("  real radius m" if real else "")
    out.append(head + "  angle°  stops  long (green)  short (red)  units    name (as on the board)")
    for r in rows:
        mark = "*" if r["stops_suggested"] else " "
        radius = r["radius_mm"] if r["radius_mm"] is not None else float("inf")  # null in JSON: a straight
        real_r = (f"  {r['real_radius_m']:>13.0f}" if r["real_radius_m"] is not None else " " * 15) if real else ""
        units = f"{r['from']}–{r['to']}"
        out.append(
            f"{r['corner']:>2}  {r['direction']:<5} {radius:>9.0f}{real_r}  {r['angle_deg']:>6.0f}  "
            f"{r['stops']:>4}{mark}  {r['long']:>12}  {r['short']:>11}  {units:<7}  {r['name'] or ''}".rstrip()
        )
    if real:
        bands = real_settings().stops_by_real_radius
        stops = ", ".join(
            f"{b.stops} up to {b.max_radius_m:g} m" if b.max_radius_m is not None else f"{b.stops} wider" for b in bands
        )
        out.append(f"stops from the real radius: {stops}; never more than the short path has spaces")
    if any(r["stops_suggested"] for r in rows):
        out.append("* stops suggested from the radius (the spec gives none)")
    if rows:
        out.append("")
        out.append(f"# the corners in the units of this board ({circuit.units_count} to a lap), ready to paste:")
        if start:
            out.append(f"{start}   # this board's start line, placed by Paddock: the units count from it")
        out.append("corners:")
        out += [f"  - {{from: {r['from']}, to: {r['to']}, stops: {r['stops']}{_name(r['name'])}}}" for r in rows]
    return out


def _name(name: str | None) -> str:
    """``, name: …`` for a pasted corner: plain where YAML reads it back as written, else quoted (JSON)."""
    import json
    import re

    if not name:
        return ""
    plain = re.fullmatch(r"[^\W\d_][\w .'-]*", name) and not name.endswith(" ")
    return f", name: {name if plain else json.dumps(name, ensure_ascii=False)}"


def register(app: typer.Typer) -> None:
    """The game's own commands on the root app."""
    app.command("corners")(corners)
