"""MotoX courses: the shipped samples pass the building rules, each broken rule has its own message naming the
tile and the fix, malformed files are located errors (exit 2), random courses are legal and repeatable, the
diagram shows what it should at the scale it states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.errors import InputError
from generator.games.motox import facts
from generator.games.motox.builder import course_yaml, deal_course
from generator.games.motox.checks import check, check_course, jump_traps, landing_numbers
from generator.games.motox.course import load_course
from generator.games.motox.diagram import course_page, preferred_paper
from generator.games.motox.pack import sample_courses
from generator.games.motox.schema import schema_text
from generator.paper import PageSpec
from generator.scene import Polyline, Text, walk

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, data: dict, name: str = "course.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None), encoding="utf-8")
    return path


def sample(name: str) -> dict:
    return yaml.safe_load((ROOT / "templates" / "motox" / "courses" / name).read_text(encoding="utf-8"))


def run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as ex:
        main(args)
    return ex.value.code


# -- the samples ---------------------------------------------------------------------------------------------


def test_three_samples_ship_and_pass_the_checker():
    paths = sample_courses()
    assert len(paths) >= 3
    players = set()
    for path in paths:
        course, problems = check(path)
        assert problems == [], (path.name, [str(p) for p in problems])
        assert jump_traps(course) == [], (path.name, [str(p) for p in jump_traps(course)])  # issue 42
        assert course.n == facts.tile_count() and course.coins_used() == facts.building_coins()
        players.add(course.players)
    assert 3 in players and 4 in players
    assert any(max(r for r in load_course(p).ramps.values()) == facts.max_ramp() for p in paths)  # big jumps


def test_check_command_exit_codes(tmp_path, capsys):
    good = sample_courses()[0]
    assert run(["motox", "check", str(good)]) == 0
    assert "OK: a legal MotoX course" in capsys.readouterr().out
    data = sample("twisty.yaml")
    data["ramps"][0]["height"] = 4
    assert run(["motox", "check", str(write(tmp_path, data))]) == 3
    out = capsys.readouterr().out
    assert "course.yaml:" in out and "at most 3 high" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nplayers: 4\npath: [start, strait]\n", encoding="utf-8")
    assert run(["motox", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:3: field 'path[1]': unknown move 'strait'" in err and "Traceback" not in err
    assert run(["motox", "check", str(good), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["legal"] and answer["tiles"] == 24 and answer["coins"] == 12
    assert run(["motox", "check", str(bad), "--json"]) == 2
    answer = json.loads(capsys.readouterr().out)
    assert not answer["legal"] and answer["problems"][0]["line"] == 3


# -- each broken rule, its own message -------------------------------------------------------------------------


def grid_course(**changes) -> dict:
    """Big Jumps (a grid-form course) with ``changes`` applied."""
    data = sample("big-jumps.yaml")
    data.update(changes)
    return data


def problems_of(tmp_path, data) -> list:
    _, problems = check(write(tmp_path, data))
    return problems


def test_a_tile_not_next_to_the_last(tmp_path):
    data = grid_course()
    data["tiles"][23] = [7, 6]  # tile 24 two tiles away from tile 23 at [4, 6]
    (p,) = problems_of(tmp_path, data)
    assert p.kind == "adjacent" and p.tile == 24
    assert p.message == (
        "tile 24 at [7, 6] is not next to tile 23, the last tile played: it must share a whole edge with it"
    )
    assert p.hint == "put it at [5, 6] or [4, 7]"  # [4, 5] would touch tile 15
    lines = (tmp_path / "course.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[p.line - 1] == "- [7, 6]"


def test_a_tile_touching_two_others(tmp_path):
    data = grid_course()
    # Tile 19 tucked in beside tile 17 and 18: it meets tile 17's edge too.
    data["tiles"][18:] = [[2, 5], [2, 6], [3, 6], [4, 6], [5, 6], [6, 6]]
    problems = problems_of(tmp_path, data)
    touch = [p for p in problems if p.kind == "touch"]
    assert touch and touch[0].tile == 19
    assert touch[0].message.startswith("tile 19 at [2, 5] touches tile 17 as well as tile 18")
    assert "corners may meet" in touch[0].message


def test_corners_may_meet(tmp_path):
    """Paddock's reading: a staircase (each tile corner to corner with the one two back) is legal."""
    from generator.games.motox.course import Course

    stairs = [(i // 2 + i % 2, i // 2) for i in range(24)]
    course = Course("stairs", [(float(x), float(y)) for x, y in stairs], {}, 4)
    assert not [p for p in check_course(course) if p.kind in ("touch", "adjacent", "offset")]


def test_a_half_offset_tile(tmp_path):
    data = grid_course()
    data["tiles"][4] = [4, 0.5]  # tile 5 half a tile (one space) below the line of tile 4
    problems = problems_of(tmp_path, data)
    offset = [p for p in problems if p.kind == "offset"]
    assert offset and offset[0].tile == 5
    assert offset[0].message == (
        "tile 5 at [4, 0.5] is half a tile off tile 4: its two edge spaces do not line up with those of tile 4"
    )
    assert offset[0].hint == "slide it to [4, 0]"


def test_a_ramp_on_a_turning_tile(tmp_path):
    data = grid_course()
    data["ramps"][1] = {"tile": 8, "height": 3}  # tile 8 is the corner of the first straight
    (p,) = problems_of(tmp_path, data)
    assert p.kind == "ramp-turn" and p.tile == 8
    assert p.message.startswith("the ramp is on tile 8, where the track turns right")
    assert p.hint.startswith("move it to a straight tile (such as tile")


def test_a_ramp_of_four(tmp_path):
    data = grid_course()
    data["ramps"] = [
        {"tile": 3, "height": 4},
        {"tile": 6, "height": 3},
        {"tile": 15, "height": 3},
        {"tile": 22, "height": 2},
    ]
    (p,) = problems_of(tmp_path, data)
    assert p.kind == "ramp-height" and p.tile == 3
    assert p.message == "the ramp on tile 3 is 4 coins high; a jump ramp may be at most 3 high"
    assert p.hint.startswith("move 1 coin to another straight tile")


def test_coins_left_over(tmp_path):
    data = grid_course()
    data["ramps"] = data["ramps"][:3]
    (p,) = problems_of(tmp_path, data)
    assert p.kind == "coins"
    assert p.message == "coins left over: the ramps use 9 of the 12 coins dealt for building"
    assert p.hint.startswith("add 3 coins to ramps on straight tiles")


def test_more_rules(tmp_path):
    """Too few tiles, the wrong raised edge, a ramp on the start tile, a course too crooked for its coins."""
    data = grid_course()
    data["ramps"][0] = {"tile": 3, "height": 3, "edge": "west"}
    (p,) = problems_of(tmp_path, data)
    assert p.kind == "ramp-edge" and "lift the east edge" in p.hint
    data = grid_course(tiles=grid_course()["tiles"][:20], ramps=[{"tile": 1, "height": 3}])
    kinds = {p.kind for p in problems_of(tmp_path, data)}
    assert {"count", "ramp-end", "coins"} <= kinds
    stairs = [[i // 2 + i % 2, i // 2] for i in range(24)]
    kinds = {p.kind for p in problems_of(tmp_path, grid_course(tiles=stairs, ramps=[]))}
    assert "room" in kinds


# -- malformed files: exit 2, located --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("name: X\nplayers: 5\npath: [start]\n", r"course.yaml:2: field 'players': MotoX is for 3–4 players, not 5"),
        ("name: X\nplayers: 4\npath: [start]\ntiles: [[0, 0]]\n", r"give the tiles once"),
        ("name: X\nplayers: 4\npath: [straight, start]\n", r"begins with 'start'"),
        ("name: X\nplayers: 4\ntiles: [[0, 0], [1, 0.3]]\n", r"whole or half tiles"),
        ("name: X\nplayers: 4\npath: [start, left 2]\n", r"only straight takes a count"),
        (
            "name: X\nplayers: 4\npath: [start]\nramps: [{tile: 2, hight: 3}]\n",
            r"course.yaml:4: field 'ramps\[0\]\.hight': unknown field",
        ),
        ("name: X\nplayers: [Ann, ann, Bo]\npath: [start]\n", r"listed twice"),
        ("- just a list\n", r"a mapping of fields"),
        ("name: X\nplayers: 4\npath: [start\n", r"YAML syntax"),
    ],
)
def test_malformed_specs_are_input_errors(tmp_path, text, match):
    path = tmp_path / "course.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match) as err:
        load_course(path)
    assert err.value.exit_code == 2


def test_schema_is_current():
    shipped = (ROOT / "templates" / "motox" / "course.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(), "run: python -m generator.games.motox.schema"


# -- random courses ---------------------------------------------------------------------------------------------


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(min_value=3, max_value=4))
def test_any_seed_deals_a_legal_course(seed, players):
    built = deal_course(players, seed)
    assert check_course(built.course) == []
    assert built.course.n == facts.tile_count()
    assert built.course.coins_used() == facts.building_coins()
    assert max(built.course.ramps.values()) <= facts.max_ramp()
    assert jump_traps(built.course) == []  # careful builders leave no ramp that cannot be landed before a turn


def test_course_command_writes_a_legal_repeatable_spec(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert run(["motox", "course", "--players", "3", "--seed", "11", "--out", str(a), "-q"]) == 0
    assert run(["motox", "course", "--players", "3", "--seed", "11", "--out", str(b), "-q"]) == 0
    assert a.read_bytes() == b.read_bytes()
    course, problems = check(a)
    assert problems == [] and course.players == 3 and course.seed == 11
    text = a.read_text(encoding="utf-8")
    # The turn-by-turn record: 24 tiles and 12 coins, turns passing round the table.
    turns = [line for line in text.splitlines() if line.startswith("#   ")]
    assert len(turns) == facts.tile_count() + facts.building_coins()
    assert run(["motox", "course", "--players", "5", "--seed", "1", "--out", str(a), "-q"]) == 2


def test_the_builder_takes_turns_like_players():
    built = deal_course(4, 3)
    players = [int(line.split("player ")[1].split(":")[0]) for line in built.log]
    start = built.starter + 1
    assert players[0] == start and "start tile" in built.log[0]
    assert players[:8] == [(start - 1 + i) % 4 + 1 for i in range(8)]
    assert course_yaml(built, "x") == course_yaml(deal_course(4, 3), "x")


# -- the diagram -------------------------------------------------------------------------------------------------


def test_diagram_shows_tiles_start_finish_ramps_at_its_stated_scale():
    course = load_course(ROOT / "templates" / "motox" / "courses" / "big-jumps.yaml")
    page = course_page(course, PageSpec(preferred_paper(course)))
    texts = [t.text for t in walk(page.items()) if isinstance(t, Text)]
    assert {str(i) for i in range(1, 25)} <= set(texts)
    assert "START" in texts and "FINISH" in texts
    assert texts.count("3") >= 1 + len(course.ramps)  # tile 3 and a "3" on every ramp of this course
    scale = next(t for t in texts if t.startswith("Drawn at"))
    k = float(scale.split("1:")[1].split(",")[0])
    assert "not true scale" in scale
    # Every tile outline measures 50.8 / k mm.
    side = 50.8 / k
    outlines = [i for i in page.layers["grid"].items if isinstance(i, Polyline) and i.closed]
    assert len(outlines) == 24
    for o in outlines:
        xs = [p[0] for p in o.points]
        assert abs(max(xs) - min(xs) - side) < 0.01
    counts = next(t for t in texts if t.startswith("24 tiles"))
    assert "4 ramps (12 coins)" in counts
    # The finish line lies on the last tile's far edge: tile 24 runs east, so a chequer on its east edge.
    assert course.finish_edge() == "east"


def test_draw_command_writes_the_diagram(tmp_path, capsys):
    path = sample_courses()[0]
    assert run(["motox", "draw", str(path), "-o", str(tmp_path), "-f", "pdf", "-q"]) == 0
    assert (tmp_path / "motox" / f"course-{path.stem}.pdf").is_file()


# -- budgets and hostile numbers (issue 28) ------------------------------------------------------------------


def test_ten_thousand_tile_positions_are_refused_with_the_limit(tmp_path, capsys):
    """10,000 positions took `motox check` over 120 s and printed thousands of lines: refused at once, naming
    the limit and the count, on the line where the budget runs out."""
    from generator.games.motox.course import MAX_TILES

    snake = [[x if y % 2 == 0 else 99 - x, y] for y in range(100) for x in range(100)]
    path = write(tmp_path, {"name": "Big", "players": 4, "tiles": snake})
    for args in (["motox", "check", str(path)], ["motox", "draw", str(path), "-o", str(tmp_path), "-q"]):
        assert run(args) == 2
        err = capsys.readouterr().err
        assert f"10,000 tiles; Paddock checks at most {MAX_TILES}" in err
        assert f"{path}:{MAX_TILES + 4}:" in err and "Traceback" not in err
    long_path = write(tmp_path, {"name": "Long", "players": 4, "path": ["start"] + ["straight 24"] * 500}, "p.yaml")
    assert run(["motox", "check", str(long_path)]) == 2
    assert f"more than {MAX_TILES} tiles by entry 10" in capsys.readouterr().err


def test_a_course_within_the_budget_is_still_checked(tmp_path, capsys):
    from generator.games.motox.course import MAX_TILES

    snake = [[x if y % 2 == 0 else 9 - x, y] for y in range(MAX_TILES // 10) for x in range(10)]
    path = write(tmp_path, {"name": "Snake", "players": 4, "tiles": snake})
    assert run(["motox", "check", str(path)]) == 3
    assert f"the course has {MAX_TILES} tiles; every one of the 24" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["1e308", "1.0e308", ".inf", "-.inf", ".nan", "1e999"])
@pytest.mark.parametrize("command", ["check", "draw", "pack"])
def test_a_tile_at_a_huge_or_infinite_or_nan_position_is_a_located_error(tmp_path, capsys, value, command):
    """Once OverflowError ("cannot convert float infinity to integer") or Python's own words: now one line naming
    the file, the line and the field."""
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: Bad\nplayers: 4\ntiles:\n  - [0, 0]\n  - [{value}, 0]\n", encoding="utf-8")
    args = {
        "check": ["motox", "check", str(path)],
        "draw": ["motox", "draw", str(path), "-o", str(tmp_path / "out"), "-q"],
        "pack": ["pack", "motox", "--course", str(path), "-o", str(tmp_path / "out"), "-q"],
    }[command]
    assert run(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"paddock: error: {path}:5: field 'tiles[1]': tile 2 at [")
    assert "whole or half tiles" in err and len(err.splitlines()) == 1
    assert "Overflow" not in err and "convert" not in err
    assert not (tmp_path / "out").exists()


# -- jump traps (issue 42) ----------------------------------------------------------------------------------------


def trap_course(tmp_path: Path) -> Path:
    """Twisty as it shipped before: ramps of 2 on tiles 4 and 17, each one tile before a turn."""
    data = sample("twisty.yaml")
    data["ramps"] = [r for r in data["ramps"] if r["tile"] != 20]
    for r in data["ramps"]:
        if r["tile"] in (4, 17):
            r["height"] = 2
    return write(tmp_path, data)


def test_a_ramp_right_before_a_turn_is_a_jump_trap(tmp_path):
    """From the front row of a ramp of 2 one tile before a turn, 3 or more crosses the edge and, flying straight
    on, lands past the turning tile: off the track. A ramp of 1 there, or of 2 with two tiles after it, lands."""
    course, problems = check(trap_course(tmp_path))
    assert problems == []
    traps = jump_traps(course)
    assert [p.tile for p in traps] == [4, 17]
    assert all(p.kind == "jump-trap" and p.numbers == {"height": 2, "run": 2, "turn_tile": p.tile + 1} for p in traps)
    assert "lower it to 1 coin" in traps[0].hint and "such as tile 20" in traps[0].hint
    assert landing_numbers(course, 4, 2) == [] and landing_numbers(course, 4, 1) == [2]
    assert landing_numbers(course, 11, 2) == [3, 4]  # two tiles in line past it: 4 spaces to land in
    assert landing_numbers(course, 23, 3) == [4, 5]  # past the finish tile: any flight over the line wins


def test_check_warns_of_jump_traps_and_still_passes_the_course(tmp_path, capsys):
    path = trap_course(tmp_path)
    assert run(["motox", "check", str(path)]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "warning: jump trap" in line]
    assert len(lines) == 2 and "OK: a legal MotoX course" in out
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "tile: 4," in t)
    assert f"{path}:{line}: warning: jump trap on tile 4" in lines[0]
    assert run(["motox", "check", "--json", str(path)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["legal"] is True and [w["tile"] for w in answer["warnings"]] == [4, 17]
    assert all(w["kind"] == "jump-trap" and w["line"] for w in answer["warnings"])


def test_an_unknown_course_field_names_the_fields_not_the_readme(tmp_path, capsys):
    data = sample("twisty.yaml") | {"laps": 2}
    assert run(["motox", "check", str(write(tmp_path, data))]) == 2
    err = capsys.readouterr().err
    assert "README" not in err and "field 'laps': unknown field" in err
    assert "name, players, heading, path, tiles, ramps, seed, notes" in err and "docs/motox.md" in err


def test_players_help_says_what_is_accepted(capsys):
    lo, hi = facts.player_range()
    for args in (["pack", "motox", "--help"], ["motox", "course", "--help"]):
        assert run(args) == 0
        help_text = " ".join(capsys.readouterr().out.split())
        assert f"Riders: {lo} or {hi} (MotoX is for {lo}–{hi} players)." in help_text
        assert "1<=x<=9" not in help_text
    for n in (lo - 1, hi + 1):
        assert run(["motox", "course", "--players", str(n), "-o", str(Path("/nonexistent") / "x.yaml")]) == 2
        assert f"MotoX is for {lo}–{hi} players, not {n}" in capsys.readouterr().err
