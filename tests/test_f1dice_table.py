"""What players got stuck on at the table with the f1-dice pack (issue 42), each point read back from the PDFs or
measured: lap counting, the action roll's move near other cars, the race length and field size ranges, team names
that fit what prints them, a teams file's problems listed at once, the plain die, teams without a quick-race group,
the driver's name on the race sheet, "1 garage", a small field's summary — and a scripted race played from the
facts the sheets print, which fails on a situation the sheets do not settle (:mod:`f1dice_referee`)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import pdf_text, pdftotext
from f1dice_referee import race as play
from f1dice_referee import read_facts, uncovered

from generator.cli import main
from generator.errors import InputError
from generator.games.f1_dice import facts as f1
from generator.teams import load_field, parse_field


def _text(path: Path) -> str:
    return pdftotext(path) or pdf_text(path)


def _layout(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True).stdout.decode()


def _pack(folder: Path, *args: str) -> Path:
    with pytest.raises(SystemExit) as done:
        main(["pack", "f1-dice", "--out", str(folder), "-q", "--format", "pdf", *args])
    assert done.value.code == 0
    return folder / "f1-dice"


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> Path:
    """The default pack: the 2011 field (24 cars) on the default board, 3 laps."""
    return _pack(tmp_path_factory.mktemp("full"))


TWO = """name: Two cars
game: f1-dice
teams:
  - name: Solo
    colours: {primary: "#c00000"}
    tier: front
    drivers:
      - {name: Zoë Ñúñez Castellanos, number: 7}
      - {name: Ann Other}
  - name: Rivals
    colours: {primary: "#0000c0"}
    qualifying: {q1: 1, q2: 0, q3: 0}
    drivers:
      - {name: Bea Rival}
"""


@pytest.fixture(scope="module")
def sprint(tmp_path_factory) -> Path:
    """A sprint (--laps 1) of the first 2 cars of a small league whose teams file gives one team no modifiers and
    the other no tier."""
    folder = tmp_path_factory.mktemp("sprint")
    teams = folder / "two.yaml"
    teams.write_text(TWO, encoding="utf-8")
    return _pack(folder, "--teams", str(teams), "--laps", "1", "--cars", "2")


# -- the scripted race -----------------------------------------------------------------------------------------


def _sheets(pack: Path) -> dict[str, str]:
    summary = " ".join(_text(p) for p in sorted(pack.glob("rules-*.pdf")))
    return {"race": _text(pack / "race-sheet.pdf"), "card": _text(pack / "race-reference.pdf"), "summary": summary}


@pytest.mark.parametrize("which", ["full", "sprint"])
def test_a_scripted_race_meets_nothing_the_sheets_leave_open(which, request):
    """Seeded races played from what the sheets print: every situation met is settled on the sheet the table reads
    it from, and a finisher crosses the line once more than the race has laps — the start and each lap — as the
    race sheet's lap counter has boxes (S and a box a lap). Over the full field's races the action roll's move
    meets a side-by-side pair and a full unit (about four times a race at the table)."""
    pack = request.getfixturevalue(which)
    texts = _sheets(pack)
    facts = read_facts(texts["race"], _layout(pack / "race-reference.pdf"), _text(pack / "monte-carlo.pdf"))
    assert facts.laps == (3 if which == "full" else 1)
    seen = {}
    for seed in range(8 if which == "full" else 20):
        met, crossings, finished = play(facts, seed)
        assert not uncovered(met, texts), (seed, uncovered(met, texts))
        assert all(n == facts.laps + 1 for n in crossings.values()), crossings
        for k, v in met.items():
            seen[k] = seen.get(k, 0) + v
    assert re.search(r"\bS\b", texts["race"]) and "Laps" in texts["race"]
    if which == "full":
        for must in (
            "action forward past a pair",
            "action back onto a full unit",
            "move past a pair",
            "action square blocked",
            "dropped back behind a car yet to roll",
            "lap crossing",
        ):
            assert seen.get(must), (must, seen)


def test_the_referee_fails_on_a_situation_no_sheet_settles(full):
    """The check bites: with the reading's words taken off the card, the same races fail."""
    texts = _sheets(full)
    facts = read_facts(texts["race"], _layout(full / "race-reference.pdf"), _text(full / "monte-carlo.pdf"))
    met, _, _ = play(facts, 0)
    bare = dict(texts, card=texts["card"].replace("Forward, it stops behind", "Forward it stops"))
    assert met["action forward past a pair"] and any("action forward past a pair" in u for u in uncovered(met, bare))


def test_the_lap_counter_has_the_start_box_and_a_box_a_lap(full):
    """Measured on the race sheet: a car's row holds S, a box per lap and the two 'out' boxes."""
    from generator.games.f1_dice import pack as f1_pack
    from generator.paper import PageSettings
    from generator.scene import bounds

    sheets = f1_pack.build(PageSettings(), laps=4)
    page = next(s.page for s in sheets if s.name.startswith("race-sheet"))
    boxes = [bounds([i]) for i in page.layers["boxes"].items]
    first = min(b[1] for b in boxes)
    assert len([b for b in boxes if abs(b[1] - first) < 0.01]) == 4 + 1 + 2
    text = " ".join(_text(full / "race-sheet.pdf").split())
    assert "The grid stands behind the line, so a car's first crossing is the start, not a lap" in text
    card = " ".join(_text(full / "race-reference.pdf").split())
    summary = " ".join(_sheets(full)["summary"].split())
    assert "that crossing is the start, not a lap" in card and "that crossing is the start, not a lap" in summary


# -- race length and field size --------------------------------------------------------------------------------


def test_a_sprint_of_one_lap_is_a_race_and_every_sheet_says_1_lap(sprint):
    texts = _sheets(sprint)
    assert "RACE: 1 LAP" in _text(sprint / "monte-carlo.pdf")
    assert "1 lap of" in texts["race"] and "1 lap of" in " ".join(texts["card"].split())
    assert "The race is 1 lap." in " ".join(texts["card"].split())
    assert not re.search(r"\b1 laps\b", " ".join(texts.values()))


def test_the_ranges_of_laps_and_cars_are_said_alike_everywhere(capsys):
    """--laps takes 1 to 30 and --cars 2 up: the help, the errors and the README say what race.yaml holds."""
    r = f1.facts().race
    assert (r.fewest_laps, r.max_laps, r.min_cars) == (1, 30, 2)
    with pytest.raises(SystemExit):
        main(["pack", "f1-dice", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"{r.fewest_laps} (a sprint) to {r.max_laps}" in help_text and f"({r.min_cars} or more)" in help_text
    for args, said in (
        (["--laps", "0"], f"give {r.fewest_laps} to {r.max_laps} laps"),
        (["--laps", "31"], f"give {r.fewest_laps} to {r.max_laps} laps"),
        (["--cars", "1"], f"--cars 1: the game is raced from {r.min_cars} cars up — give {r.min_cars} or more"),
        (["--cars", "0"], f"raced from {r.min_cars} cars up"),
    ):
        with pytest.raises(SystemExit) as code:
            main(["pack", "f1-dice", "--out", "/tmp/paddock-never", "-q", *args])
        assert code.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, err
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"any field from {r.min_cars} cars up" in readme


def test_a_teams_file_of_one_car_is_refused_naming_it(tmp_path, capsys):
    path = tmp_path / "one.yaml"
    path.write_text(TWO.split("  - name: Rivals")[0].replace("      - {name: Ann Other}\n", ""), encoding="utf-8")
    with pytest.raises(SystemExit) as code:
        main(["pack", "f1-dice", "--teams", str(path), "--out", str(tmp_path / "out"), "-q"])
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert str(path) in err and "1 car to race: the game is raced from 2 cars up" in err


# -- team names, the teams file ---------------------------------------------------------------------------------


def test_team_names_are_checked_against_what_the_sheets_hold():
    """The limits teams.checks applies are what the sheets print a team name in, measured: the slips' label, the
    qualifying sheet's Q1 team column and team-modifier table (A4 and letter, any number of sessions), and the
    standings' team column. A name past them is refused, the limit in the message."""
    from generator.games.f1_dice.qualifying import MOD_COL, Q1_FIXED, columns
    from generator.games.f1_dice.slips import label_width
    from generator.games.f1_dice.standings import TEAM_W
    from generator.paper import PageSettings, Paper, PaperChoice
    from generator.teams.checks import TEAM_LABEL_MM, TEAM_NAME_WIDTH_MM

    assert label_width() >= TEAM_LABEL_MM
    assert TEAM_W - 1 >= TEAM_NAME_WIDTH_MM
    for paper in ("a4", "letter"):
        spec = PageSettings(tile_onto=PaperChoice(paper)).text_page(Paper("a4", "landscape"))
        cw = spec.content_box[2] - 0.6
        for sessions in (1, 2, 3):
            q1, later, _ = columns(cw, sessions)
            assert q1 - Q1_FIXED >= TEAM_NAME_WIDTH_MM, (paper, sessions)
            if sessions > 1:
                assert later - 3 * MOD_COL - 2 >= TEAM_NAME_WIDTH_MM, (paper, sessions)
    fits = {"name": "Mercedes GP Petronas F1 Team", "colours": {"primary": "red"}, "drivers": [{"name": "A B"}]}
    assert parse_field({"teams": [fits]}, "t.yaml").teams[0].name == fits["name"]
    for name in ("Scuderia Internazionale Motori Milanese", "Abcdefghijklmnopqrstuvwxyz"):
        with pytest.raises(InputError) as err:
            parse_field({"teams": [dict(fits, name=name)]}, "t.yaml")
        said = str(err.value)
        assert "teams[0].name" in said and "too long to print" in said and re.search(r"\d+(\.\d)? mm", said), said


def test_a_drivers_name_too_long_is_refused_with_the_limit():
    """The "name too long" error gave no limit: it says the name's width and what the name columns hold."""
    from generator.teams.checks import NAME_WIDTH_MM

    driver = {"name": "Maximilian von Hohenzollern-Sigmaringen"}
    team = {"name": "T", "colours": {"primary": "red"}, "drivers": [driver]}
    with pytest.raises(InputError) as err:
        parse_field({"teams": [team]}, "t.yaml")
    said = str(err.value)
    assert "teams[0].drivers[0].name" in said and f"hold {NAME_WIDTH_MM:g} mm" in said
    assert re.search(r"it is \d+\.\d mm wide at 8 pt", said) and re.search(r"about \d+ characters", said), said


def test_every_problem_of_a_teams_file_is_listed_at_once(tmp_path, capsys):
    """As `paddock check` lists a circuit's: a first line, then each problem with its file line and field."""
    path = tmp_path / "league.yaml"
    path.write_text(
        """name: League
game: f1-dice
colour: red
teams:
  - name: Blue
    colours: {primary: "blurple"}
    tier: fast
    drivers:
      - {name: Cleo Dunn, numbr: 4}
      - {name: Anna Berg, number: 3}
  - name: Scuderia Internazionale Motori Milanese
    colours: {primary: red}
    drivers:
      - {name: Anna Berg}
""",
        encoding="utf-8",
    )
    with pytest.raises(SystemExit) as code:
        main(["pack", "f1-dice", "--teams", str(path), "--out", str(tmp_path / "out"), "-q"])
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert "4 problems:" in err, err
    for line, field in ((3, "colour"), (6, "teams[0].colours.primary"), (7, "teams[0].tier"),
                        (9, "teams[0].drivers[0].numbr")):  # fmt: skip
        assert f"{path}:{line}: field '{field}'" in err, err
    assert "Traceback" not in err
    # the schema right, what it cannot say is listed the same way
    fixed = path.read_text().replace("colour: red\n", "").replace("blurple", "blue").replace("fast", "front")
    path.write_text(fixed.replace("numbr", "number"), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_field(path)
    said = str(info.value)
    assert said.startswith(f"{path}: 2 problems:"), said
    assert f"{path}:10: field 'teams[1].name': the team name" in said  # a line up: 'colour' is gone
    assert f"{path}:13: field 'teams[1].drivers[0].name': the driver 'Anna Berg' is listed twice" in said


def test_a_team_with_no_modifiers_rolls_the_plain_die(sprint):
    """docs/f1-dice.md: a team of a `game: f1-dice` file without qualifying modifiers rolls d in every session."""
    field = load_field(sprint / ".." / "two.yaml")
    assert field.game == "f1-dice" and field.teams[0].qualifying is None
    assert f1.modifiers(field.teams[0]) == (0, 0, 0)
    qualifying = " ".join(_text(sprint / "qualifying.pdf").split())
    assert "Solo d d d" in qualifying
    doc = " ".join((Path(__file__).parents[1] / "docs" / "f1-dice.md").read_text(encoding="utf-8").split())
    assert "a team without them rolls the plain die (d) in every session" in doc


def test_a_team_without_a_group_is_listed_for_the_players_to_place(tmp_path):
    """A field that splits some teams into quick-race groups and not others: the card and the summary list the
    others under 'No group yet', and the pack says so naming the file."""
    import warnings

    from generator.games.f1_dice import pack as f1_pack
    from generator.paper import PageSettings

    path = tmp_path / "two.yaml"
    path.write_text(TWO, encoding="utf-8")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        sheets = f1_pack.build(PageSettings(), teams=path)
    said = " ".join(str(w.message) for w in seen)
    assert f"{path}: 'Rivals': no 'tier' for the quick race" in said
    from generator.scene import Text, walk

    def words(name: str) -> str:
        pages = [s.page for s in sheets if s.name.startswith(name)]
        return " ".join(t.text for p in pages for t in walk(p.items()) if isinstance(t, Text))

    assert "No group yet" in words("race-reference") and "Rivals" in words("race-reference")
    assert "No group yet" in words("rules") and "Rivals" in words("rules")


# -- the race sheet, the board, the summary ----------------------------------------------------------------------


def test_the_race_sheet_names_the_driver_beside_the_wing(sprint):
    """The wing's text alone ("ZÑC #7") told the table nothing: the driver's name stands beside it, on its row."""
    rows = _layout(sprint / "race-sheet.pdf").splitlines()
    assert any(re.search(r"ZÑC\s+Zoë Ñúñez Castellanos\s+ZÑC #7", row) for row in rows), rows[:14]


def test_one_garage_is_said_so(sprint):
    board = " ".join(_text(sprint / "monte-carlo.pdf").split())
    assert "1 garage" in board and "1 garages" not in board


def test_a_one_session_fields_summary_describes_that_session_only(sprint):
    summary = " ".join(_sheets(sprint)["summary"].split())
    assert f1.knockout(2).sessions[0].name == "Q1" and len(f1.knockout(2).sessions) == 1
    assert "Qualifying sets the starting grid (one session, Q1)" in summary
    assert "Q1 alone sets the whole grid" in summary
    assert "three sessions" not in summary and "settles the front" not in summary
