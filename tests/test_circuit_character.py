"""Real circuits Paddock has never seen keep their character (issue 32), measured on generated circuits in the
racetrack-database format (tests/synthetic_circuits.py: straights beside twisty sections, hairpins, chicanes,
street corners, esses, a figure-eight; surveyed every ~5 m with noise, or traced off a map every 20-50 m):
they build at defaults, their straights stay straight on the board, the real start line is kept or marked, and
every fix a command prints builds when it is followed."""

from __future__ import annotations

import json
import statistics
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from synthetic_circuits import best_fit_pct as _best
from synthetic_circuits import generated_set, measure, realistic
from typer.testing import CliRunner

from generator.cli import _register, app
from generator.track import CircuitSpec, analyse
from generator.track.load import read_points
from generator.track.straights import BOARD_TOL_DEG

_register()

#: The seeded set the sweeps run over: ten circuits (seed 3 a traced figure-eight), and two more figure-eights.
SEEDS = range(10)


@cache
def _built(seed: int, eight: bool | None, folder: str):
    syn = realistic(seed, eight=eight)
    csv = syn.write(Path(folder) / f"syn{seed}{'e' if eight else ''}.csv")
    done = analyse(CircuitSpec(name=csv.stem, csv=str(csv)), csv)
    return syn, csv, done, measure(done, read_points(csv))


def best_fit_pct(c) -> float:
    """The board's best-fit deviation from its real line (the shape alone, wherever it is placed)."""
    from generator.track.adapt import to_page

    sc, rot, shift = c.source_to_page
    return _best(c.line.xy[:-1], to_page(read_points(Path(c.spec.csv)), sc, rot, shift))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("circuits"))


def test_generated_circuits_build_at_defaults_keeping_shape_and_straights(folder):
    """Every circuit of the set builds at defaults (A3); the board's deviation from the real line as placed is at
    most 3 % of its diagonal at the median and 6.5 % at worst (this set's: 2.5 % and 6.0 %; over 30 generated
    circuits, benchmarks/bench_circuits.py 30, the median is 3.7 %), and best fit — issue 32's measure, the shape
    alone — within its targets of 3 % and 6 % (over the 30: 2.7 % and 4.0 %); every
    straight of the data is straight on the board (heading range at most BOARD_TOL_DEG at the median, never more
    than 20°), or the legend says which one bends and why."""
    devs, bends = [], []
    for seed in SEEDS:
        syn, csv, done, m = _built(seed, None, folder)
        assert done.buildable, (csv.name, [p.message for p in done.problems])
        devs.append(m["max_pct"])
        said = " ".join(done.circuit.notes)
        for length, data_deg, board_deg in m["straights"]:
            assert data_deg < 3.5  # a straight in the data ...
            assert board_deg <= 20.0 or "bends" in said, (csv.name, length, board_deg)
            bends.append(board_deg)
    assert statistics.median(devs) <= 3.0 and max(devs) <= 6.5, devs
    best = [best_fit_pct(_built(seed, None, folder)[2].circuit) for seed in SEEDS]  # the measure
    assert all(b <= d + 1e-9 for b, d in zip(best, devs, strict=True))
    assert statistics.median(best) <= 3.0 and max(best) <= 6.0, best
    assert len(bends) >= 2 * len(SEEDS) and statistics.median(bends) <= BOARD_TOL_DEG, bends
    assert max(bends) <= 20.0, bends


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_figure_eight_builds_at_defaults_its_start_and_grid_off_the_crossing(folder, seed):
    """A circuit that crosses itself builds at defaults: the crossing a bridge, the start line and the grid placed
    clear of it (the build lists no crossing problem), the grid as large as a straight clear of it holds."""
    syn, csv, done, m = _built(seed, True, folder)
    assert syn.crossings == 1
    c = done.circuit
    assert done.buildable, [p.message for p in done.problems]
    assert [cr.kind for cr in c.crossings] == ["bridge"]
    assert 2 <= len(c.grid) <= 10


def _check(csv: Path, *args: str) -> dict:
    res = CliRunner().invoke(app, ["check", str(csv), "--json", *args])
    assert res.exit_code in (0, 3), (res.stdout, res.exception)
    return json.loads(res.stdout)


def test_a_smaller_field_keeps_the_real_start_line_where_the_whole_grid_stands_far_off(folder):
    """Where the nearest place that holds the whole grid on straight track is more than NEAR_UNITS from the real
    start line, and the real line holds at least half of it, the board keeps the real line with the cars that
    stand there, and says the fix for the whole grid — which builds, the start line moved as it says."""
    import re

    from generator.track.grid import NEAR_UNITS

    syn, csv, done, m = _built(14, None, folder)
    assert done.buildable and done.spec.start.at == 0 and m["start_off_units"] < 0.5
    assert 5 <= done.spec.grid < 10
    said = next(str(ch) for ch in done.changes if "behind the real start line" in str(ch))
    assert said.startswith(f"a grid of {done.spec.grid} (not 10) behind the real start line")
    assert f"a grid of {done.spec.grid} behind the real start line: no more fit there" in done.circuit.notes
    by = float(re.search(r"--grid 10 moves the start line ([\d.]+) units forward", said).group(1))
    assert by > NEAR_UNITS
    whole = analyse(CircuitSpec(name=csv.stem, csv=str(csv), grid=10), csv)
    assert whole.buildable and whole.spec.grid == 10 and abs(whole.spec.start.at - by) < 1e-6


def test_an_error_is_never_cut_inside_its_problem(folder, tmp_path, capsys):
    """Issue 32: an error longer than a terminal line (a long path, the grid's numbers and its fixes) keeps every
    word of its problem; only a long value it quotes may be shortened."""
    from generator.cli import main

    syn, csv, done, m = _built(7, None, folder)
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3) / "circuits"
    deep.mkdir(parents=True)
    long = deep / csv.name
    long.write_bytes(csv.read_bytes())
    with pytest.raises(SystemExit) as ex:
        main(["track", str(long), "--start", "real", "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    where, problem = err.split(f"{csv.name}: ", 1)
    assert ex.value.code == 3 and "\\n" not in err and where.startswith("paddock: error: /")
    assert "…" not in problem and len(problem) > 250, problem  # the path may be shortened, never the problem
    assert problem.startswith("grid: 10 grid slots") and "only 1 lie between the line" in problem
    assert problem.endswith("or let Paddock place the start line (--start auto)")


def test_start_real_auto_units_and_grid_on_a_csv(folder):
    """--start real keeps the real start line (the CSV's first point) where it is; --start auto (a CSV's default)
    moves it where the grid stands on straight track and marks the real one on the board, its legend line saying
    why the race starts elsewhere; --start N places it N units along; --grid N sizes the grid."""
    syn, csv, done, m = _built(7, None, folder)
    c = done.circuit
    assert m["start_off_units"] >= 1 and c.real_start is not None  # the default moved it: the real line marked
    s, line = c.real_start
    from generator.track.adapt import to_page

    first = to_page(read_points(csv)[:1], *c.source_to_page)[0]
    assert np.hypot(*(c.line.point(np.array([s]))[0] - first)) < 0.2 * c.unit
    assert "real start line" in line and ("after it" in line or "before it" in line)
    real = _check(csv, "--start", "real")  # kept there: its grid does not stand on straight track, and says so
    assert np.hypot(*(np.array(real["centre_line"][0]) - first)) < 0.2 * c.unit
    assert [p["kind"] for p in real["problems"]] == ["grid"]
    assert {"field": "start", "value": "auto", "now": "real"} in real["problems"][0]["fixes"]
    placed = _check(csv, "--start", "3")
    assert not any("start line moved" in ch for ch in placed["changes"])
    grid = _check(csv, "--grid", "4")
    assert grid["buildable"]
    bad = CliRunner().invoke(app, ["check", str(csv), "--start", "soon"])
    assert (
        bad.exception.exit_code == 2
        and "--start soon" in str(bad.exception)
        and "'auto' or 'real'" in str(bad.exception)
    )


#: Option of each fix a command prints, as the user types it.
def _fix_args(fix: dict) -> list[str]:
    field, v = fix["field"], fix["value"]
    paper = fix.get("paper")
    if isinstance(paper, dict):  # as the command prints it: a bare name is landscape
        paper = paper["name"] + ("-portrait" if paper.get("orientation") == "portrait" else "")
    if field == "start":
        return ["--start", str(v)]
    if field == "start.at":
        return ["--start", f"{v:g}"]
    if field in ("grid", "lanes", "smoothing", "crossing"):
        return [f"--{field}", f"{v:g}" if isinstance(v, float) else str(v)]
    if field == "fit":
        return ["--fit", str(v)] + (["--paper", paper] if paper else [])
    if field in ("paper", "orientation"):
        return ["--paper", paper or str(v)]
    raise AssertionError(f"a fix the command line cannot follow: {fix}")


def _with(args: list[str], more: list[str]) -> list[str]:
    """``args`` with the options of ``more`` replacing the same options."""
    out, i = [], 0
    while i < len(args):
        if args[i] in more[::2]:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out + more


# Paddock's notices (LayoutWarning): a generated circuit's shape kept loosely is said to the user; here each fix
# builds
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_fix_printed_builds_when_followed(folder, seed):
    """For each circuit, a few requests it cannot meet as asked (a grid longer than a straight, the real start
    line kept, a start line at a crossing or a bend, more lanes): every fix printed is followed, each alone, and
    the board builds."""
    syn, csv, done, m = _built(seed, None, folder)
    followed = 0
    for args in (["--grid", "30"], ["--start", "real"], ["--start", "1", "--grid", "14"], ["--lanes", "5"]):
        d = _check(csv, *args)
        for p in d["problems"]:
            for fix in p.get("fixes", []):
                again = _check(csv, *_with(args, _fix_args(fix)))
                assert again["buildable"], (csv.name, args, fix, [q["message"] for q in again["problems"]])
                followed += 1
        assert d["buildable"] or any(p.get("fixes") for p in d["problems"]) or followed, (args, d["problems"])
    assert followed


def test_benchmark_names_what_it_measures():
    """benchmarks/bench_circuits.py exists and measures the issue's numbers (run by hand, not here)."""
    text = (Path(__file__).resolve().parents[1] / "benchmarks" / "bench_circuits.py").read_text()
    for word in ("deviation", "bend", "start", "build"):
        assert word in text
    assert generated_set  # the same generator


def test_pack_start_real_keeps_the_real_line_and_its_cars_fix_builds(folder, tmp_path, capsys):
    """pack f1-dice --track CSV --start real: the 24-car field does not stand behind the real start line; the
    error names the field its own straight holds (--cars N), and with it the pack builds."""
    import re

    from generator.cli import main

    syn, csv, done, m = _built(4, None, folder)
    argv = ["pack", "f1-dice", "--track", str(csv), "--start", "real", "--out", str(tmp_path), "-f", "pdf", "-q"]
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 3 and "grid: 24 grid slots" in err, err
    found = re.search(r"--cars (\d+)\)", err)
    assert found, err
    with pytest.raises(SystemExit) as info:
        main([*argv, "--cars", found[1]])
    assert info.value.code == 0, capsys.readouterr().err


SHARED = Path(__file__).resolve().parents[2] / "shared" / "circuits"


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_fit_keeps_the_shape_at_that_lap_length(folder, seed):
    """--fit N adapts the real line keeping its shape with a lap of N units: N the default's length builds the
    default board (the same centre line); a shorter lap builds on the same paper, N units long, its deviation
    within the sweep's worst; a longer lap that the paper cannot hold says so, and the paper it advises (tried
    before printed) builds N units when followed."""
    syn, csv, done, m = _built(seed, None, folder)
    base = _check(csv)
    n = base["units"]
    same = _check(csv, "--fit", str(n))
    assert same["buildable"] and same["centre_line"] == base["centre_line"] and same["paper"] == base["paper"]
    short = _check(csv, "--fit", str(n - 5))
    assert short["buildable"] and short["units"] == n - 5, [p["message"] for p in short["problems"]]
    assert short["deviation"]["max_pct"] <= 6.5
    long = _check(csv, "--fit", str(n + 6))
    if not long["buildable"]:
        fixes = [f for p in long["problems"] for f in p.get("fixes", [])]
        assert [p["kind"] for p in long["problems"]] == ["fit"] and fixes, long["problems"]
        for fix in fixes:
            again = _check(csv, *_with(["--fit", str(n + 6)], _fix_args(fix)))
            assert again["buildable"] and again["units"] == n + 6, (fix, again["problems"])
    else:
        assert long["units"] == n + 6


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/circuits is not beside the clone")
def test_fit_on_budapest_keeps_its_shape():
    """Budapest (45 units on A3 at defaults): --fit 45 is the default board; --fit 48 does not fit A3 and its
    advice, A2, builds a 48-unit lap that keeps the shape as closely as the default (issue 32: --fit 48 used to
    switch shape-keeping off and fail with 14 problems)."""
    csv = SHARED / "Budapest.csv"
    base = _check(csv)
    assert base["units"] == 45 and base["paper"] == "A3 portrait"
    assert _check(csv, "--fit", "45")["centre_line"] == base["centre_line"]
    d = _check(csv, "--fit", "48")
    assert [p["kind"] for p in d["problems"]] == ["fit"]
    assert [f["value"] for f in d["problems"][0]["fixes"]] == ["a2", "a2"]
    big = _check(csv, "--fit", "48", "--paper", "a2")
    assert big["buildable"] and big["units"] == 48 and big["deviation"]["max_pct"] <= base["deviation"]["max_pct"] + 1


def test_smoothing_keeps_the_bridge_of_a_real_figure_eight(folder):
    """A real figure-eight smoothed (--smoothing) keeps the automatic bridge its shape-kept board has."""
    syn, csv, done, m = _built(0, True, folder)
    res = CliRunner().invoke(app, ["check", str(csv), "--smoothing", "20"])
    assert res.exit_code == 0 and "drawn as a bridge" in res.stdout, res.stdout


def test_no_unit_number_stands_on_a_bridge_deck(folder):
    """A unit passing under a bridge carries its number where it can be seen, never on the deck over it (a
    generated figure-eight whose action unit 10 lies under the bridge)."""
    import numpy as np

    from generator.track.numbers import _in_sight, action_units

    syn, csv, done, m = _built(66, True, folder)
    c = done.circuit
    (cr,) = [x for x in c.crossings if x.kind == "bridge"]
    deck = c.offset_line(cr.s_upper - cr.reach, cr.s_upper + cr.reach, 0.0)
    under = [u for u in action_units(c) if c.lap_distance(np.array(sum(c.unit_bounds(u)) / 2), cr.s_lower) < c.unit]
    assert under  # the case: an action unit under the deck
    for u in range(1, c.units_count + 1):
        s0, s1 = c.unit_bounds(u)
        at = _in_sight(c, s0, s1, (s0 + s1) / 2)
        if at is None:
            assert u in under or c.lap_distance(np.array((s0 + s1) / 2), cr.s_lower) < 2 * c.unit
            continue
        on_deck = c.lap_distance(np.array(at), cr.s_upper) <= cr.reach
        p = np.array(c.point_at(at))
        assert on_deck or np.hypot(*(deck - p).T).min() >= c.half_width + 2.6, u
