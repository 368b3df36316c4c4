"""Rule summaries, for every registered game that has one (``templates/<game>/summary.yaml``): numbers read back
from the PDF, the same tables in the Markdown, Paddock's own words (no 8-word run from a rulebook), page limits,
no text outside its column or under 7 pt, no heading at a column's foot, and the booklet's saddle-stitch order."""

from __future__ import annotations

import re
import unicodedata
import warnings
from functools import cache
from pathlib import Path

import pytest
from conftest import pdf_pages, pdf_text, pdftotext

from generator import writers
from generator.compose import booklet as B
from generator.compose import summary as S
from generator.compose import summary_layout as L
from generator.fonts import text_width
from generator.games import summaries
from generator.paper import PageSpec, Paper
from generator.scene import Document, Text, bounds, walk
from generator.units import pt_to_mm
from generator.writers.markdown import WRITE_IN_MD, markdown

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "rules"
GAMES = [g.id for g in summaries.games_with_summary()]
PAGE_LIMIT = {"formula-d": 6}  # A4 pages with every optional rule; without them every game fits 4
A4 = PageSpec(L.PAPER)
BOOKLET = PageSpec(B.BOOKLET_PAPER)


@cache
def summary(game: str) -> S.Summary:
    return summaries.load(game)


@cache
def layout(game: str, spec: PageSpec = A4, booklet: bool = False, optional: bool = True) -> tuple[L.Layout, list]:
    """The composed summary and the warnings composing it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = L.compose(summary(game).only(optional), spec, booklet=booklet)
    return result, [str(w.message) for w in caught]


@cache
def pdf(game: str, booklet: bool = False) -> bytes:
    result, _ = layout(game, BOOKLET if booklet else A4, booklet)
    (blob,) = writers.render(Document(result.pages, "summary"), "pdf")
    return blob


def used_tables(s: S.Summary) -> list[S.Table]:
    return [b.table for sec in s.sections for b in sec.blocks if b.kind == "table"]


def test_some_games_have_a_summary():
    assert {"f1-dice", "formula-d"} <= set(GAMES)


# -- numbers and tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_table_of_the_game_is_printed(game):
    s = summary(game)
    assert {t.name for t in used_tables(s)} == set(s.tables), "a table of tables() that summary.yaml never shows"


@pytest.mark.parametrize("game", GAMES)
def test_every_number_of_every_table_reads_back_from_the_pdf(game, tmp_path):
    texts = [pdf_text(pdf(game))]
    path = tmp_path / "summary.pdf"
    path.write_bytes(pdf(game))
    poppler = pdftotext(path)
    if poppler is not None:
        texts.append(poppler)
    for text in texts:
        printed = set(re.findall(r"\d+", text))
        for table in used_tables(summary(game)):
            for row in table.rows:
                for cell in row:
                    for number in re.findall(r"\d+", cell or ""):
                        assert number in printed, f"{game}: table '{table.name}' cell {cell!r}"
            for title in table.columns:
                for word in title.split():
                    assert word in text, f"{game}: table '{table.name}' header {title!r}"


def markdown_tables(md: str) -> list[list[list[str]]]:
    """The Markdown's tables: rows of cells (the alignment row left out), in order."""
    tables, current = [], []
    for line in md.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


@pytest.mark.parametrize("game", GAMES)
def test_the_markdown_holds_the_same_tables(game):
    s = summary(game)
    got = markdown_tables(markdown(s))
    want = []
    for table in used_tables(s):
        n = len(table.columns)
        rows = [list(table.columns)] + [
            [WRITE_IN_MD if v is None else v.replace("|", "\\|") for v in row] + [""] * (n - len(row))
            for row in table.rows
        ]
        want.append(rows)
    assert got == want


@pytest.mark.parametrize("game", GAMES)
def test_the_markdown_holds_every_section_and_block(game):
    s = summary(game)
    md = markdown(s)
    for section in s.sections:
        assert f"## {section.heading}" in md
        for b in section.blocks:
            for text in (b.text, *b.items):
                assert text in md
    assert s.credit in md and "{" not in md.replace("\\{", "")


# -- words -----------------------------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", text)


def grams(tokens: list[str], n: int = 8) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


@cache
def rulebook_grams() -> frozenset:
    if not RULES.is_dir():
        pytest.skip("the rulebooks (../shared/rules) are not beside the project")
    out: set = set()
    for path in sorted(RULES.glob("*.txt")):
        out |= grams(words(path.read_text(encoding="utf-8")))
    return frozenset(out)


@pytest.mark.parametrize("game", GAMES)
def test_no_eight_words_in_a_row_come_from_a_rulebook(game):
    book = rulebook_grams()
    copied = []
    for text in summary(game).strings():
        for g in grams(words(text)) & book:
            copied.append(" ".join(g))
    assert not copied, f"{game}: copied from a rulebook: {copied[:5]}"


def test_the_eight_word_check_catches_a_copied_sentence():
    line = "Two cars side by side block the track, if the next player rolls a value that would pass them"
    assert grams(words(line)) & rulebook_grams()


@pytest.mark.parametrize("game", GAMES)
def test_every_placeholder_resolves(game):
    raw = "\n".join(
        line
        for line in summaries.summary_path(game).read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#")
    )
    names = set(re.findall(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})", raw))
    from generator import games

    have = set(games.get(game).values())
    assert names <= have, f"placeholders values() does not give: {sorted(names - have)}"
    for text in summary(game).strings():
        assert not re.search(r"\{[A-Za-z_]\w*\}", text), text


def test_the_board_action_squares_and_race_reach_the_f1_dice_summary():
    from generator.games.f1_dice.facts import RaceFacts

    # a board ruled every 5th unit (its unit 15 in a tunnel): the summary lists the units the board marks
    race = RaceFacts(lap_units=40, action_every=5, laps=4, laps_default=True, action_units=(5, 10, 20, 25, 30, 35, 40))
    five = " ".join(summaries.load("f1-dice", race_facts=race).strings())
    assert "every 5th unit" in five and "every 10th" not in five
    assert "(on this board: units 5, 10, 20, 25, 30, 35 and 40)" in five
    assert f"4 laps of 40 units (160 units), about {race.rounds} rounds" in five
    plain = " ".join(summary("f1-dice").strings())
    assert "Every 10th unit is an action square (units 10, 20, 30 and so on)" in plain


# -- layout ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_page_limits(game):
    full, _ = layout(game)
    assert full.logical_pages <= PAGE_LIMIT.get(game, 4)
    core, _ = layout(game, optional=False)
    assert core.logical_pages <= 4
    assert len(pdf_pages(pdf(game))) == full.logical_pages


FORMS = [("a4", A4, False), ("letter", PageSpec(Paper("letter", "portrait")), False), ("booklet", BOOKLET, True)]


@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
@pytest.mark.parametrize("game", GAMES)
def test_no_text_leaves_its_column_none_under_7_pt_and_nothing_warns(game, form):
    """Every line lies inside its column (or the title block, or the footer): none overflows into the gutter,
    the next column or the foot of the page."""
    _, spec, booklet = form
    result, warned = layout(game, spec, booklet)
    assert not warned
    for page, boxes in zip(result.pages, result.boxes, strict=True):
        assert (page.width, page.height) == (spec.width, spec.height)
        for item in walk(page.items()):
            if not isinstance(item, Text):
                continue
            assert item.size >= pt_to_mm(7) - 1e-9, item.text
            x0, y0, x1, y1 = bounds([item])
            assert any(
                bx - 0.01 <= x0 and x1 <= bx + bw + 0.01 and by - 0.01 <= y0 and y1 <= by + bh + 0.01
                for bx, by, bw, bh in boxes
            ), f"{item.text!r} leaves its column"


@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
@pytest.mark.parametrize("game", GAMES)
def test_no_heading_ends_a_column(game, form):
    _, spec, booklet = form
    result, _ = layout(game, spec, booklet)
    columns: dict[tuple[int, int], list] = {}
    for p in result.placements:
        columns.setdefault((p.page, p.column), []).append(p.chunk.kind)
    for where, kinds in columns.items():
        assert kinds[-1] != "heading", f"{game}: a heading ends column {where}"
    for a, b in zip(result.placements, result.placements[1:], strict=False):
        if a.chunk.kind == "heading":
            assert (a.page, a.column) == (b.page, b.column)


@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
@pytest.mark.parametrize("game", GAMES)
def test_numbered_steps_stay_in_one_column(game, form):
    """A list of numbered steps is read in one go: never split over a column or a page (a booklet's page)."""
    _, spec, booklet = form
    result, _ = layout(game, spec, booklet)
    kinds = {(n, i): b.kind for n, sec in enumerate(summary(game).sections) for i, b in enumerate(sec.blocks)}
    where: dict[tuple[int, int], set] = {}
    for p in result.placements:
        if p.chunk.block is not None and kinds[p.chunk.block] == "steps":
            where.setdefault(p.chunk.block, set()).add((p.page, p.column))
    assert where, f"{game} has numbered steps"
    for block, places in where.items():
        assert len(places) == 1, f"{game}: the steps of section {block[0] + 1} break over {sorted(places)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_last_page_shares_its_text_between_its_columns(game):
    """No blank column at the end: the last page's text is shared between its columns (as evenly as the blocks
    that stay whole allow)."""
    result, _ = layout(game)
    last = result.placements[-1].page
    ends = {}
    for p in result.placements:
        if p.page == last:
            ends[p.column] = max(ends.get(p.column, 0.0), p.y + p.chunk.height)
    assert len(ends) == result.columns, f"{game}: a column of the last page is blank"
    assert max(ends.values()) <= 0.75 * sum(ends.values())


def test_backticks_print_as_bold_not_as_backticks():
    from generator.compose.summary_chunks import printed

    assert (
        printed("No piecepack? `paddock pack motox` prints one.") == "No piecepack? **paddock pack motox** prints one."
    )
    assert printed("**run `paddock check`**") == "**run paddock check**"
    text = pdf_text(pdf("motox"))
    assert "`" not in text and "paddock motox check" in text
    assert "`paddock motox check`" in markdown(summary("motox"))  # Markdown keeps them: it shows them as code


# -- the booklet -----------------------------------------------------------------------------------------------


def test_saddle_stitch_order():
    assert B.imposition(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert B.imposition(4) == [(4, 1), (2, 3)]
    sides = B.imposition(12)
    assert sides[:2] == [(12, 1), (2, 11)] and sides[-2:] == [(8, 5), (6, 7)]
    for n in (4, 8, 12, 16):  # every sheet side's pages add up to n + 1, and each page appears once
        sides = B.imposition(n)
        assert all(a + b == n + 1 for a, b in sides)
        assert sorted(p for side in sides for p in side) == list(range(1, n + 1))
    with pytest.raises(ValueError):
        B.imposition(6)


@pytest.mark.parametrize("game", GAMES)
def test_the_booklet_front_cover_carries_no_print_footer(game):
    """The sheet's one-line print footer (title and paper) goes under the left-hand page: on the first side that is
    the back cover, so the front cover (right of the fold) has nothing but the summary's own page footer."""
    from generator.compose.printcheck import LAYER
    from generator.paper import PageSettings
    from generator.pipeline import Sheet, prepare

    settings = PageSettings()
    pages = summaries.summary_pages(summary(game), settings, booklet=True)
    for k, page in enumerate(pages):
        (printed_page,) = prepare(Sheet(f"side-{k}", page), settings)
        footer = [t for t in walk(printed_page.layers[LAYER].items) if isinstance(t, Text)]
        assert len(footer) == 1 and "landscape" in footer[0].text
        assert bounds(footer)[2] <= printed_page.width / 2 - B.FOLD_MARGIN + 0.01, "the footer crosses the fold"


@pytest.mark.parametrize("game", GAMES)
def test_booklet_pages_are_a_multiple_of_4_in_saddle_stitch_order(game):
    result, _ = layout(game, BOOKLET, True)
    n = result.logical_pages
    assert n % 4 == 0 and n >= 4
    assert result.order == [list(side) for side in B.imposition(n)]
    doc = pdf_pages(pdf(game, booklet=True))
    assert len(doc) == n // 2
    for k, (left, right) in enumerate(B.imposition(n)):
        page = doc[k]
        w, h = page.get_size()
        assert (round(w), round(h)) == (842, 595)  # A4 landscape in points
        tp = page.get_textpage()
        for number, x0, x1 in ((left, 0, w / 2), (right, w / 2, w)):
            half = tp.get_text_bounded(left=x0, bottom=0, right=x1, top=h)
            if number <= max(p.page + 1 for p in result.placements):
                side = "left" if x0 == 0 else "right"
                assert f"{number} / {n}" in half, f"page {number} is not on the {side} of sheet side {k + 1}"
            else:  # a blank page made up to the multiple of 4
                assert f"/ {n}" not in half


# -- reading the file ------------------------------------------------------------------------------------------


def write_summary(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "summary.yaml"
    path.write_text('title: "Test"\nsource: "A rulebook"\nsections:\n' + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '  - heading: "A"\n    blocks:\n      - text: "Roll {dice} dice."\n',
            r":6: field 'sections\[0\]\.blocks\[0\]\.text': unknown placeholder \{dice\}",
        ),
        (
            '  - heading: "A"\n    blocks:\n      - table: nope\n',
            r":6: field 'sections\[0\]\.blocks\[0\]\.table': no table 'nope'",
        ),
        (
            '  - heading: "A"\n    blocks:\n      - text: "x"\n        list: ["y"]\n',
            r":6: field 'sections\[0\]\.blocks\[0\]': a block is exactly one of",
        ),
        (
            '  - heading: "Race 🏎"\n    blocks:\n      - text: "x"\n',
            r":4: field 'sections\[0\]\.heading': characters the bundled font",
        ),
        ('  - heading: "A"\n    blok:\n      - text: "x"\n', r":5: field 'sections\[0\]\.blok': unknown field"),
    ],
)
def test_a_bad_summary_names_file_line_and_field(tmp_path, body, message):
    from generator.errors import InputError

    path = write_summary(tmp_path, body)
    with pytest.raises(InputError, match=message) as info:
        S.read(path, "test", {"laps": 2}, {})
    assert info.value.exit_code == 2 and str(path) in str(info.value)


def test_a_short_row_spans_and_none_is_a_write_in_box(tmp_path):
    path = write_summary(tmp_path, '  - heading: "A"\n    blocks:\n      - table: t\n')
    s = S.read(path, "test", {}, {"t": {"columns": ["Roll", "Result", "WP"], "rows": [[1, "x", None], [7, "Out."]]}})
    md = markdown(s)
    assert f"| 1 | x | {WRITE_IN_MD} |" in md and "| 7 | Out. |  |" in md
    result = L.compose(s, A4)
    texts = [i.text for i in walk(result.pages[0].items()) if isinstance(i, Text)]
    assert "Out." in texts and "None" not in texts


def test_the_markdown_centres_the_columns_the_pdf_centres(tmp_path):
    from generator.compose.blocks import auto_columns

    path = write_summary(tmp_path, '  - heading: "A"\n    blocks:\n      - table: t\n')
    rows = [[1, "Out of the race, in words", "x"], ["2–3", "Spin; lose a turn.", "y"], [4, "Only this cell spans"]]
    t = {"columns": ["Roll", "Result", {"title": "Wet", "align": "start"}], "rows": rows}
    s = S.read(path, "test", {}, {"t": t})
    assert "| :---: | --- | --- |" in markdown(s)
    (table,) = s.tables.values()
    assert table.align() == ("middle", "start", "start")
    assert [c.align for c in auto_columns(table.columns, table.rows, 150, aligns=table.aligns)] == list(table.align())


def test_bold_runs_keep_their_spaces():
    from generator.compose.blocks import rich_wrap

    (line,) = rich_wrap("**Blocked.** Two cars side by side.", 500, 3.0)
    assert line == [("Blocked. ", "bold"), ("Two cars side by side.", "regular")]
    assert "".join(t for t, _ in line) == "Blocked. Two cars side by side."
    lines = rich_wrap("a **b** c " * 40, 40, 3.0)
    assert all(sum(text_width(t.rstrip(), 3.0, f) for t, f in ln) <= 40 + 1e-6 for ln in lines)


# -- command and packs -----------------------------------------------------------------------------------------


def run(*args: str) -> int:
    from generator.cli import main

    with pytest.raises(SystemExit) as info:
        main(list(args))
    return info.value.code


def test_paddock_rules_writes_pdf_pages_and_markdown(tmp_path, capsys):
    assert run("rules", "--list") == 0
    listed = capsys.readouterr().out
    assert all(f"{g}:" in listed for g in GAMES)
    assert run("rules", "f1-dice", "-o", str(tmp_path), "-f", "pdf,md", "-q") == 0
    folder = tmp_path / "f1-dice"
    md = (folder / "f1-dice-rules.md").read_text(encoding="utf-8")
    assert md == markdown(summary("f1-dice"))
    merged = folder / "f1-dice-rules.pdf"
    assert len(pdf_pages(merged)) == layout("f1-dice")[0].logical_pages
    assert run("rules", "f1-dice", "-o", str(tmp_path / "b"), "-f", "pdf", "--booklet", "-q") == 0
    assert (tmp_path / "b" / "f1-dice" / "f1-dice-rules-booklet.pdf").is_file()


def test_paddock_rules_md_alone_writes_only_markdown(tmp_path):
    assert run("rules", "formula-d", "-o", str(tmp_path), "-f", "md", "--no-optional", "-q") == 0
    (only,) = list((tmp_path / "formula-d").iterdir())
    assert only.name == "formula-d-rules.md" and "*(optional)*" not in only.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rules", "chess"), "unknown game 'chess'"),
        (("rules",), "name a game"),
        (
            ("rules", "f1-dice", "-f", "pdf,doc"),
            "unknown format 'doc' — use a comma-separated list of pdf, svg, png, md",
        ),
    ],
)
def test_paddock_rules_refuses_bad_input_in_one_line(tmp_path, capsys, args, message):
    assert run(*args, "-o", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_same_input_same_bytes():
    result, _ = layout("formula-d")
    (again,) = writers.render(Document(L.compose(summary("formula-d"), A4).pages, "summary"), "pdf")
    assert again == pdf("formula-d") and result.pages


def test_the_f1_dice_pack_carries_its_summary_with_the_boards_action_squares(tmp_path):
    from generator.games.f1_dice import pack
    from generator.paper import PageSettings
    from generator.track import default_spec

    spec = tmp_path / "fives.yaml"
    spec.write_text(default_spec().read_text(encoding="utf-8") + "action_every: 5\n", encoding="utf-8")
    sheets = pack.build(PageSettings(), track=spec)
    rules = [s for s in sheets if s.name.startswith("rules")]
    assert [s.name for s in rules] == [f"rules-{i + 1}" for i in range(len(rules))] or [s.name for s in rules] == [
        "rules"
    ]
    text = " ".join(i.text for s in rules for i in walk(s.page.items()) if isinstance(i, Text))
    assert "every 5th unit" in text


@pytest.mark.parametrize("ink_saver", [False, True], ids=["colour", "ink-saver"])
def test_examples_and_readings_stand_out_in_greyscale(ink_saver):
    """The example's bar prints dark and the reading note's frame shows, in greyscale and with --ink-saver."""
    from conftest import render_gray

    from generator.compose import inksaver

    result, _ = layout("f1-dice")
    pages = inksaver.apply(Document(result.pages)).pages if ink_saver else result.pages
    (blob,) = writers.render(Document(pages, "summary"), "pdf")
    dpi = 100
    seen = set()
    for p in result.placements:
        frame = p.chunk.frame
        if frame is None or frame.kind in seen:
            continue
        seen.add(frame.kind)
        (page,) = [k for k, side in enumerate(result.order) if p.page + 1 in side]
        x = [b for b in result.boxes[page] if b[2] < 120][p.column][0]  # the columns (not title, footer)
        top = min(b[1] for b in result.boxes[page]) + p.y  # placements are measured from the frame's top
        image = render_gray(blob, dpi, page)
        px = lambda mm: int(round(mm / 25.4 * dpi))  # noqa: E731
        rows = image[px(top + 1) : px(top + p.chunk.height - 1)]
        edge = rows[:, max(px(x) - 1, 0) : px(x) + 2].min(axis=1)  # the box's left edge, row by row
        inked = (edge < 170).mean()
        # the example's bar is solid (or, ink-saved, outlined); the reading's frame is dashed (60 % ink)
        assert inked > (0.9 if frame.kind == "example" else 0.4), f"the {frame.kind} box's edge: {inked:.0%} inked"
    assert seen == {"example", "reading"}
