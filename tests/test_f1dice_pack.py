"""The f1-dice pack, measured from its output: slip geometry, names and tables read back from the PDF."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest

from generator.games.f1_dice import facts as f1_facts
from generator.games.f1_dice import pack as f1_dice
from generator.paper import PageSettings
from generator.pipeline import Output
from generator.scene import bounds
from generator.teams import load_field

RULES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "f1-dice.txt"
SVG = "{http://www.w3.org/2000/svg}"


def rulebook() -> str:
    if not RULES.is_file():
        pytest.skip("the rulebooks (../shared/rules) are not beside the project")
    return RULES.read_text(encoding="utf-8")


def rulebook_qualifying() -> dict[str, tuple[int, int, int]]:
    """The Q1–Q3 table of f1-dice.txt §2.1, parsed: {'Red Bull': (3, 3, 3), …}."""
    table = {}
    for line in rulebook().splitlines():
        m = re.match(r"^\s*([A-Z][A-Za-z ]+?)\s+(d(?:[+-]\d)?)\s+(d(?:[+-]\d)?)\s+(d(?:[+-]\d)?)\s*$", line)
        if m:
            table[m.group(1)] = tuple(int(v[1:]) if len(v) > 1 else 0 for v in m.groups()[1:])
    assert len(table) == 12, table
    return table


def rulebook_points() -> list[list[int]]:
    text = rulebook()
    systems = [[int(p) for p in m.split("-")] for m in re.findall(r"\b(\d+(?:-\d+){5,})\b", text)]
    fia = [int(p) for p in re.findall(r"^\d+(?:st|nd|rd|th) - (\d+) points?", text, re.M)]
    return [fia, *systems]


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    from generator.pipeline import publish

    out = tmp_path_factory.mktemp("f1")
    settings, output = PageSettings(), Output(out=out, formats=("pdf", "svg"), quiet=True)
    sheets = f1_dice.build(settings)
    publish(sheets, output, settings, folder="f1-dice", merged="f1-dice-print")
    return out / "f1-dice", sheets


def pdf_text(path: Path) -> str:
    doc = pypdfium2.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_every_2011_driver_reads_back_from_the_pack(pack):
    folder, _ = pack
    text = pdf_text(folder / "f1-dice-print.pdf")
    for _, driver in load_field("f1-2011").drivers:
        assert driver.name in text, driver.name
    assert "Sergio Pérez" in text
    if shutil.which("pdftotext"):
        out = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(folder / "f1-dice-print.pdf"), "-"], capture_output=True, check=True
        ).stdout.decode("utf-8")
        for _, driver in load_field("f1-2011").drivers:
            assert driver.name in out, driver.name


def test_slip_geometry_measured_from_the_svg(pack):
    folder, _ = pack
    root = ET.parse(folder / "car-slips.svg").getroot()
    cut = root.find(f".//{SVG}g[@id='layer-slip-cut']")
    fold = root.find(f".//{SVG}g[@id='layer-slip-fold']")
    outlines = []
    for poly in cut.iter(f"{SVG}polygon"):
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        outlines.append((min(xs), min(ys), max(xs), max(ys)))
    folds = []
    for line in fold.iter(f"{SVG}polyline"):
        assert line.get("stroke-dasharray"), "the fold line is dashed"
        (x0, y0), (x1, y1) = (tuple(map(float, p.split(","))) for p in line.get("points").split())
        folds.append((x0, y0, x1, y1))
    assert cut.find(f".//{SVG}polygon").get("stroke-dasharray") is None, "cut lines are solid"
    assert len(outlines) >= 24 + 12  # a slip per driver, a spare per team, blanks
    assert len(folds) == len(outlines)
    for (x0, y0, x1, y1), (fx0, fy0, fx1, fy1) in zip(sorted(outlines), sorted(folds), strict=True):
        assert x1 - x0 == pytest.approx(10.0, abs=0.1)
        assert y1 - y0 == pytest.approx(25.0, abs=0.1)
        assert fy0 == fy1 == pytest.approx(y0 + 5.0, abs=0.1)  # wing 5 mm, body 20 mm below the fold
        assert (y1 - fy0) == pytest.approx(20.0, abs=0.1)
        assert fx0 == pytest.approx(x0, abs=0.1) and fx1 == pytest.approx(x1, abs=0.1)


def test_slips_scale_with_the_board_unit():
    from generator.games.f1_dice.slips import PAPER, slip_pages
    from generator.paper import PageSpec

    page = slip_pages(load_field("f1-2011"), PageSpec(PAPER), unit=25.0)[0]
    outlines = [bounds([p]) for p in page.layers["slip-cut"].items]
    for x0, y0, x1, y1 in outlines:
        assert x1 - x0 == pytest.approx(12.5 + 0.2, abs=0.01)  # bounds include the 0.2 mm stroke
        assert y1 - y0 == pytest.approx(31.25 + 0.2, abs=0.01)


def test_qualifying_modifiers_equal_the_rulebook(pack):
    folder, _ = pack
    table = rulebook_qualifying()
    field = load_field("f1-2011")
    assert {t.name: (t.qualifying.q1, t.qualifying.q2, t.qualifying.q3) for t in field.teams} == table
    assert [t.name for t in field.teams] == list(table)  # the rulebook's order is the tie-break order
    text = pdf_text(folder / "qualifying.pdf")

    def d(m: int) -> str:
        return "d" if m == 0 else (f"d+{m}" if m > 0 else f"d−{-m}")

    for team, mods in table.items():
        row = " ".join([team, *(d(m) for m in mods)])
        assert re.search(r"\b" + re.escape(team) + r"\s+" + r"\s+".join(map(re.escape, row.split()[-3:])), text), row


def test_points_tables_equal_the_rulebook(pack):
    folder, _ = pack
    book = rulebook_points()
    data = [s.points for s in f1_facts.facts().points.systems]
    assert sorted(map(tuple, data)) == sorted(map(tuple, book))
    assert [25, 18, 15, 12, 10, 8, 6, 4, 2, 1] in data
    text = pdf_text(folder / "race-reference.pdf").replace("\r", "")
    text = text[text.index("Points systems") :]
    labels = [s.label for s in f1_facts.facts().points.systems]
    for i, system in enumerate(data):
        start = text.index(labels[i])
        end = text.index(labels[i + 1]) if i + 1 < len(labels) else len(text)
        printed = [int(p) for place, p in re.findall(r"(\d+)\.\n(\d+)\n", text[start:end])]
        assert printed == system, labels[i]


def test_sessions_drop_seven_after_q1_and_q2():
    assert f1_facts.session_sizes(24) == [("Q1", 24, 18, 24), ("Q2", 17, 11, 17), ("Q3", 10, 1, 10)]


def test_sheets_stay_inside_the_content_box(pack):
    _, sheets = pack
    for sheet in sheets:
        page = sheet.page
        x, y, w, h = page.content_box
        items = [i for name, layer in page.layers.items() if name != "print-check" for i in layer.items]
        box = bounds(items)
        assert box[0] >= x - 0.01 and box[1] >= y - 0.01, sheet.name
        assert box[2] <= x + w + 0.01 and box[3] <= y + h + 0.01, sheet.name


def test_same_input_same_bytes(tmp_path, monkeypatch):
    from generator.pipeline import publish

    blobs = []
    for run in ("a", "b"):
        settings, output = PageSettings(), Output(out=tmp_path / run, formats=("pdf",), quiet=True)
        publish(f1_dice.build(settings), output, settings, folder="f1", merged="all")
        blobs.append((tmp_path / run / "f1" / "all.pdf").read_bytes())
    assert blobs[0] == blobs[1]


def test_unknown_points_system_is_an_input_error():
    from generator.errors import InputError

    with pytest.raises(InputError, match="--points"):
        f1_dice.build(PageSettings(), points="3-2-1")


def test_race_length_and_lap_chart_read_back(pack):
    """The race sheet and the reference card say the same race length; the default is explained."""
    from generator.games.f1_dice.facts import default_laps

    folder, sheets = pack
    board = sheets[0].page
    from generator.scene import Text, walk

    count = next(i.text for i in walk(board.items()) if isinstance(i, Text) and i.text.endswith(" units"))
    lap_units = int(count.split()[0])
    laps = default_laps(lap_units)
    race = pdftotext_or_pdfium(folder / "race-sheet.pdf")
    assert f"{laps} laps of {lap_units} units" in race
    for column in ["Grid"] + [f"Lap {n}" for n in range(1, laps + 1)]:
        assert column in race
    assert "P24" in race and "Lap counter" in race and "snake eyes" in race
    from generator.games.f1_dice.slips import wing_text

    for _, driver in load_field("f1-2011").drivers:  # the counter's cars, as their wings say
        assert wing_text(driver) in race
    assert "3 letters" not in race
    card = pdftotext_or_pdfium(folder / "race-reference.pdf")
    assert f"{laps} laps of {lap_units} units: {laps * lap_units} units in all." in " ".join(card.split())
    assert "Pit stops — your house rule" in card


def test_laps_option_and_its_limits(tmp_path):
    from generator.errors import InputError

    settings = PageSettings()
    sheets = {s.name: s for s in f1_dice.build(settings, laps=7)}
    from generator.scene import Text, walk

    text = " ".join(i.text for i in walk(sheets["race-sheet"].page.items()) if isinstance(i, Text))
    assert "Lap 7" in text and "Lap 8" not in text
    with pytest.raises(InputError, match="--laps"):
        f1_dice.build(settings, laps=0)


def test_constructors_sheet_lists_every_team(pack):
    folder, _ = pack
    text = pdftotext_or_pdfium(folder / "constructors.pdf")
    for team in load_field("f1-2011").teams:
        assert team.name in text


def pdftotext_or_pdfium(path) -> str:
    doc = pypdfium2.PdfDocument(str(path))
    return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def test_ink_saver_keeps_names_clear_of_hatching_and_spare_wings_white():
    """With --ink-saver no hatch line crosses a driver's name; a spare slip's wing is white (pencil shows)."""
    from shapely import LineString, box

    from generator.compose import inksaver
    from generator.games.f1_dice.slips import PAPER, slip_pages, slip_size
    from generator.paper import PageSpec
    from generator.scene import Document, Polygon, Polyline, Text

    (page,) = slip_pages(load_field("f1-2011"), PageSpec(PAPER))[:1]
    (saved,) = inksaver.apply(Document([page])).pages
    names = [box(*bounds([t])) for t in saved.layers["slip-text"].items if isinstance(t, Text)]
    hatch = [
        LineString(p.points) for p in saved.layers["slip-livery"].items if isinstance(p, Polyline) and not p.closed
    ]
    assert names and hatch
    assert not any(n.intersects(h) for n in names for h in hatch)
    w, _, wing = slip_size()
    whites = [p for p in page.layers["slip-livery"].items if isinstance(p, Polygon) and p.style.fill == "#ffffff"]
    assert any(abs((p.exterior[1][0] - p.exterior[0][0]) - (w - 1.8)) < 0.01 for p in whites)


# ------------------------------------------------------------------------------------------ output and summary


def _cli(*args):
    from typer.testing import CliRunner

    from generator.cli import _register, app

    _register()
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_cars_for_two_fields_go_to_folders_of_their_own(tmp_path):
    _cli("cars", "f1-2011", "-o", tmp_path, "-f", "pdf", "-q")
    _cli("cars", "monaco-example", "-o", tmp_path, "-f", "pdf", "-q")
    a, b = tmp_path / "cars-f1-2011", tmp_path / "cars-monaco-example"
    assert (a / "car-slips.pdf").is_file() and (b / "car-slips.pdf").is_file()
    assert "F1 2011" in pdf_text(a / "car-slips.pdf")
    assert "F1 2011" not in pdf_text(b / "car-slips.pdf")


def test_a_rerun_removes_its_own_stale_files_and_nothing_else_and_names_the_file_to_print(tmp_path):
    out = _cli("pack", "f1-dice", "-o", tmp_path, "-f", "pdf,png", "--dpi", "36", "--tile-onto", "a4")
    folder = tmp_path / "f1-dice"
    tiles = sorted(p.name for p in folder.glob("monte-carlo-*.png"))
    assert len(tiles) >= 3  # the board's tiles and assembly page
    assert f"print {folder / 'f1-dice-print.pdf'}: all " in out and "pages A4" in out
    mine = folder / "my-notes.txt"
    mine.write_text("lap times", encoding="utf-8")
    out = _cli("pack", "f1-dice", "-o", tmp_path, "-f", "pdf,png", "--dpi", "36")
    assert not list(folder.glob("monte-carlo-*.png")) and (folder / "monte-carlo.png").is_file()
    assert mine.read_text(encoding="utf-8") == "lap times"
    assert "page 1 A3, pages 2–" in out and "A4" in out


def test_no_pit_leaves_the_pit_lane_off_and_the_pit_lane_has_a_garage_per_team(tmp_path):
    from generator.track.circuit import PIT_GAP
    from generator.track.legend import words

    settings = PageSettings()
    field = load_field("f1-2011")
    c = f1_dice.board_circuit(None, len(field.drivers), settings, garages=len(field.teams))
    assert c.pit is not None and c.pit.garages == len(field.teams) == len(c.pit.garage_boxes)
    lengths = [
        c.offset_length(a, b, (c.half_width + PIT_GAP + c.lane_width / 2) * (1 if c.pit.side == "left" else -1))
        for a, b in zip(c.pit.unit_s[:-1], c.pit.unit_s[1:], strict=True)
    ]
    assert c.pit.units >= 4 and all(v == pytest.approx(20, rel=0.02) for v in lengths), lengths
    page = f1_dice.board_sheet(c, f1_dice.race_facts(c)).page
    texts = [t for t in page.layers["features"].items if getattr(t, "text", None)]
    say = words()["labels"]
    assert {say["pit_in"], say["pit_out"]} <= {t.text for t in texts}
    garages = [t for t in texts if t.text.isdigit() and t.text in {str(i + 1) for i in range(c.pit.garages)}]
    assert all(t.size >= 6 * 25.4 / 72 - 1e-9 and -90 <= t.rotation <= 90 for t in garages)
    bare = f1_dice.board_circuit(None, len(field.drivers), settings, pit=False)
    assert bare.pit is None


def test_reference_card_and_summary_agree_on_rounds_action_squares_and_dead_heats(pack):
    """A player reading either sheet gets the same race: the rounds it takes, which units are action squares
    (every 10th, the one under the grid too), and the whole dead-heat rule (team order, team-mates, a deciding die
    for equal teams)."""
    from generator.games.f1_dice.pack import race_facts

    folder, sheets = pack
    card = " ".join(pdftotext_or_pdfium(folder / "race-reference.pdf").split())
    rules = " ".join(" ".join(pdftotext_or_pdfium(p).split()) for p in sorted(folder.glob("rules-*.pdf")))
    rounds = [int(n) for n in re.findall(r"about (\d+) rounds", card + " " + rules)]
    assert len(rounds) >= 2 and len(set(rounds)) == 1, rounds
    circuit = f1_dice.board_circuit(None, 24, PageSettings(), garages=12)
    facts = race_facts(circuit)
    assert facts.rounds == rounds[0]
    assert set(facts.action_units) & set(circuit.grid_units)  # the grid stands on an action unit: it is kept
    listed = "units 10, 20, 30, 40 and 50"
    assert facts.action_units == (10, 20, 30, 40, 50) and listed in card and listed in rules
    assert "team higher on the qualifying sheet" in card and "deciding die" in card


def test_first_cars_keeps_whole_teams_in_the_fields_order():
    field = load_field("f1-2011")
    assert len(field.drivers) == 24
    twenty = field.first_cars(20)
    assert [t.name for t in twenty.teams] == [t.name for t in field.teams[:10]] and len(twenty.drivers) == 20
    assert len(field.first_cars(21).drivers) == 20  # a team races whole
    assert field.first_cars(24) is field and field.first_cars(99) is field
    with pytest.raises(ValueError, match="first team"):
        field.first_cars(1)


def test_a_real_line_too_short_for_the_field_asks_for_cars_and_races_them(tmp_path, capsys):
    """A centre line whose longest straight holds 10 cars: the pack refuses the 24-car field naming `--cars 10`
    (in full, however long the CSV's path); with it the pack builds and races the first 5 teams."""
    import numpy as np
    import shapely

    from generator.cli import main

    hexagon = shapely.Polygon([(300 * np.cos(a), 300 * np.sin(a)) for a in np.radians(np.arange(30, 390, 60))])
    ring = hexagon.buffer(-60).buffer(60, quad_segs=16).exterior  # six 2-unit-wide bends, straights between
    csv = tmp_path / "hexagon.csv"
    np.savetxt(csv, [ring.interpolate(d).coords[0] for d in np.arange(0, ring.length, 2.0)], delimiter=",")
    argv = ["pack", "f1-dice", "--track", str(csv), "--out", str(tmp_path / "out"), "-f", "pdf", "-q"]
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 3 and "hexagon.csv: grid: 24 grid slots" in err
    most = int(re.search(r"--cars (\d+)\)", err).group(1))
    assert 2 <= most < 24 and f"more than {most} cars" in err
    with pytest.raises(SystemExit) as info:
        main([*argv, "--cars", str(most)])
    assert info.value.code == 0, capsys.readouterr().err
    qualifying = pdf_text(tmp_path / "out" / "f1-dice" / "qualifying.pdf")
    assert f"{most} cars" in qualifying
    rules = " ".join(pdf_text(tmp_path / "out" / "f1-dice" / "rules-1.pdf").split())
    assert f"For the F1 2011 field, {most} cars:" in rules  # the rule summary races the pack's field
    field = load_field("f1-2011")
    kept = {d.name for _, d in field.drivers[:most]}
    assert all(name in qualifying for name in kept)
    assert not any(d.name in qualifying for _, d in field.drivers if d.name not in kept)


def test_cars_races_exactly_that_many_cars_a_team_cut_short_if_need_be():
    """--cars N races the first N cars of the field in its order, whatever the size of its teams: a team whose
    drivers do not all fit races those that do (and is said so); more cars than the field has race it whole (and
    that is said too)."""
    import warnings

    field = load_field("f1-2011")
    said = {}
    for n in (2, 3, 5, 21, 24, 99):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            cut = f1_dice.first_cars(field, n)
        assert [d.name for _, d in cut.drivers] == [d.name for _, d in field.drivers[:n]]
        assert bool(seen) == (n % 2 == 1), [str(w.message) for w in seen]
        said[n] = " ".join(str(w.message) for w in seen)
    assert "races 1 of its 2 cars (the first 3 cars of 'F1 2011' race)" in said[3]
    assert "races 1 of its 2 cars (the first 5 cars of 'F1 2011' race)" in said[5]
    assert "--cars 99: 'F1 2011' has 24 cars; they all race" in said[99]


def test_cars_writes_formula_d_tokens_only_for_a_formula_d_field_or_when_asked(tmp_path):
    _cli("cars", "f1-2011", "-o", tmp_path / "a", "-f", "pdf", "-q")
    assert not list((tmp_path / "a" / "cars-f1-2011").glob("car-tokens*"))
    _cli("cars", "f1-2011", "--tokens", "-o", tmp_path / "b", "-f", "pdf", "-q")
    assert list((tmp_path / "b" / "cars-f1-2011").glob("car-tokens*"))
    league = tmp_path / "fd.yaml"
    text = (Path(__file__).resolve().parents[1] / "templates" / "teams" / "f1-2011.yaml").read_text(encoding="utf-8")
    league.write_text(text.replace("game: f1-dice", "game: formula-d"), encoding="utf-8")
    _cli("cars", league, "-o", tmp_path / "c", "-f", "pdf", "-q")
    assert list((tmp_path / "c" / "cars-fd").glob("car-tokens*"))


def test_a_mistake_in_the_users_team_file_names_that_file_line_and_field(tmp_path):
    from generator.errors import InputError

    league = tmp_path / "league.yaml"
    league.write_text(
        "name: Home\nteams:\n  - name: Alpha\n    colours: {primary: red}\n    qualifing: {q1: 1, q2: 0, q3: 0}\n"
        "    drivers:\n      - {name: Ann Bee}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        f1_dice.build(PageSettings(), teams=league)
    err = info.value
    assert err.file == str(league) and err.line == 5 and "qualifing" in (err.field or ""), str(err)
    assert "templates" not in str(err)


def test_the_tile_labels_of_the_assembly_page_stand_on_blank_paper():
    """--tile-onto a4: every tile's label on the assembly page is clear of what the board draws (its legend text
    above all), inside the part of its window no other tile shares."""
    from shapely import box

    from generator.compose.tiling import LABEL_H, LABEL_W, label_spots, plan
    from generator.paper import Paper

    page = f1_dice.build(PageSettings())[0].page
    p = plan(page, Paper("a4", "landscape"))
    scale = 0.4  # as on the assembly page: any scale, the label's box grows as the picture shrinks
    spots = label_spots(p, LABEL_W / scale, LABEL_H / scale)
    assert len(spots) == len(p.tiles) >= 4
    for cx, cy in spots.values():
        b = box(cx - LABEL_W / scale / 2, cy - LABEL_H / scale / 2, cx + LABEL_W / scale / 2, cy + LABEL_H / scale / 2)
        assert not p.drawn.intersects(b)
