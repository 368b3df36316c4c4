"""The Formula D kit: WP builds and their messages, scorecard boxes, the pack's text against the rulebook."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import pdf_pages, pdf_text

from generator.errors import InputError
from generator.games.formula_d import builds, facts
from generator.games.formula_d.scorecard import LAYER_BOXES, PAPER, scorecard_pages
from generator.paper import PageSettings, PageSpec
from generator.pipeline import Output
from generator.scene import Polyline, walk

RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rules" / "formula-d.txt"
FIXTURES = Path(__file__).parent / "formula_d"
NAMES = ["Ann", "Béla", "Csaba", "Őrs Szűcs", "Łukasz"]


def rulebook() -> str:
    if not RULEBOOK.is_file():
        pytest.skip("the shared rulebooks are not beside the project")
    return RULEBOOK.read_text(encoding="utf-8")


def rulebook_table(header: str, pattern: str, stop: str) -> list[tuple[str, ...]]:
    """Rows matching ``pattern`` between the line starting with ``header`` and the next line containing ``stop``."""
    text = rulebook()
    start = text.index(header)
    end = text.index(stop, start + len(header))
    return [m.groups() for m in re.finditer(pattern, text[start:end], re.M)]


# --- wear-point builds ----------------------------------------------------------------------------------------


def test_standard_build_is_the_rulebooks():
    rows = rulebook_table("WP tires:\t6", r"^N?WP ([a-z ]+):\t(\d+)$", "Preparation")
    keys = {"tires": "tires", "brakes": "brakes", "gearbox": "gearbox", "car body": "car_body",
            "engine": "engine", "road handling": "road_handling"}  # fmt: skip
    assert {keys[k]: int(v) for k, v in rows} == facts.standard_build()


def test_custom_ranges_are_the_rulebooks():
    rows = rulebook_table("Construction of one", r"^[NW]P ([a-z ]+):\tbetween (\d+) and (\d+)", "Qualifying")
    assert [(int(lo), int(hi)) for _, lo, hi in rows] == [facts.wp_ranges()[k] for k in facts.zone_keys()]


def test_a_legal_custom_build_passes():
    builds.check_build(builds.parse_wp("tires=8,brakes=3,gearbox=2,body=2,engine=3,handling=2"))


@pytest.mark.parametrize(
    ("wp", "message"),
    [
        ("tires=15,brakes=1,gearbox=1,body=1,engine=1,handling=1", "tires has 15 WP, 1 over the most allowed (14)"),
        ("tires=6,brakes=9,gearbox=1,body=1,engine=1,handling=2", "brakes has 9 WP, 2 over the most allowed (7)"),
        ("tires=10,brakes=3,gearbox=0,body=3,engine=2,handling=2", "gearbox has 0 WP, 1 under the least allowed (1)"),
        ("tires=8,brakes=3,gearbox=3,body=3,engine=3,handling=2", "adds up to 22 WP, 2 more than the 20 to share"),
        ("tires=6,brakes=3,gearbox=3,body=3,engine=2,handling=1", "adds up to 18 WP, 2 fewer than the 20 to share"),
        ("tires=8,brakes=3,gearbox=3", "gives no WP for car body, engine, road handling"),
    ],
)
def test_bad_builds_say_which_zone_and_by_how_much(wp, message):
    with pytest.raises(InputError) as err:
        builds.check_build(builds.parse_wp(wp), "--wp")
    assert message in str(err.value)
    assert err.value.exit_code == 2


def test_wp_option_typos_are_named():
    with pytest.raises(InputError, match="cannot read 'wings=3'"):
        builds.parse_wp("tires=8,wings=3")
    with pytest.raises(InputError, match="'three' is not a whole number"):
        builds.parse_wp("tires=three")


def test_players_file_error_names_file_line_and_field():
    path = FIXTURES / "bad_range.yaml"
    with pytest.raises(InputError) as err:
        builds.load_players_file(path)
    text = str(err.value)
    assert text.startswith(f"{path}:4: field 'players[1].wp'")
    assert "brakes has 9 WP, 2 over the most allowed (7)" in text


def test_players_file_unknown_zone_and_colour(tmp_path):
    bad = tmp_path / "p.yaml"
    bad.write_text("players:\n  - name: Ann\n    wp: {tires: 8, wings: 2}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"p.yaml:3: field 'players\[0\].wp': unknown zone 'wings'"):
        builds.load_players_file(bad)
    bad.write_text("players:\n  - name: Ann\n  - name: Bob\n    colour: teal\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"p.yaml:4: field 'players\[1\].colour': unknown car colour 'teal'"):
        builds.load_players_file(bad)


# --- GT drivers ------------------------------------------------------------------------------------------------


def test_gt_values_printed_are_clean_digits_of_the_rulebook():
    """Every GT value Paddock prints is a clean digit in the rulebook's row for that driver; nothing invented."""
    text = rulebook()
    drivers = facts.gt_drivers()
    assert len(drivers) == 10
    for d in drivers:
        known = {k: v for k, v in d.wp.items() if v is not None}
        if not known:
            continue
        cells = d.ocr
        assert "\t".join(cells) in text.replace("\t\t", "\t"), d.id
        for i, key in enumerate(facts.zone_keys()):
            if d.wp[key] is not None:
                assert cells[i] == str(d.wp[key]), (d.id, key)
            else:
                assert not re.fullmatch(r"\d", cells[i]), (d.id, key, "a clean digit left unprinted")


def test_gt_unknown_values_become_write_ins_and_players_can_supply_them():
    setup = builds.load_players_file(FIXTURES / "gt.yaml")
    manson, skid = setup.players
    assert manson.build == {"tires": 9, "brakes": 4, "gearbox": 2, "car_body": 4, "engine": 3, "road_handling": 2}
    assert manson.notes == []
    assert skid.build["engine"] == 3 and skid.driver_name == "Mystery Man"
    plain = builds.players_from_names(["A", "B", "C"], gt=True)
    assert plain[2].build["brakes"] is None
    assert "brakes, engine, road handling WP not legible" in plain[2].notes[0]


# --- scorecards ---------------------------------------------------------------------------------------------


def boxes_per_zone(page) -> list[list[int]]:
    """Box counts per zone row, per card: boxes grouped by card (x, then y) and row (y)."""
    cards: dict[tuple[int, int], dict[float, int]] = defaultdict(lambda: defaultdict(int))
    for item in walk(page.layer(LAYER_BOXES).items):
        assert isinstance(item, Polyline) and item.closed and len(item.points) == 4
        (x0, y0), _, (x1, y1), _ = item.points
        assert x1 - x0 == pytest.approx(y1 - y0)  # square
        assert x1 - x0 >= 4.0  # big enough to cross off
        cards[(int(x0 // 100), int(y0 // 140))][round(y0, 3)] += 1
    return [[rows[y] for y in sorted(rows)] for _, rows in sorted(cards.items(), key=lambda kv: (kv[0][1], kv[0][0]))]


def test_scorecard_boxes_per_zone_equal_the_build():
    players = builds.players_from_names(["Ann", "Béla"]) + builds.load_players_file(FIXTURES / "players.yaml").players
    pages = scorecard_pages(players, PageSpec(PAPER), weather=True, tyres=True)
    counts = [c for page in pages for c in boxes_per_zone(page)]
    assert counts == [[p.build[k] for k in facts.zone_keys()] for p in players]
    assert counts[0] == [6, 3, 3, 3, 3, 2]
    assert counts[2] == [8, 3, 2, 2, 3, 2]


def test_scorecard_content_stays_inside_the_content_box():
    players = builds.players_from_names(NAMES, gt=True)
    for page in scorecard_pages(players, PageSpec(PAPER), weather=True, tyres=True):
        x, y, w, h = page.content_box
        for item in walk(page.items()):
            pts = getattr(item, "points", None) or getattr(item, "exterior", None) or ()
            for px, py in pts:
                assert x - 1e-6 <= px <= x + w + 1e-6 and y - 1e-6 <= py <= y + h + 1e-6


# --- the pack -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    from generator.games.formula_d import pack as formula_d
    from generator.pipeline import publish

    out = tmp_path_factory.mktemp("fd")
    settings, output = PageSettings(), Output(out=out, formats=("pdf",), quiet=True)
    sheets = formula_d.build(settings, players=",".join(NAMES), weather=True, tyres=True)
    publish(sheets, output, settings, folder="formula-d", merged="formula-d-print")
    return out / "formula-d" / "formula-d-print.pdf"


def texts(path: Path) -> list[str]:
    """The pack's text from PDFium and, where installed, from poppler's pdftotext (layout mode keeps rows)."""
    out = [pdf_text(path)]
    exe = shutil.which("pdftotext")
    if exe:
        out.append(subprocess.run([exe, "-layout", "-enc", "UTF-8", str(path), "-"], check=True,
                                  capture_output=True).stdout.decode())  # fmt: skip
    return out


def has_row(text: str, *cells: object) -> bool:
    pattern = r"(?:^|\s)" + r"\s+".join(re.escape(str(c)) for c in cells) + r"(?:\s|$)"
    return re.search(pattern, text, re.M) is not None


def test_gear_ranges_read_back_equal_the_rulebooks(pack):
    rows = rulebook_table("Gear\tDie\tMovement", r"^(\d)\t[^\t]*\t(\d+) to (\d+)$", "Note:")
    assert len(rows) == 6
    assert [(int(g), int(a), int(b)) for g, a, b in rows] == [(g.gear, g.min, g.max)
                                                              for g in facts.rules().gears]  # fmt: skip
    for text in texts(pack):
        for g, lo, hi in rows:
            assert has_row(text, g, f"{lo}–{hi}"), (g, lo, hi)


def test_blocked_and_downshift_tables_read_back_equal_the_rulebooks(pack):
    blocked = rulebook_table("Spaces remaining\tBrake WP", r"^(\d)\t(\d)\t(\d)$", "If a car doesn't")
    assert len(blocked) == 6
    downshift = rulebook_table("Gears skipped\tGearbox WP", r"^(\d) gears?\t(\d)\t(\d)\t?(\d?)$", "If a car has")
    assert len(downshift) == 3
    for text in texts(pack):
        for row in blocked:
            assert has_row(text, *row), row
        assert has_row(text, 7, "The car is out of the race.")
        for g, *wear in downshift:
            # the reference card prints "3 1 1" and a write-in box where the rulebook's engine value is missing
            assert has_row(text, g, *[w for w in wear if w]), (g, wear)
            assert has_row(text, f"{g} gear" + ("s" if g != "1" else ""), *[w for w in wear if w])


def test_team_points_read_back_equal_the_rulebooks(pack):
    rows = rulebook_table("Ranking\tNo. of points", r"^(\d+)(?: and (\d+))?\t[. ]*(\d+)$", "ROAD RACES")
    points: dict[int, int] = {}
    for a, b, p in rows:
        for place in filter(None, (a, b)):
            points[int(place)] = int(p)
    assert list(points.values()) == list(facts.rules().team_points) == [10, 8, 6, 5, 4, 3, 2, 1, 0, 0]
    for text in texts(pack):
        assert has_row(text, "Place", *points.keys())
        assert has_row(text, "Points", *points.values())


def test_black_die_rolls_read_back(pack):
    r = facts.rules().rolls
    for text in texts(pack):
        assert has_row(text, "Collision", "car body", facts.span(*r.collision.good), "1–2")
        assert has_row(text, "Engine", "engine", "1–4", "1–3")
        assert has_row(text, "Damage marker", "road handling", "1–4", "1–5")


def test_every_players_name_reads_back_from_the_pack(pack):
    for text in texts(pack):
        for name in NAMES:
            # one scorecard and one dashboard each
            assert text.count(name) >= 2, name


def test_pages_are_their_paper(pack):
    """The board first (A1, the full-size default circuit's paper), then A4 cards: each page exactly its paper size."""
    doc = pdf_pages(pack)
    sizes = [tuple(round(v / 72 * 25.4, 1) for v in doc[i].get_size()) for i in range(len(doc))]
    assert sorted(sizes[0]) == [594.0, 841.0]
    assert set(sizes[1:]) == {(210.0, 297.0)}


def test_pack_is_byte_identical(tmp_path):
    """Same input, same bytes (its speed is measured in benchmarks/bench_spine.py, not asserted here)."""
    from generator.games.formula_d import pack as formula_d
    from generator.pipeline import publish

    blobs = []
    for run in range(2):
        settings, output = PageSettings(), Output(out=tmp_path / str(run), formats=("pdf", "svg"), quiet=True)
        sheets = formula_d.build(settings, players_file=FIXTURES / "players.yaml")
        written = publish(sheets, output, settings, folder="formula-d", merged="formula-d-print")
        blobs.append({p.name: p.read_bytes() for p in written})
    assert blobs[0] == blobs[1]


def test_cli_errors_exit_2_without_traceback(tmp_path, capsys):
    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        wp = "tires=15,brakes=1,gearbox=1,body=1,engine=1,handling=1"
        main(["pack", "formula-d", "--players", "Ann,Bob", "--wp", wp, "-o", str(tmp_path)])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "tires has 15 WP, 1 over the most allowed (14)" in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())


def test_cards_hold_the_rules_a_first_game_needs(tmp_path):
    """The race length, start formation, order of play, driving code, qualifying lap and the brake write-in."""
    from generator.games.formula_d.reference import PAPER, reference_pages
    from generator.scene import Text, walk

    r = facts.rules()
    pages = reference_pages(PageSpec(PAPER), road_race=True)
    text = " ".join(i.text for p in pages for i in walk(p.items()) if isinstance(i, Text))
    assert f"The race is {facts.game().laps} laps" in text
    for phrase in ("Start formation", "Order of play", "Driving code", "Qualifying lap (optional)", "never above"):
        assert phrase in text
    assert "Brake WP per space not moved" in text and r.braking.brake_wp_per_space is None


def test_gt_without_weather_leaves_marcellin_out():
    with_weather = [p.driver.id for p in builds.players_from_names(["A", "B", "C"], gt=True, weather=True)]
    without = [p.driver.id for p in builds.players_from_names(["A", "B", "C"], gt=True, weather=False)]
    assert "marcellin" in with_weather and "marcellin" not in without


def test_the_race_card_offers_pit_stops_only_where_the_board_has_a_pit_lane():
    """A real circuit (no pit lane) and a road race (no pits used) offer the three-lap race without pit stops; a
    board with a pit lane offers it with the rulebook's two."""
    from generator.games.formula_d.reference import PAPER, reference_pages
    from generator.scene import Text, walk

    def text(**kw) -> str:
        return " ".join(
            i.text for p in reference_pages(PageSpec(PAPER), **kw) for i in walk(p.items()) if isinstance(i, Text)
        )

    stops = facts.rules().pit_stop.three_lap_race_stops
    assert f"laps with up to {stops} pit stops" in text()
    for kw in ({"pits": False, "laps": 1}, {"road_race": True}):
        got = text(**kw)
        assert "pit stops)" not in got and f"(optional rule: {facts.game().three_lap_race} laps)" in got
