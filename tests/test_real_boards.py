"""Issue 40: a real circuit's board says what it lost. Over the real centre lines in ../shared/circuits/ and the
suite's generated circuits, as `paddock track` and `pack f1-dice --track` draw them: every board prints its legend
(read back with pdftotext), its garages, labels and marks are clear of the track and of each other, and nothing is
drawn in the printer's unprintable edge."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import pdftotext
from shapely import Point as shapely_point
from shapely import Polygon as SPoly
from shapely import box
from synthetic_circuits import realistic
from typer.testing import CliRunner

import generator.cli.track  # noqa: F401  (registers the commands)
from generator import track
from generator.cli import app, main
from generator.compose.freespace import FreeSpace, text_box
from generator.errors import GeometryError
from generator.games.f1_dice.board import board as f1_board
from generator.paper import PageSettings
from generator.scene import Document, Text, bounds
from generator.track import legend
from generator.track.board import draw_board
from generator.track.circuit import KERB_W
from generator.units import pt_to_mm
from generator.writers import pdf

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "circuits"
REAL = sorted(SHARED.glob("*.csv"))
SEEDS = (1, 3, 4, 8)  # generated circuits (3 is traced off a map); each builds in about a second
PACKS = (("Spa", 6), ("Spa", 18), ("syn4", 10))  # f1-dice pack boards: a garage per team, a grid per field


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    """name → (circuit, page) for every board: `track` of each real and generated circuit, and pack boards."""
    folder = tmp_path_factory.mktemp("boards")
    files = {p.stem: p for p in REAL}
    for seed in SEEDS:
        files[f"syn{seed}"] = realistic(seed).write(folder / f"syn{seed}.csv")
    out = {}
    for name, path in files.items():
        c = track.Search().run(track.read_request(path)).circuit
        out[name] = (c, draw_board(c).page)
    for name, cars in PACKS:
        if name in files:
            c, sheet = f1_board(files[name], PageSettings(), cars=cars)
            out[f"{name} --cars {cars}"] = (c, sheet.page)
    return out


def _words(page) -> list[Text]:
    """The board's words off the track: title, legend, START · FINISH, PIT IN/OUT, REAL START, PODIUM, the race
    box … (numbers and tunnel tags are printed on the track or on their garage and grid slot, by design)."""
    return [
        t
        for name in ("labels", "features")
        for t in page.layer(name).items
        if isinstance(t, Text) and not re.fullmatch(r"\d+|T\d+[a-z]?", t.text)
    ]


def _box(t: Text):
    if t.valign == "middle":
        return text_box(t.text, t.x, t.y, t.size, t.font, anchor=t.anchor, pad=0.0, rotation=t.rotation)
    assert t.rotation == 0 and t.valign == "baseline", t
    x0, _, x1, _ = bounds([t])
    return box(x0, t.y - 0.72 * t.size, x1, t.y + 0.21 * t.size)  # capitals' top to the descenders' foot


def test_every_board_prints_its_legend(boards, tmp_path):
    if not REAL:
        pytest.skip("no centre lines in ../shared/circuits")
    for name, (_, page) in boards.items():
        path = tmp_path / "board.pdf"
        path.write_bytes(pdf.render(Document([page]))[0])
        text = pdftotext(path)
        if text is None:
            pytest.skip("poppler's pdftotext is not installed")
        assert "shape within" in text, name
        assert "north" in text, name  # a CSV is a map: its arrow


def test_garages_labels_and_marks_clear_of_the_track_and_each_other(boards):
    for name, (c, page) in boards.items():
        surface = c.surface()
        things = [(t.text, _box(t)) for t in _words(page)]
        assert any(text == "REAL START" for text, _ in things) == (c.real_start is not None), name
        for text, geom in things:
            assert not geom.intersects(surface), (name, text)
        if c.pit is not None:
            near = surface.buffer(KERB_W)
            garages = [SPoly(ring) for ring, _ in c.pit.garage_boxes]
            for i, g in enumerate(garages):
                assert not g.intersects(near), (name, f"garage {i + 1}")
                assert all(g.intersection(h).area < 1e-6 for h in garages[i + 1 :]), (name, f"garage {i + 1}")
            things += [(f"garage {i + 1}", g) for i, g in enumerate(garages)]
        for i, (a, ga) in enumerate(things):
            for b, gb in things[i + 1 :]:
                assert ga.intersection(gb).area < 0.01, (name, a, b)


def test_nothing_is_drawn_in_the_unprintable_edge(boards):
    for name, (_, page) in boards.items():
        x0, y0, x1, y1 = bounds(page.items())
        e = page.edge
        assert min(x0, y0) >= e - 0.05 and x1 <= page.width - e + 0.05 and y1 <= page.height - e + 0.05, name


def test_a_legend_with_no_corner_goes_apart_from_the_title_and_says_where(boards):
    c, _ = boards["Spa"] if "Spa" in boards else boards["syn1"]
    x, y, w, h = c.page.content_box
    # all paper blocked but a strip along the top with room for the title alone and, apart from it, one at the
    # bottom right with room for the legend alone, wrapped at its narrowest
    _, th = legend._Block(legend._head(c), (), where=True).size()
    size = pt_to_mm(legend.ENTRY_PT)
    narrow = [(k, tuple(legend._wrap(t, size, legend.WRAP_MM[-1]))) for k, t in legend._legend_entries(c)]
    ew, eh = legend._Block((), tuple(narrow)).size()
    right = box(x + w - ew - 3, y + h - eh - 3, x + w, y + h)
    blocked = box(x, y + th + 3, x + w, y + h).difference(right)
    free = FreeSpace(c.page.content_box, blocked)
    placed = legend._place(c, free)
    assert placed is not None and len(placed) >= 2
    title, spot = placed[0]
    assert title.head and title.where >= 1 and spot[1] < y + th + 3
    lines = [line for block, _ in placed[1:] for _, ls in block.entries for line in ls]
    said = [t for _, t in legend._legend_entries(c)]
    assert " ".join(lines).split() == " ".join(said).split()  # every line, in order, none dropped
    assert legend._where(free, placed[1][1], placed[1][0]) == "bottom right"


def test_a_legend_with_no_free_paper_is_an_error_naming_the_file(boards):
    c, _ = boards["Spa"] if "Spa" in boards else boards["syn1"]
    x, y, w, h = c.page.content_box
    free = FreeSpace(c.page.content_box, box(x, y, x + w, y + h))
    page = draw_board(c).page
    with pytest.raises(GeometryError) as err:
        legend.draw_title(page, c, free)
    assert "title and legend" in str(err.value) and str(c.source) in str(err.value)


def test_every_bent_straight_is_named_in_the_legend_and_by_check(boards):
    """The real line's straights (≥ 100 mm on the board, heading within 2°) measured on the board over their
    middle 80 %: each bent more than 10° has its line in the legend, and `check` says it (the build's changes)."""
    named = 0
    for name, (c, page) in boards.items():
        if " --cars " in name:
            continue
        legend_text = " ".join(t.text for t in page.layer("labels").items if isinstance(t, Text))
        for note in c.notes:
            if "km straight" in note:
                named += 1
                assert " ".join(note.split()[:4]) in legend_text, (name, note)
                assert note in [str(ch) for ch in c.changes], (name, note)  # what `check` lists
    assert named >= 1  # generated and real circuits do bend some (Budapest, Catalunya, Silverstone)


def test_check_names_a_bent_straight():
    path = SHARED / "Budapest.csv"
    if not path.is_file():
        pytest.skip("no Budapest.csv in ../shared/circuits")
    res = CliRunner().invoke(app, ["check", str(path)])
    assert re.search(r"units \d+–\d+: the real line's 0\.\d\d km straight \(from \d\.\d\d km\) bends \d+°", res.stdout)


def test_a_csv_begun_elsewhere_is_raced_from_its_real_start_line(tmp_path):
    """`real_start_at`: the real start/finish line of a centre line whose first point is elsewhere (a line traced
    off a map from a corner), as a distance along it: the board is the board of the line begun there."""
    syn = realistic(8)
    syn.write(tmp_path / "real.csv")
    k = len(syn.points) // 3
    rolled = syn.points[np.r_[k : len(syn.points), 0:k]]
    Synthetic = type(syn)
    Synthetic(syn.name, rolled, syn.true_line, syn.lap_m).write(tmp_path / "rolled.csv")
    xy = rolled[:, :2]
    along = float(np.hypot(*np.diff(xy, axis=0).T)[: len(xy) - k].sum())  # from the rolled file's first point
    (tmp_path / "spec.yaml").write_text(f"name: Rolled\ncsv: rolled.csv\nreal_start_at: {along:.4f}\n")
    real = track.Search().run(track.read_request(tmp_path / "real.csv")).circuit
    again = track.Search().run(track.read_request(tmp_path / "spec.yaml")).circuit
    assert again.units_count == real.units_count
    assert abs(again.fidelity.max_mm - real.fidelity.max_mm) < 1.0
    assert np.hypot(*np.subtract(again.point_at(0.0), real.point_at(0.0))) < 2.0  # the same start line


def _run(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out + out.err


def test_real_start_at_past_the_lap_or_on_segments_is_a_located_error(tmp_path, capsys):
    syn = realistic(8)
    syn.write(tmp_path / "real.csv")
    (tmp_path / "far.yaml").write_text("name: Far\ncsv: real.csv\nreal_start_at: 99999\n")
    code, out = _run(capsys, "check", tmp_path / "far.yaml")
    assert code == 2 and "far.yaml:3" in out and "real_start_at" in out and "past the end of the lap" in out
    (tmp_path / "seg.yaml").write_text(
        "name: Seg\nreal_start_at: 10\nsegments:\n  - straight: 200\n  - arc: {radius: 60, angle: 180, turn: left}\n"
        "  - straight: 200\n  - arc: {radius: 60, angle: 180, turn: left}\n"
    )
    code, out = _run(capsys, "check", tmp_path / "seg.yaml")
    assert code == 2 and "seg.yaml:2" in out and "points or a CSV" in out, out


def _real_on_page(c, csv: Path) -> np.ndarray:
    """The CSV's centre line carried onto the page as the board was placed (``source_to_page``), ~1 mm apart."""
    from generator.track.load import read_points

    sc, rot, (dx, dy) = c.source_to_page
    P = np.asarray(read_points(csv), float) * (1.0, -1.0)
    a = np.radians(rot)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    Q = P @ R.T * sc + (dx, dy)
    Q = np.vstack((Q, Q[:1]))
    u = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(Q, axis=0).T))))
    t = np.arange(0.0, u[-1], 1.0)
    return np.column_stack((np.interp(t, u, Q[:, 0]), np.interp(t, u, Q[:, 1])))


def _straights(xy: np.ndarray, chord: float) -> list[tuple[int, int]]:
    """Independently: (i, j) sample ranges of the closed 1 mm line ``xy`` at least 100 long whose heading (over
    chords ``chord`` mm) stays within 2°, longest first, none overlapping (``j`` past the lap: over the first
    point)."""
    n, k = len(xy), int(chord / 2)
    d = np.roll(xy, -k, axis=0) - np.roll(xy, k, axis=0)
    th = np.degrees(np.unwrap(np.arctan2(d[:, 1], d[:, 0])))
    th = np.concatenate((th, th + (th[-1] - th[0] + (th[1] - th[0]))))  # round the lap twice
    runs = []
    for i in range(0, n, 4):
        j, lo, hi = i, th[i], th[i]
        while j + 1 < i + n and max(hi, th[j + 1]) - min(lo, th[j + 1]) <= 2.0:
            j += 1
            lo, hi = min(lo, th[j]), max(hi, th[j])
        if j - i >= 100:
            runs.append((i, j))
    out: list[tuple[int, int]] = []
    for i, j in sorted(runs, key=lambda r: r[0] - r[1]):
        if all(j < a + m or i > b + m for a, b in out for m in (-n, 0, n)):
            out.append((i, j))
    return out


def test_bent_straights_agree_with_an_independent_measure(boards):
    """The real line carried onto the page by the board's own placement, its straights found afresh and each
    one's middle 80 % projected onto the board: every straight the board bends more than 12° this way is one the
    board names (its km within 0.15 of the legend's)."""
    from shapely import LineString

    checked = 0
    for name, (c, _) in boards.items():
        if " --cars " in name or c.source_to_page is None:
            continue
        real = _real_on_page(c, c.source)
        board = LineString(c.line.xy)
        named = [float(re.search(r"from (\d+\.\d+) km", n).group(1)) for n in c.notes if "km straight" in n]
        lap_m = len(real) / c.source_to_page[0]
        for i, j in _straights(real, 0.75 * c.unit):
            cut = (j - i) // 10
            s0, s1 = (board.project(shapely_point(real[q % len(real)])) for q in (i + cut, j - cut))
            if (s1 - s0) % c.lap_length > c.lap_length / 2:
                continue
            ts = np.linspace(s0, s0 + (s1 - s0) % c.lap_length, 200) % c.lap_length
            bend = float(np.ptp(np.degrees(np.unwrap(c.line.heading(ts)))))
            checked += 1
            if bend > 12.0:
                m0 = i / c.source_to_page[0] / 1000
                assert any(min(abs(m0 - x), lap_m / 1000 - abs(m0 - x)) < 0.15 for x in named), (name, m0, bend)
    assert checked >= 10


def test_a_board_with_problems_is_still_drawn_to_show_them():
    """A board that does not build (here: too big for its paper) is drawn for the preview to mark: its legend and
    labels where they fall, no error for the edge it runs into (its `fit` problem says so)."""
    from generator.paper import Paper

    spec, lines, path = track.load_spec(next(p for p in track.shipped() if p.stem == "oval"))
    done = track.analyse(spec, path, lines, Paper("a4", "portrait"))
    assert done.problems and done.circuit is not None
    page = draw_board(done.circuit).page
    assert any(isinstance(t, Text) and t.text == (spec.title or spec.name) for t in page.layer("labels").items)
