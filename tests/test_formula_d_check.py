"""`check` validates the board `pack formula-d` prints (issue 31): a `game: formula-d` spec (or `--game formula-d`)
is checked on its per-lane spaces, its paper and its corners, as the pack builds it; every warning said on stderr
is in `check --json` too; `track` (and `track --watch`) of a Formula D spec draws the Formula D layer; corners may
be declared on an arc; `corners` prints every corner's units ready to paste back into a spec."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from generator.cli import main
from generator.data import track_specs_dir
from generator.games.formula_d.board import arc_corners, load_circuit
from generator.track import load_spec, shipped

FIXTURES = Path(__file__).parent / "formula_d"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "circuits"
FD_SPECS = [p for p in shipped() if load_spec(p)[0].game == "formula-d"]
# every shipped Formula D spec, and two real circuits raced as Formula D boards (the pack's A1 choice)
needs_shared = pytest.mark.skipif(not (SHARED / "Monza.csv").is_file(), reason="no ../shared/circuits")
BOARDS = [(p, ()) for p in FD_SPECS] + [pytest.param(SHARED / "Monza.csv", ("--game", "formula-d"), marks=needs_shared)]
BOARDS += [(track_specs_dir() / "melbourne.csv", ("--game", "formula-d"))]


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err


@pytest.mark.parametrize(("path", "game"), BOARDS, ids=lambda v: v.name if isinstance(v, Path) else None)
def test_check_and_pack_agree_on_paper_spaces_and_corners(capsys, path, game):
    assert len(FD_SPECS) >= 3  # Circuit de la Garenne, the Corniche and the road race
    code, out, err = run(capsys, "check", path, "--json", *game)
    assert code == 0, err
    answer = json.loads(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = load_circuit(path)  # what `pack formula-d --track PATH` prints
    assert answer["paper"] == board.paper.label
    assert answer["unit_mode"] == "per-lane" and answer["lanes"] == board.lanes
    assert answer["units"] == {f"lane {i + 1}": board.graph.count(i) for i in range(board.lanes)}
    got = [(c["s_start_mm"], c["s_end_mm"], c["stops"], c["name"]) for c in answer["corners"]]
    want = [(round(k.s_start, 1), round(k.s_end, 1), k.stops, k.name) for k in board.corners]
    assert got == want and want


@needs_shared
def test_a_real_circuit_is_checked_as_its_formula_d_board_only_when_asked(capsys):
    """A bare CSV is checked as the f1-dice board it draws by default; `--game formula-d` checks the A1 board."""
    _, out, _ = run(capsys, "check", SHARED / "Monza.csv", "--json")
    plain = json.loads(out)
    _, out, _ = run(capsys, "check", SHARED / "Monza.csv", "--json", "--game", "formula-d")
    fd = json.loads(out)
    assert plain["unit_mode"] != "per-lane" and fd["unit_mode"] == "per-lane" and fd["paper"].startswith("A1")
    code, _, err = run(capsys, "check", SHARED / "Monza.csv", "--game", "formula-z")
    assert code == 2 and "unknown game" in err


def test_every_warning_on_stderr_is_in_the_json(capsys, tmp_path):
    spec = tmp_path / "straight.yaml"
    spec.write_text((FIXTURES / "corner-on-a-straight.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "check", spec, "--json")
    said = [line.removeprefix("paddock: warning: ") for line in err.splitlines()]
    assert code == 0 and said and json.loads(out)["warnings"] == said
    assert any("corner 1 (Nowhere) is declared on a straight" in w for w in said)
    assert len(set(said)) == len(said)  # each said once, however many builds the check made
    code, out, err = run(capsys, "check", spec)
    assert code == 0 and "declared on a straight" in err


def test_a_declared_corner_on_a_bend_is_no_straight(capsys):
    code, out, err = run(capsys, "check", track_specs_dir() / "formula-d-circuit.yaml", "--json")
    assert code == 0 and "straight" not in err and json.loads(out)["warnings"] == []


def test_corners_declared_on_arcs(tmp_path):
    """`arc: {…, stops, name}` declares the arc a corner, from the unit it begins in to the unit it ends in."""
    spec, _, _ = load_spec(FIXTURES / "corner-on-a-straight.yaml")
    declared = arc_corners(spec).corners
    by_name = {c.name: c for c in declared}
    assert set(by_name) == {"Nowhere", "Hairpin"}
    # the hairpin: after the start line (unit 0.5 along), a 300 mm straight, then 180° of radius 80 mm
    L = 600 + 2 * 3.14159265 * 80
    u = L / round(L / spec.unit)
    a, b = 300 - 0.5 * spec.unit, 300 - 0.5 * spec.unit + 3.14159265 * 80
    assert (by_name["Hairpin"].from_, by_name["Hairpin"].to) == (int(a // u) + 1, -int(-b // u))
    assert by_name["Hairpin"].stops == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = load_circuit(FIXTURES / "corner-on-a-straight.yaml")
    assert [(k.name, k.stops) for k in c.corners] == [("Nowhere", 1), ("Hairpin", 2)]
    assert c.corners[1].angle == pytest.approx(180, abs=8)


def test_corners_prints_units_ready_to_paste(capsys):
    """The `corners:` block `paddock corners` prints declares the very corners the spec declares."""
    for path in FD_SPECS:
        spec, _, _ = load_spec(path)
        code, out, _ = run(capsys, "corners", path)
        assert code == 0
        block = out[out.index("corners:\n") :]
        pasted = [tuple(map(int, m)) for m in re.findall(r"\{from: (\d+), to: (\d+), stops: (\d)", block)]
        assert pasted == [(c.from_, c.to, c.stops) for c in arc_corners(spec).corners], path.name
        code, out, _ = run(capsys, "corners", path, "--json")
        rows = json.loads(out)["corners"]
        assert [(r["from"], r["to"]) for r in rows] == [(f, t) for f, t, _ in pasted]


def test_track_and_watch_draw_the_formula_d_layer(tmp_path, capsys):
    from conftest import pdf_text

    from generator.cli.track import Watcher
    from generator.command import Options
    from generator.pipeline import Output

    spec = tmp_path / "garenne.yaml"
    spec.write_text((track_specs_dir() / "formula-d-circuit.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    said: list[str] = []
    out = tmp_path / "watch"
    w = Watcher(spec, Options(output=Output(out=out, formats=("pdf",), quiet=True)), say=said.append)
    assert w.step() and w.builds == 1, said
    text = pdf_text(next(out.glob("*.pdf")))
    for words in ("stops required", "Grande Courbe", "longest path"):
        assert words in text
    code, _, err = run(capsys, "track", spec, "-o", tmp_path / "track", "-f", "pdf", "-q")
    assert code == 0, err
    assert "stops required" in pdf_text(next((tmp_path / "track").glob("*.pdf")))


def _corner_spaces_under_grid(c) -> set[int]:
    from shapely import Polygon

    from generator.games.formula_d.overlay import corner_marks

    corner = set().union(*(m.paths.spaces for m in corner_marks(c)))
    under = set()
    for slot in c.grid:
        outline = Polygon(slot.outline)
        under |= {sp.id for sp in c.graph.spaces if Polygon(sp.polygon).intersection(outline).area > 1.0}
    return under & corner


def test_a_spec_without_start_gets_its_grid_on_straight_track(capsys, tmp_path):
    """Issue 31's oval: a `game: formula-d` spec with no `start` printed all 10 slots curled round a hairpin while
    `check` said buildable. Its line is now moved (the least) until the grid and the first moves stand clear of
    every corner; `check` says the move and lists no grid warning, and builds the very board the pack prints."""
    spec = tmp_path / "oval.yaml"
    spec.write_text(
        "name: Oval\ngame: formula-d\npaper: a2\nlanes: 2\nsegments:\n  - straight: 270\n"
        "  - arc: {radius: 45, angle: 180, turn: left, transition: 40}\n  - straight: 270\n"
        "  - arc: {radius: 45, angle: 180, turn: left, transition: 40}\n"
    )
    code, out, err = run(capsys, "check", spec, "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert not [w for w in answer["warnings"] if "grid slot" in w]
    (moved,) = [c for c in answer["changes"] if c.startswith("start line moved")]
    assert "clear of every corner" in moved
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        c = load_circuit(spec)
    assert not [w for w in said if "grid slot" in str(w.message)]
    assert len(c.grid) == 10 and not _corner_spaces_under_grid(c)
    from generator.games.formula_d.real import grid_shift

    assert grid_shift(c) == (0.0, True)
    # the same spec placing its own start: left where it says (the warning names the slots in the corner)
    spec.write_text(spec.read_text() + "start: {at: 0}\n")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        placed = load_circuit(spec)
    assert _corner_spaces_under_grid(placed) and [w for w in said if "grid slot" in str(w.message)]


def test_a_figure_eight_spec_without_start_builds_off_its_crossing(capsys, tmp_path):
    """The shipped figure-eight's segments without their `start`: the engine's line stands at the crossing; the
    Formula D board moves it off (its straights hold only part of a 12-car grid: said so, not claimed clear)."""
    from generator.games.formula_d.real import at_crossing

    text = (track_specs_dir() / "figure-eight.yaml").read_text()
    path = tmp_path / "eight.yaml"
    path.write_text(re.sub(r"(?m)^start:.*\n", "", text).replace("paper: a3", "paper: a2") + "game: formula-d\n")
    code, out, err = run(capsys, "check", path, "--json")
    assert code == 0, err
    (moved,) = [c for c in json.loads(out)["changes"] if c.startswith("start line moved")]
    assert "stands in a corner" in moved
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = load_circuit(path)
    assert [k.kind for k in c.crossings] == ["bridge"] and not at_crossing(c)


def test_corners_pasted_into_a_spec_whose_start_paddock_placed_declare_the_same_corners(capsys, tmp_path):
    """The oval without `start`: its line is placed for the grid, so the pasted block carries that `start` too;
    pasted into the spec, it declares the same corners at the same places (and the start stays put)."""
    spec = tmp_path / "oval.yaml"
    spec.write_text(
        "name: Oval\ngame: formula-d\npaper: a2\nlanes: 2\nsegments:\n  - straight: 270\n"
        "  - arc: {radius: 45, angle: 180, turn: left, transition: 40}\n  - straight: 270\n"
        "  - arc: {radius: 45, angle: 180, turn: left, transition: 40}\n"
    )
    code, out, _ = run(capsys, "corners", spec)
    assert code in (0, None)
    block = out[out.index("ready to paste:") :].split("\n", 1)[1]
    assert block.startswith("start: {at: ")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        before = load_circuit(spec)
        spec.write_text(spec.read_text() + block)
        after = load_circuit(spec)
    assert after.spec.start.at == before.spec.start.at
    assert len(after.corners) == len(before.corners) == 2
    for a, b in zip(after.corners, before.corners, strict=True):
        assert abs(a.s_start - b.s_start) < after.unit_length and abs(a.s_end - b.s_end) < after.unit_length
