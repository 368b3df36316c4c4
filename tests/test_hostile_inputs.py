"""Hostile and careless input, second round (issue 28; readable errors from issue 32): every input bounded before
it is worked on, names checked where they are read (file, line, field), messages in the user's words, and
several problems listed the way ``paddock check`` lists them.

Each case of the issue has a test here that reproduces it. The cases whose time and memory are the point run as
a subprocess (``bounded``); the rest run in-process.
"""

from __future__ import annotations

import json
import re
import xml.dom.minidom
from pathlib import Path

import pytest
from test_hostile import LINE_MAX, RSS_BYTES, SPEC, bounded, listed, refused, run

ROOT = Path(__file__).parents[1]
TEAM = "  - name: {name}\n    colours: {{primary: red}}\n    drivers: [{drivers}]\n"


def teams_file(tmp_path: Path, *teams: tuple[str, str]) -> Path:
    """A teams file of ``(team name, drivers)`` as YAML text, e.g. ``('Ferrari', '{name: Ann, number: 3}')``."""
    path = tmp_path / "teams.yaml"
    path.write_text("name: Test\nteams:\n" + "".join(TEAM.format(name=n, drivers=d) for n, d in teams), "utf-8")
    return path


# ------------------------------------------------------------------------------------------- bounded inputs


def test_a_csv_of_millions_of_short_points_is_refused_before_parsing(tmp_path):
    """8.4 million points of 4 bytes (just under the 32 MB any file may be) were parsed whole, ~1 GB, before
    the 1,000,000-point limit said no; now they are counted in the bytes first."""
    csv = tmp_path / "many.csv"
    with open(csv, "wb") as f:
        f.write(b"# x,y\n" + b"1,2\n" * 8_388_000)
    code, err, seconds, rss = bounded(["check", csv.name], tmp_path)
    line = refused(code, err)
    assert "8,388,000 lines of points" in line and "at most 1,000,000 points" in line
    assert rss < 400 << 20, (seconds, rss / 2**20)


def test_previews_are_bounded_by_pixels_in_all(tmp_path):
    """`pack monaco` (32 pages) at the most dpi a page allowed drew 1,279 million pixels of previews: 763 MB and
    32 s. Now the run's pixels are bounded, before anything is drawn; the message gives the limit and the dpi
    that fits."""
    code, err, seconds, rss = bounded(["pack", "monaco", "-f", "png", "--dpi", "643", "-o", "out"], tmp_path)
    line = refused(code, err)
    found = re.search(r"previews of these (\d+) pages at 643 dpi would be ([\d,]+) million pixels", line)
    assert found and "at most 300 million pixels" in line, line
    pages, millions = int(found[1]), int(found[2].replace(",", ""))
    assert pages >= 15 and millions > 300
    suggested = int(re.search(r"use --dpi (\d+) or less", line)[1])

    def at(dpi):
        return millions * (dpi / 643) ** 2

    assert at(suggested) <= 300 * 1.01 and at(suggested + 1) > 300 * 0.99  # the hint is the most dpi that fits
    reference = " ".join((ROOT / "docs" / "reference.md").read_text(encoding="utf-8").split())
    assert f"the {pages} pages of `pack monaco` up to {suggested} dpi" in reference  # the doc's figures are these
    assert rss < RSS_BYTES
    assert not (tmp_path / "out").exists()


def test_the_run_pixel_budget_is_what_the_hint_says():
    from generator.errors import InputError
    from generator.writers.png import MAX_RUN_PIXELS, check_pixels, pixels

    a4 = (595.2756, 841.8898)
    check_pixels([a4] * 32, 311)
    assert sum(w * h for w, h in [pixels(a4, 311)] * 32) <= MAX_RUN_PIXELS
    with pytest.raises(InputError, match="at most 300 million pixels of previews a run"):
        check_pixels([a4] * 32, 312)


# ---------------------------------------------------------------------------------- output locations (exit 2)


def test_out_inside_a_loop_of_links(capsys, tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for out in (tmp_path / "a", tmp_path / "a" / "x"):
        code, _, err = run(capsys, "calibrate", "-o", out, "-f", "pdf")
        assert "a loop of symbolic links" in refused(code, err)


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_out_is_refused(capsys, tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "calibrate", "--out", value, "-f", "pdf")
    assert "field '--out': empty value" in refused(code, err)
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------------------------------------ CSV files


@pytest.mark.parametrize("sep", ["\t", " ", ";", ","], ids=["tabs", "spaces", "semicolons", "commas"])
def test_a_csv_separated_by_tabs_spaces_or_semicolons_is_read(tmp_path, sep):
    from generator.track.load import read_points

    csv = tmp_path / "c.csv"
    csv.write_text(f"x{sep}y\n" + "".join(f"{x}{sep}{y}\n" for x, y in [(0, 0), (100, 0), (100, 50), (0, 50)]))
    assert read_points(csv).tolist() == [[0, 0], [100, 0], [100, 50], [0, 50]]


def test_a_csv_with_no_point_says_why(capsys, tmp_path):
    csv = tmp_path / "c.csv"
    csv.write_text("0|0\n100|0\n100|50\n0|50\n", encoding="utf-8")
    code, _, err = run(capsys, "check", csv)
    line = refused(code, err)
    assert "c.csv:1: no line holds a point (line 1 is the first that is not a comment)" in line
    assert "separated by a comma" in line


def test_a_spec_naming_a_file_that_is_no_centre_line_quotes_none_of_it(capsys, tmp_path):
    """The issue's case: a spec's csv: field names any file (a system file) and the error quoted its first line.
    Now a file in which no line holds a point is said to be no centre line, and nothing of it is quoted."""
    secret = tmp_path / "secrets.txt"
    secret.write_text("alice:x:1000:1000:Alice:/home/alice:/bin/sh\nhunter2\n", encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"name: X\ncsv: {secret}\n", encoding="utf-8")
    for args in (["check", spec], ["check", spec, "--json"], ["corners", spec], ["track", spec, "-o", tmp_path]):
        code, out, err = run(capsys, *args)
        assert code == 2 and "no line holds a point" in out + err and "secrets.txt" in out + err, out + err
        assert "alice" not in out + err and "hunter2" not in out + err


@pytest.mark.parametrize("stem", ["a\x1bb", "日本", "x" * 100], ids=["ESC", "CJK", "long"])
def test_a_csv_named_what_the_board_cannot_print(capsys, tmp_path, stem):
    """A CSV's circuit is named after its file: a name with an ESC was an internal error; now control
    characters are dropped, and a name the font cannot print is an error about the file."""
    csv = tmp_path / f"{stem}.csv"
    csv.write_text("0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    code, out, err = run(capsys, "check", csv)
    if stem == "日本":
        assert "the circuit is named after the file, '日本', and the bundled font cannot print" in refused(code, err)
    else:
        assert code == 0, err


# ------------------------------------------------------------------------------------------- names and text

NUL_CASES = {
    "circuit": ("spec.yaml", SPEC.replace("name: Test Oval", 'name: "Test\\0Oval"'), ["track"], ":1:", "name"),
    "team": (None, ('"Red\\0Bull"', "{name: Ann}"), ["cars"], ":3:", "teams[0].name"),
    "driver": (None, ("Red Bull", '{name: Ann}, {name: "B\\0b"}'), ["cars"], ":5:", "teams[0].drivers[1].name"),
    "player": (
        "players.yaml",
        'players:\n  - name: Ann\n  - name: "B\\0b"\n',
        ["pack", "formula-d", "--players-file"],
        ":3:",
        "players[1].name",
    ),
    "course": (
        "course.yaml",
        'name: X\nplayers: [Ann, "B\\0b", Cy]\npath: [start, straight 22, right]\n',
        ["motox", "draw"],
        ":2:",
        "players[1]",
    ),
}


@pytest.mark.parametrize("case", NUL_CASES, ids=list(NUL_CASES))
@pytest.mark.parametrize("char", ["\\0", "\\e", "\\a"], ids=["NUL", "ESC", "BEL"])
def test_a_control_character_in_a_name_is_refused_where_it_is_read(case, char, capsys, tmp_path):
    """A NUL in a name wrote SVG that is not XML; an ESC or a BEL was caught only while drawing. Every user's YAML
    file now refuses a control character where it reads it: file, line and field."""
    name, text, command, line, field = NUL_CASES[case]
    if name is None:
        path = teams_file(tmp_path, (text[0].replace("\\0", char), text[1].replace("\\0", char)))
    else:
        path = tmp_path / name
        path.write_text(text.replace("\\0", char), encoding="utf-8")
    code, _, err = run(capsys, *command, path, "-o", tmp_path / "out", "-f", "svg")
    msg = refused(code, err)
    assert f"{path.name}{line} field '{field}': a control character" in msg
    assert not (tmp_path / "out").exists()


def test_names_in_every_script_and_markup_make_well_formed_svg(capsys, tmp_path):
    teams = teams_file(
        tmp_path,
        ('"Équipe <&> \\"Σ\\""', '{name: "Иван Пётр", number: 1}, {name: "O\'Neil & <Co>", number: 2}'),
    )
    code, _, err = run(capsys, "cars", teams, "-o", tmp_path / "out", "-f", "svg", "-q")
    assert code == 0, err
    svgs = list((tmp_path / "out").rglob("*.svg"))
    assert svgs
    for svg in svgs:
        xml.dom.minidom.parse(str(svg))


def test_players_in_cyrillic_or_greek_are_different_players(capsys, tmp_path):
    code, _, err = run(capsys, "pack", "formula-d", "--players", "Иван,Пётр,Νίκος", "-o", tmp_path, "-f", "pdf", "-q")
    assert code == 0, err
    code, _, err = run(capsys, "pack", "formula-d", "--players", "Νίκος,ΝΊΚΟΣ", "-o", tmp_path, "-f", "pdf")
    assert "the player 'ΝΊΚΟΣ' is listed twice" in refused(code, err)


def test_name_keys():
    from generator.specs import name_key

    assert name_key("Ferrari") == name_key("ferrari") == name_key("Ferrari ") == name_key(" FERRARI")
    assert name_key("Ann\u200b Bee") == name_key("Ann Bee") == name_key("Ann  Bee")
    assert name_key("Pe\u0301rez") == name_key("Pérez")  # NFD and NFC
    assert name_key("Иван") != name_key("Пётр") and name_key("Иван") != ""
    assert name_key("Pérez") != name_key("Perez")  # an accent is a letter of its own


TEAM_CASES = {
    "a blank team name": ([('"   "', "{name: Ann}")], ":3:", "teams[0].name", "must not be blank"),
    "Ferrari and ferrari": (
        [("Ferrari", "{name: Ann}"), ("ferrari", "{name: Bob}")],
        ":6:",
        "teams[1].name",
        "two teams are called 'ferrari' and 'Ferrari'",
    ),
    "Ferrari and 'Ferrari '": (
        [("Ferrari", "{name: Ann}"), ('"Ferrari "', "{name: Bob}")],
        ":6:",
        "teams[1].name",
        "two teams are called 'Ferrari' (teams 1 and 2",
    ),
    "a driver in NFC and NFD": (
        [("A", '{name: "P\\u00e9rez"}'), ("B", '{name: "Pe\\u0301rez"}')],
        ":8:",
        "teams[1].drivers[0].name",
        "is listed twice (as 'Pérez' at line 5)",
    ),
    "a zero-width space": (
        [("A", '{name: "Ann Bee"}, {name: "Ann\\u200b Bee"}')],
        ":5:",
        "teams[0].drivers[1].name",
        "is listed twice (as 'Ann Bee' at line 5)",
    ),
    "a car number twice": (
        [("A", "{name: Ann, number: 7}"), ("B", "{name: Bob, number: 7}")],
        ":8:",
        "teams[1].drivers[0].number",
        "car number 7 is given twice: 'Ann' (line 5) and 'Bob'",
    ),
}


@pytest.mark.parametrize("case", TEAM_CASES, ids=list(TEAM_CASES))
def test_teams_that_are_not_what_they_seem(case, capsys, tmp_path):
    teams, line, field, needle = TEAM_CASES[case]
    path = teams_file(tmp_path, *teams)
    code, _, err = run(capsys, "cars", path, "-o", tmp_path / "out", "-f", "pdf")
    msg = refused(code, err)
    assert f"teams.yaml{line} field '{field}'" in msg and needle in msg, msg


# ------------------------------------------------------------------------------------------------- messages

REPR_CASES = {
    "a date": ("name: 2011-01-01", "got 2011-01-01, which YAML reads as a date: put it in quotes"),
    "binary data": ("lanes: !!binary aGVsbG8=", "got binary data (5 bytes)"),
    "a number for a name": ("name: 1984", "got 1984, which YAML reads as a number"),
    "a 100-digit number": ("lanes: " + "9" * 100, "got 999999999999… (a number of 100 digits)"),
}


@pytest.mark.parametrize("case", REPR_CASES, ids=list(REPR_CASES))
def test_values_are_said_as_written_not_as_python_shows_them(case, capsys, tmp_path):
    line, needle = REPR_CASES[case]
    spec = tmp_path / "spec.yaml"
    key = line.split(":")[0]
    spec.write_text("\n".join(ln for ln in SPEC.splitlines() if not ln.startswith(f"{key}:")) + f"\n{line}\n")
    code, _, err = run(capsys, "check", spec)
    msg = refused(code, err)
    assert needle in msg
    assert "datetime" not in msg and "b'" not in msg and "9" * 30 not in msg


@pytest.mark.parametrize("text, line", [("name: X\nteams:\n  - 5\n", ":3:"), ("- a\n- b\n", ":1:")])
def test_no_python_class_names(capsys, tmp_path, text, line):
    path = tmp_path / "teams.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "cars", path, "-o", tmp_path / "out")
    msg = refused(code, err)
    assert "instance of" not in msg and "TeamField" not in msg and "give a mapping here" in msg and line in msg


def test_long_option_values_are_cut(capsys, tmp_path):
    code, _, err = run(capsys, "calibrate", "-f", ",".join(f"fmt{i}" for i in range(1000)), "-o", tmp_path)
    msg = refused(code, err)
    assert len(msg) < 200 and "(6,889 characters)" in msg
    csv = tmp_path / "c.csv"
    csv.write_text("0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    for option in ("--fit", "--lanes"):
        code, _, err = run(capsys, "check", csv, option, "9" * 100)
        msg = refused(code, err)
        assert "9" * 30 not in msg and "(a number of 100 digits)" in msg


def test_fit_out_of_range_says_what_it_may_be(capsys, tmp_path):
    csv = tmp_path / "c.csv"
    csv.write_text("0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    code, _, err = run(capsys, "check", csv, "--fit", "9")
    msg = refused(code, err)
    assert "--fit 9: it should be 'page' or greater than or equal to 10" in msg and "Input should" not in msg


def test_quiet_silences_notices(capsys, tmp_path):
    """`-q` left "start line moved …" and warnings on stderr; now it leaves errors only."""
    csv = tmp_path / "c.csv"
    csv.write_text("0;0\n100;0\n100;50\n0;50\n", encoding="utf-8")
    code, _, err = run(capsys, "track", csv, "-o", tmp_path / "out", "-f", "pdf")
    assert code == 0 and "start line moved" in err
    code, _, err = run(capsys, "track", csv, "-o", tmp_path / "out", "-f", "pdf", "-q")
    assert code == 0 and err == ""


# ------------------------------------------------------------------------------ several problems, as check lists

BAD = """name: Bad
lanes: 3
segments:
  - straight: 100
  - arc: {radius: 10, angle: 180, turn: left}
  - straight: 100
  - arc: {radius: 10, angle: 180, turn: left}
"""


@pytest.mark.parametrize(
    "command",
    [["track"], ["pack", "--track"], ["road"], ["corners"], ["pack", "formula-d", "--track"]],
    ids=["track", "pack", "road", "corners", "pack formula-d"],
)
def test_several_problems_are_listed_a_line_each(command, capsys, tmp_path):
    """`track`, `pack`, `road` and `corners` printed several problems as one line with literal '\\n', cut at 300
    characters mid-word (issue 32). Now: a first line, then a line per problem, none cut."""
    spec = tmp_path / "bad.yaml"
    spec.write_text(BAD, encoding="utf-8")
    out = [] if command == ["corners"] else ["-o", tmp_path / "out"]
    code, _, err = run(capsys, *command, spec, *out)
    lines = listed(code, err)
    assert len(lines) >= 4 and lines[0].endswith("problems:"), err
    assert any("the inner (left)" in line and "bad.yaml:3:" in line for line in lines[1:]) or command == ["road"]
    assert not (tmp_path / "out").exists()


def test_corners_json_answers_on_an_error(capsys, tmp_path):
    """`check --json` answers in JSON when the circuit does not build; `corners --json` printed nothing."""
    spec = tmp_path / "bad.yaml"
    spec.write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "corners", spec, "--json")
    answer = json.loads(out)
    assert code == 3 and answer["corners"] == [] and answer["file"] == str(spec)
    assert len(answer["problems"]) == 4 and answer["problems"][0]["line"] == 3
    code, out, _ = run(capsys, "corners", tmp_path / "missing.yaml", "--json")
    answer = json.loads(out)
    assert code == 2 and answer["problems"][0]["kind"] == "input" and "not found" in answer["problems"][0]["message"]


def test_a_long_list_is_cut_at_a_problem_and_says_so(capsys):
    from generator.cli import LISTED_MAX, say

    say("error", "x.yaml: 100 problems:\n" + "\n".join(f"  x.yaml:{i}: problem {i} — fix {i}" for i in range(100)))
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == LISTED_MAX + 2 and lines[-1] == f"  … and {100 - LISTED_MAX} more"
    assert lines[LISTED_MAX] == f"  x.yaml:{LISTED_MAX - 1}: problem {LISTED_MAX - 1} — fix {LISTED_MAX - 1}"
    assert all(len(line) <= LINE_MAX for line in lines)


def test_an_internal_error_stays_one_line(capsys):
    from generator.cli import say

    say("internal error", "ValidationError: 1 validation error\nname\n  Value error")
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["paddock: internal error: ValidationError: 1 validation error\\nname\\n  Value error"]


def test_the_reference_says_what_the_code_does(capsys, tmp_path, monkeypatch):
    """docs/reference.md: the listing it shows is what `track` prints, and its limits are the code's."""
    from generator.cli import LISTED_MAX
    from generator.writers.png import MAX_RUN_PIXELS

    doc = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    shown = doc.split("```\npaddock: error: mine.yaml")[1].split("```")[0]
    monkeypatch.chdir(tmp_path)
    Path("mine.yaml").write_text(BAD.replace("name: Bad", "name: Tight"), encoding="utf-8")
    code, _, err = run(capsys, "track", "mine.yaml")
    assert code == 3 and err == "paddock: error: mine.yaml" + shown
    assert f"at most {LISTED_MAX} of them" in doc and f"at most {LINE_MAX} characters" in doc
    assert f"at most {MAX_RUN_PIXELS // 1_000_000} million pixels in all" in doc  # its dpi: the test above
