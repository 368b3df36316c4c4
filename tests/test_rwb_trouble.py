"""RWB TROUBLE (Three Forms of TROUBLE for Red White & Blue Racin'): chips computed and read back from the card,
the ACCIDENT table against ceil(total / divisor) and the add-on's worked examples, the CRASH example, the card's
true size on the printer's page, the tracker sized for the race, bad input, the rule summary's contract."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import pytest
import yaml
from conftest import pdf_pages, pdf_text

from generator.errors import InputError
from generator.games.rwb_trouble import facts, summary
from generator.games.rwb_trouble.chipcard import chip_card_pages
from generator.games.rwb_trouble.pack import build, chip_sheets
from generator.games.rwb_trouble.procedures import procedures_page
from generator.games.rwb_trouble.tables import tables_page
from generator.games.rwb_trouble.tracker import tracker_pages
from generator.paper import PageSettings, PageSpec, Paper, PaperChoice
from generator.pipeline import prepare
from generator.scene import Circle, Document, Polygon, Polyline, Text, walk
from generator.writers import render

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT.parent / "shared" / "rules" / "rwb-trouble.txt"
TEMPLATES = ROOT / "templates" / "rwb-trouble"
A4 = PageSpec(Paper("a4", "portrait"))


def rulebook() -> str:
    if not RULEBOOK.is_file():
        pytest.skip("the shared rulebooks are not beside the project")
    return RULEBOOK.read_text(encoding="utf-8")


def pdf_of(*pages) -> bytes:
    (blob,) = render(Document(list(pages)), "pdf")
    return blob


def flat(text: str) -> str:
    """PDF text with every line break and run of spaces as one space."""
    return " ".join(text.split())


def texts(page) -> list[Text]:
    return [i for i in walk(page.items()) if isinstance(i, Text)]


# --- chips -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("turns", "chips"), [(30, 3), (40, 4), (50, 5), (45, 4), (20, 3)])
def test_chip_count_read_back_from_the_card(turns, chips):
    plan = facts.chip_plan(turns, "speedway")
    assert plan.total == chips
    text = pdf_text(pdf_of(chip_card_pages(plan, facts.card_size(), A4)[0]))
    extras = chips - 3
    head = f"{chips} chips: 1 on each space + {extras} extra" if extras else f"{chips} chips: 1 on each space, no"
    assert head in text
    assert f"{turns} turns · super-speedway" in text
    starts = dict(re.findall(r"(ACCIDENTS|CRASHES|WRECKS)\s+(\d+)\s+at the start", text))
    shared = facts.share_extras(extras, "wreck")  # two of every three on WRECKS
    assert starts == {f.plural: str(1 + shared[f.key]) for f in facts.forms()}
    assert f"{chips} chips (blue): the face names the chip's space" in text
    # One blue chip to cut out per chip counted, each naming its space, as many of each as the card starts it with.
    page, backs = chip_card_pages(plan, facts.card_size(), A4)[:2]
    assert sum(isinstance(i, Polygon) for i in page.layers["chips"].items) == chips
    faces = [t.text for t in texts(page) if t.text in {f.name for f in facts.forms()} and t.size < 3]
    assert sorted(faces) == sorted(facts.form(k).name for k in plan.chips())
    assert [t.text for t in texts(backs)].count("TROUBLE") == chips


def test_the_rulebooks_own_chip_example():
    m = re.search(r"a (\d+) turn race would have (\w+) extra chips", rulebook())
    assert m, "the add-on's 50-turn example is no longer in the text"
    words = {"one": 1, "two": 2, "three": 3}
    assert facts.extra_chips(int(m.group(1))) == words[m.group(2)]
    assert "one chip for every ten additional turns" in flat(rulebook())


def test_road_puts_extras_on_accident_speedway_on_wreck():
    road = facts.chip_plan(50, "road")
    speedway = facts.chip_plan(50, "speedway")
    assert (road.start("accident"), road.start("crash"), road.start("wreck")) == (3, 1, 1)
    assert (speedway.start("accident"), speedway.start("crash"), speedway.start("wreck")) == (1, 1, 3)
    text = flat(pdf_text(pdf_of(chip_card_pages(road, facts.card_size(), A4)[0])))
    assert "Extras +2 on ACCIDENTS: ACCIDENTS is the add-on's suggestion for a road course" in text


@pytest.mark.parametrize(
    ("turns", "track", "starts"),
    [
        (60, "road", (3, 2, 1)),  # 3 extras: two on ACCIDENTS, the third on the next space, CRASHES
        (90, "road", (5, 2, 2)),  # 6 extras: four on ACCIDENTS, then CRASHES, then WRECKS
        (100, "speedway", (2, 2, 6)),  # 7 extras: 5 on WRECKS, the thirds on ACCIDENTS, then CRASHES
        (500, "road", (33, 9, 8)),  # 47 extras: 32 on ACCIDENTS, 15 shared by the others in turn
        (60, "oval", (2, 2, 2)),  # no space for an oval: one on each in turn
        (70, "oval", (3, 2, 2)),
    ],
)
def test_the_extras_are_shared_out_not_piled_on_one_space(turns, track, starts):
    """Paddock's reading (issue 42: every extra chip landed on one space by default): two of every three extras
    on the track's space, every third on the other spaces in turn; an oval's one on each space in turn."""
    plan = facts.chip_plan(turns, track)
    assert tuple(plan.start(k) for k in facts.form_keys()) == starts
    assert sum(starts) == plan.total and not plan.chosen
    text = flat(pdf_text(pdf_of(*chip_card_pages(plan, facts.card_size(), A4))))
    assert "(Paddock's reading)" in text and facts.draw_text(plan) in text


def test_extras_override_and_must_add_up():
    plan = facts.chip_plan(50, "oval", "accident=1,wreck=1")
    assert (plan.start("accident"), plan.start("crash"), plan.start("wreck")) == (2, 1, 2) and plan.chosen
    assert facts.chip_plan(50, "road", "CRASHES=2").start("crash") == 3
    assert facts.chip_plan(35, "road", "").extras == 0


def test_the_card_says_how_45_turns_and_short_races_are_counted():
    text = flat(pdf_text(pdf_of(chip_card_pages(facts.chip_plan(20, "road"), facts.card_size(), A4)[0])))
    assert "45 turns counts as 40 (1 extra)" in text
    assert "Under 40 turns, even under 30: 1 chip per space, no extras" in text


@pytest.mark.parametrize(("key", "size"), [("index", (127.0, 76.2)), ("a6", (148.0, 105.0)), ("a7", (105.0, 74.0))])
def test_the_card_keeps_its_own_size_on_the_printers_page(key, size):
    """The card's edge is drawn at exactly its size, with a cut mark on each edge line at every corner."""
    settings = PageSettings(paper=PaperChoice("a3"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sheet, backs = chip_sheets(settings, 50, "road", card=key)
    assert (sheet.name, sheet.side, backs.name, backs.side) == ("chip-card", "front", "chip-card-backs", None)
    notes = [str(w.message) for w in caught]
    assert any("the chip card keeps its own size" in n and "A3 portrait" in n for n in notes), notes
    page = sheet.page
    assert (page.width, page.height) == (297.0, 420.0)
    frames = [
        i for i in page.layers["boxes"].items if isinstance(i, Polyline) and i.closed and i.style.stroke == "#bdbdbd"
    ]
    assert len(frames) == 2  # the chip card and the quick card, the same size
    for frame in frames:
        xs = [p[0] for p in frame.points]
        ys = [p[1] for p in frame.points]
        assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(size, abs=1e-9)
        marks = page.layers["marks"].items
        for cx in (min(xs), max(xs)):  # each vertical edge line is extended above and below the card
            assert sum(1 for m in marks if all(abs(p[0] - cx) < 1e-9 for p in m.points)) >= 2


def test_no_paper_note_without_paper_option():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chip_sheets(PageSettings(), 50, "road")
    assert not caught


# --- bad input ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turns", "0", "--track", "road"], "field '--turns': a race of 0 turns cannot be run"),
        (["--turns", "abc", "--track", "road"], "field '--turns': 'abc' is not a whole number of turns"),
        (["--turns", "50", "--track", "dirt"], "field '--track': unknown track type 'dirt' — use one of road"),
        (
            ["--turns", "50", "--track", "road", "--extras", "accident=1,wreck=2"],
            "the extras add up to 3 chips, but a 50-turn race has 2",
        ),
        (["--turns", "35", "--track", "road", "--extras", "wreck=1"], "a 35-turn race has none"),
        (["--turns", "50", "--track", "road", "--extras", "tyres=2"], "'tyres' is not a chip space"),
        (["--turns", "50", "--track", "road", "--extras", "wreck=1,wreck=1"], "wreck is given twice"),
        (["--turns", "50", "--track", "road", "--card", "b5"], "unknown card size 'b5'"),
        (["--turns", "fifty", "--track", "road"], "is not a whole number of turns"),
    ],
)
@pytest.mark.parametrize("command", [["rwb", "chips"], ["pack", "rwb-trouble"]])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, command, args, message):
    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        main([*command, *args, "-o", str(tmp_path), "-q"])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("paddock: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not any(tmp_path.iterdir())


def test_options_read_by_key_or_name():
    assert facts.parse_track("Super-Speedway") == "speedway" and facts.parse_track("road course") == "road"
    assert facts.parse_turns(" 45 ") == 45
    with pytest.raises(InputError) as err:
        facts.parse_turns(facts.max_turns() + 1)
    assert err.value.exit_code == 2 and f"from 1 to {facts.max_turns()} turns" in str(err.value)


# --- the ACCIDENT table and the examples ------------------------------------------------------------------------


def test_accident_table_is_ceil_of_the_total_over_the_divisor():
    table = facts.accident_table()
    assert [t for t, _, _ in table] == list(range(2, 13))
    for total, ways, drivers in table:
        assert drivers == {"top": math.ceil(total / 3), "middle": math.ceil(total / 2), "bottom": total}
        assert ways == 6 - abs(total - 7)
    assert sum(w for _, w, _ in table) == 36
    for group in facts.group_keys():
        assert sum(facts.driver_chances(group).values()) == 36


def test_divisors_are_the_rulebooks():
    text = rulebook()
    found = dict(re.findall(r"If (TOP|MIDDLE) group has ACCIDENT, roll two dice and divide the total by (\d)", text))
    assert {k.lower(): int(v) for k, v in found.items()} == {"top": facts.divisor("top"), "middle": 2}
    assert "If BOTTOM group has ACCIDENT, roll two dice and use that total" in text
    assert facts.divisor("bottom") == 1 and facts.rounding() == "up"


def test_the_lookup_read_back_from_the_pdf():
    text = pdftext_rows(pdf_text(pdf_of(tables_page(A4))))
    for total, ways, drivers in facts.accident_table():
        assert (total, ways, drivers["top"], drivers["middle"], drivers["bottom"]) in text


def pdftext_rows(text: str) -> set[tuple[int, ...]]:
    """The lookup's rows from the PDF's text: total, ways out of 36, TOP, MIDDLE, BOTTOM (the example marks
    dropped)."""
    text = flat(re.sub(r"ex\. \d", " ", text))
    rows = re.findall(r"(?<!\S)(\d+) (\d+)/36 · [\d.]+ % (\d+) (\d+) (\d+)(?!\S)", text)
    return {tuple(int(v) for v in r) for r in rows}


def test_rulebook_examples_agree_with_the_table_and_appear_on_the_sheet():
    text = rulebook()
    found = [tuple(int(v) for v in m) for m in re.findall(r"a (\d) and a (\d), for a total of (\d+)", text)]
    examples = facts.accident_examples()
    assert [(*ex.dice, ex.total) for ex in examples] == found == [(3, 5, 8), (6, 5, 11)]
    assert [(ex.group, ex.drivers) for ex in examples] == [("top", 3), ("bottom", 11)]
    assert "three drivers are involved" in text and "eleven drivers are involved" in text
    for ex in examples:
        assert ex.drivers == facts.drivers_involved(ex.total, ex.group)

    page = tables_page(A4)
    sheet = flat(pdf_text(pdf_of(page)))
    assert "Dice 3 + 5 = 8; 8 ÷ 3 = 2.67, rounded up: 3 drivers" in sheet
    assert "#6, #7 and the race leader" in sheet
    assert "Dice 6 + 5 = 11: BOTTOM takes it as it is, 11 drivers" in sheet
    # The ringed cells of the lookup are the examples' cells: the number inside each ring is what the table gives.
    rings = [c for c in page.layers["boxes"].items if isinstance(c, Circle)]
    assert len(rings) == 2
    for ring, ex in zip(rings, examples, strict=True):
        inside = [t for t in texts(page) if t.x == ring.center[0] and abs(t.y - ring.center[1]) < 1e-9]
        assert [t.text for t in inside] == [str(ex.drivers)]


def test_crash_example_is_the_rulebooks():
    text = rulebook()
    moves = re.findall(r"Driver #\s?(\d+) rolls (\d).*?#\s?(\d+)", text, re.S)
    ex = facts.crash_example()
    assert [(d.driver, d.roll, d.to) for d in ex.dropped] == [tuple(int(v) for v in m) for m in moves]
    sheet = flat(pdf_text(pdf_of(procedures_page(A4))))
    assert "#15 rolls 6 and drops to 21st, now in the BOTTOM group" in sheet


def test_crash_flow_chart_has_every_step_and_arrow():
    page = procedures_page(A4)
    flow = facts.sheets().procedures.flow
    joined = " ".join(t.text for t in texts(page))
    for key in ("first_pass", "second_pass", "repair_pass", "out"):
        assert getattr(flow, key) in joined
    heads = [p for p in page.layers["rules"].items if isinstance(p, Polygon)]
    assert len(heads) == 11  # 6 down the chain, 3 to the outcomes, 2 into the closing step
    shapes = page.layers["boxes"].items
    assert sum(isinstance(s, Polygon) and len(s.exterior) == 6 for s in shapes) == 3  # the three questions
    assert "2d6" not in joined and "ESCAPE range" not in joined  # never the base game's ranges


# --- the tracker -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("turns", "track"), [(20, "short"), (50, "road"), (120, "speedway")])
def test_tracker_is_sized_for_the_race(turns, track):
    plan = facts.chip_plan(turns, track)
    pages = tracker_pages(plan, A4)
    grid = [t for t in texts(pages[0]) if t.font == "condensed" and t.size < 2.4 and t.text.isdigit()]
    assert [int(t.text) for t in grid][:turns] == list(range(1, turns + 1))
    numbers = [int(t.text) for p in pages for t in texts(p) if t.anchor == "middle" and t.text.isdigit()]
    rows = max(numbers)
    assert rows % plan.total == 0 and rows >= 2 * plan.total  # whole rounds of the race's chips, two at least
    boxes = [b for p in pages for b in p.layers["boxes"].items if isinstance(b, Polygon | Polyline)]
    rounds = rows // plan.total
    assert len(boxes) == rounds * plan.total  # one tick box per chip in every round


# --- the pack ----------------------------------------------------------------------------------------------------


def test_pack_sheets_and_paper(tmp_path):
    settings = PageSettings(paper=PaperChoice("a3"), edge=12.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sheets = build(settings, turns=50, track="road")
        for sheet in sheets:
            prepare(sheet, settings)
    names = [s.name for s in sheets]
    assert names[:5] == ["chip-card", "chip-card-backs", "tables", "procedures", "tracker"]
    assert names[5:] and all(re.fullmatch(r"rules(-\d+)?", n) for n in names[5:])  # the rule summary, page by page
    assert {s.page.paper.name for s in sheets} == {"a3"}
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "unprintable edge" in m or "does not fit" in m or "run" in m], messages


@pytest.mark.parametrize("paper", [None, "letter"])
def test_pack_has_no_layout_warnings(paper):
    """Every card size and track, A4 and Letter: nothing overflows, nothing shrinks below the legible floor (the
    only note is the card keeping its own size when --paper names a paper)."""
    settings = PageSettings(paper=PaperChoice(paper) if paper else None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for track, card in (("road", "index"), ("oval", "a7"), ("speedway", "a6")):
            for sheet in build(settings, turns=200, track=track, card=card):
                prepare(sheet, settings)
    messages = [str(w.message) for w in caught if "keeps its own size" not in str(w.message)]
    assert not messages


def test_pack_is_byte_identical(tmp_path):
    from generator.cli import main

    blobs = []
    for run in ("a", "b"):
        with pytest.raises(SystemExit) as ex:
            main(["pack", "rwb-trouble", "--turns", "45", "--track", "oval", "-o", str(tmp_path / run), "-q"])
        assert ex.value.code == 0
        folder = tmp_path / run / "rwb-trouble"
        blobs.append({p.name: p.read_bytes() for p in sorted(folder.iterdir())})
    assert blobs[0] == blobs[1]
    assert "rwb-trouble-print.pdf" in blobs[0]
    merged = pdf_pages(blobs[0]["rwb-trouble-print.pdf"])
    rules = [n for n in blobs[0] if re.fullmatch(r"rules(-\d+)?\.pdf", n)]
    assert rules and len(merged) >= 4 + len(rules)  # and the blank backs of the pieces to cut out
    for i in range(len(merged)):
        w, h = merged[i].get_size()
        assert (round(w * 25.4 / 72, 1), round(h * 25.4 / 72, 1)) == (210.0, 297.0)


# --- the rule summary's contract ---------------------------------------------------------------------------------


def summary_strings() -> list[tuple[str, str]]:
    """Every (place, string) of summary.yaml a reader sees, placeholders unfilled."""
    data = yaml.safe_load((TEMPLATES / "summary.yaml").read_text(encoding="utf-8"))
    out = [("title", data["title"]), ("subtitle", data.get("subtitle", ""))]
    for s in data["sections"]:
        out.append(("heading", s["heading"]))
        for block in s["blocks"]:
            for kind, value in block.items():
                if kind in ("text", "reading", "write_in"):
                    out.append((kind, value))
                elif kind in ("list", "steps"):
                    out += [(kind, v) for v in value]
                elif kind == "example":
                    out += [("example", value["title"]), ("example", value["text"])]
    return out


def test_summary_placeholders_and_tables_resolve():
    data = yaml.safe_load((TEMPLATES / "summary.yaml").read_text(encoding="utf-8"))
    assert data["source"] == facts.credit()
    values = summary.values()
    tables = summary.tables()
    for _, text in summary_strings():
        for name in re.findall(r"\{(\w+)\}", text):
            assert name in values, f"summary.yaml: {{{name}}} has no value"
        text.format(**values)
    used = [b["table"] for s in data["sections"] for b in s["blocks"] if "table" in b]
    assert used and set(used) <= set(tables)
    for t in tables.values():
        assert all(len(row) == len(t["columns"]) for row in t["rows"])
    assert tables["accident_drivers"]["rows"][6] == ["8", "5/36 · 13.9 %", "3", "4", "8"]


def test_summary_numbers_are_never_typed():
    """Digits in summary.yaml's text would be numbers typed twice: every number comes from values()."""
    for place, text in summary_strings():
        assert not re.search(r"\d", re.sub(r"\{\w+\}", "", text)), (place, text)


def grams(text: str, n: int = 8) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'", ""))
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_no_sentence_of_the_rulebook_is_copied():
    """No 8 words in a row of rwb-trouble.txt in the summary (its source line too) or the sheets' wording."""
    book = grams(rulebook())
    values = summary.values()
    ours = [text.format(**values) for _, text in summary_strings()] + [facts.credit()]

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from strings(v)
        elif isinstance(node, list):
            for v in node:
                yield from strings(v)

    ours += list(strings(yaml.safe_load((TEMPLATES / "sheets.yaml").read_text(encoding="utf-8"))))
    for text in ours:
        copied = grams(text) & book
        assert not copied, (text, sorted(copied)[:3])
