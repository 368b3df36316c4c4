"""Playing Formula D from the pack alone (issue 31): racing with ordinary dice, pieces to cut out, write-ins blank
unless --house-rules fills them (as suggestions), the race length everywhere, a road race's cards, the uncertain
GT value, lane changes drawn where spaces are offset, corner zones tinted."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import pytest
from shapely import Point
from shapely import Polygon as SPoly

from generator.games.formula_d import facts, pack
from generator.games.formula_d.overlay import CORNER_TINT, LAYER, arrow_points, lane_changes
from generator.games.formula_d.overlay import load_circuit as board_of
from generator.paper import PageSettings
from generator.scene import Circle, Polygon, Polyline, Text, walk
from generator.track.spaces import LEVEL, numbered_spaces

PLAYERS = "Ann,Béla,Csaba,Dóra,Ede,Flóra,Géza"


def words(sheets, prefix: str) -> str:
    pages = [s.page for s in sheets if s.name.startswith(prefix)]
    return " ".join(t.text for p in pages for ly in p.layers.values() for t in walk(ly.items) if isinstance(t, Text))


@pytest.fixture(scope="module")
def plain():
    return pack.build(PageSettings(), players="Ann,Béla,Csaba")


@pytest.fixture(scope="module")
def road():
    """A road race with the house rules, a one-lap race and the weather (so every GT driver may race)."""
    return pack.build(PageSettings(), players=PLAYERS, gt=True, weather=True, house_rules=True, laps=1)


# --- racing with ordinary dice ------------------------------------------------------------------------------


def distribution(recipe: str) -> Counter:
    """The moves a recipe of the table gives, each as often as its rolls: ``d6 + 6`` or ``d8: 1 = 4, 3–4 = 6``."""
    m = re.fullmatch(r"d(\d+) \+ (\d+)", recipe)
    if m:
        sides, add = int(m[1]), int(m[2])
        return Counter(roll + add for roll in range(1, sides + 1))
    sides, parts = re.fullmatch(r"d(\d+): (.*)", recipe).groups()
    out: Counter = Counter()
    for part in parts.split(", "):
        rolls, value = part.split(" = ")
        lo, _, hi = rolls.partition("–")
        out[int(value)] += int(hi or lo) - int(lo) + 1
    assert sum(out.values()) == int(sides)
    return out


def test_ordinary_dice_give_each_gear_dies_distribution_exactly():
    for gear in facts.rules().gears:
        faces = facts.dice().faces(gear.gear)
        assert (min(faces), max(faces)) == (gear.min, gear.max)  # the rulebook's ranges
        got = distribution(facts.ordinary_dice(faces))
        n, total = len(faces), sum(got.values())
        want = {v: Fraction(c, n) for v, c in Counter(faces).items()}
        assert {v: Fraction(c, total) for v, c in got.items()} == want, gear.gear
    assert facts.dice().faces(2) == (2, 3, 3, 4, 4, 4)  # the faces
    assert facts.ordinary_dice((21, 22, 23, 24, 25, 26, 27, 28, 29, 30)) == "d10 + 20"


def test_the_table_is_on_a_card_and_in_the_rules(plain):
    for name in ("reference", "rules"):
        text = words(plain, name)
        assert "d6: 1 = 2, 2–3 = 3, 4–6 = 4" in text and "d10 + 20" in text, name


# --- pieces -------------------------------------------------------------------------------------------------


def test_pieces_hold_a_token_per_player_and_a_spare_and_the_damage_markers(plain):
    (sheet,) = [s for s in plain if s.name == "pieces"]
    page = sheet.page
    length, width = facts.sheets().token.length, facts.sheets().token.width
    cut = [i for i in walk(page.layer("pieces-cut").items)]
    boxes = [i for i in cut if isinstance(i, Polyline) and i.closed]
    discs = [i for i in cut if isinstance(i, Circle)]
    assert len(boxes) == 2 * 3 and len(discs) == facts.game().markers.damage
    for b in boxes:  # true size: a token sits in one space (a lane is 16 mm wide, a space ~24 mm long)
        xs, ys = [p[0] for p in b.points], [p[1] for p in b.points]  # a closed polyline's corners
        assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx((length, width))
    assert all(2 * d.r < facts.board().lane_width for d in discs)
    names = Counter(t.text for t in walk(page.layer("pieces-text").items) if isinstance(t, Text))
    assert names["Ann"] == names["Béla"] == names["Csaba"] == 2
    assert page.paper.name == "a4" and page.spec.to_scale


# --- write-ins and house rules ------------------------------------------------------------------------------


def test_write_ins_stay_blank_without_house_rules(plain):
    every = " ".join(words(plain, n) for n in ("board", "reference", "dashboards", "rules"))
    mark = facts.house().mark
    assert "House rules" not in every and "suggested" not in every.replace("suggested by Paddock (not in", "")
    assert not re.search(r"\d" + re.escape(mark), every)


def test_house_rules_fill_them_as_suggestions(road):
    h = facts.house()
    cards = words(road, "reference")
    assert h.title in cards and h.brake_wp_per_space.reason in cards and h.weather.reason in cards
    assert f"{h.engine_wp_skip_3.value}{h.mark}" in cards  # the downshift table's engine WP
    assert all(f"{v}{h.mark}" in cards for v in h.weather.value)  # the weather chart's die ranges
    assert f"{h.brake_wp_per_space.value}{h.mark}" in cards and h.note in cards  # the brake write-in, said so
    assert f"{h.engine_wp_skip_3.value}{h.mark}" in words(road, "dashboards")
    rules = words(road, "rules")
    assert f"Paddock suggests {h.brake_wp_per_space.value} as a house rule" in rules
    assert f"(suggested: {h.pit_min_roll.value})" in rules


def test_house_rules_fill_the_boards_pit_box_in_grey_and_say_so():
    sheets = pack.build(PageSettings(), players="Ann", house_rules=True)
    text = words(sheets, "board")
    roll = str(facts.house().pit_min_roll.value)
    layer = sheets[0].page.layer(LAYER)
    inks = {t.color for t in walk(layer.items) if isinstance(t, Text) and t.text == roll}
    assert "suggested" in text and inks and "#1a1a1a" not in inks
    # the spec's own number (or --pit-roll) is no suggestion
    sheets = pack.build(PageSettings(), players="Ann", house_rules=True, pit_roll=6)
    assert "suggested" not in words(sheets, "board")


# --- the race length, a road race's cards, the uncertain GT value -------------------------------------------


def test_the_race_length_is_on_the_board_the_cards_the_scorecards_and_the_rules(road, plain):
    assert "RACE: 1 LAP" in words(road, "board") and "RACE: 2 LAPS" in words(plain, "board")
    assert "The race is 1 lap " in words(road, "reference")
    assert "win a race of 1 lap by" in words(road, "rules")
    from generator.games.formula_d.scorecard import LAP_BOXES

    for sheets, boxes in ((road, 1), (plain, LAP_BOXES)):
        page = next(s.page for s in sheets if s.name.startswith("scorecards"))
        labels = [t for t in walk(page.layer("cards").items) if isinstance(t, Text) and t.text == "Lap"]
        assert labels
        row = [
            p
            for p in walk(page.layer("cards").items)
            if isinstance(p, Polyline)
            and p.closed
            and abs(p.points[0][1] - (labels[0].y - 1.6)) < 0.01
            and labels[0].x < p.points[0][0] < labels[0].x + 7 + 5 * 6
        ]
        assert len(row) == boxes


def test_a_road_race_leaves_out_the_soft_and_rain_tyre_card_and_the_pits(road, plain):
    soft = facts.rules().tyres.soft.dry  # the soft and rain tires' card: GT cars race on hard tires only
    assert soft not in words(road, "reference") and "Pit stops" not in words(road, "reference")
    assert "Road races (GT)" in words(road, "reference")
    assert soft in words(plain, "reference") and "Pit stops" in words(plain, "reference")
    assert "Circuit de la Vieille Ville" in words(road, "board")  # the road-race circuit by default


# Paddock's notices (LayoutWarning): the GT drivers' write-ins said to the user (tested in test_formula_d_race); here
# what the card prints
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
def test_washingtons_tyre_wp_is_printed_as_uncertain():
    sheets = pack.build(PageSettings(), players=PLAYERS, gt=True, weather=True, laps=1)
    cards = words(sheets, "scorecards")
    assert "Stanley Washington" in cards and "WP: ____ (the text reads 1, uncertain" in cards
    rules = words(sheets, "rules")
    assert "1?" in rules and "question mark" in rules


def test_house_rules_fill_every_write_in_of_a_road_race_marked_as_house_rules(road):
    """Issue 42: the road race could not be raced (GT drivers' WP rows blank). With --house-rules every write-in
    holds a number: the GT drivers' missing WP are the standard car's, each marked as Paddock's house rule."""
    h = facts.house()
    cards = words(road, "scorecards")
    assert "WP: ____" not in cards
    standard = facts.standard_build()
    assert f"{standard['tires']}{h.mark} WP (house rule, not the rulebook's)" in cards  # Li Tsu Sin's row
    assert h.gt_wp.label in words(road, "reference") and h.gt_wp.reason[:60] in words(road, "reference")
    rules = words(road, "rules")
    assert "Paddock's house rule, not the rulebook's number" in rules and "1?" not in rules
    from generator.games.formula_d import summary

    for name, t in summary.tables(house_rules=True).items():
        assert all(v is not None for row in t["rows"] for v in row), name  # no write-in box left
    for d in facts.gt_drivers():  # legible values stay the rulebook's, unmarked
        for k, v in d.wp.items():
            if v is not None and k not in d.uncertain:
                assert facts.gt_wp_cell(d, k, True) == v


# --- the board: lane changes and corner zones ----------------------------------------------------------------


@pytest.fixture(scope="module")
def garenne():
    return board_of(None)


def test_a_diagonal_move_goes_to_the_space_level_with_the_movers_front(garenne):
    g, L = garenne.graph, garenne.lap_length
    for sp in g.spaces:
        for t in sp.diagonal:
            target = g.spaces[t]
            at = (sp.s1 + LEVEL * garenne.unit - target.s0) % L
            assert at < (target.s1 - target.s0) % L + 1e-6, (sp.id, t)  # it holds the point just past sp's end


def test_lane_changes_are_drawn_in_corners_where_spaces_are_offset(garenne):
    """Arrows where the rulebook has them — in corners ("following the arrows") — wherever the space moved to does
    not start level with the mover's front; none on the straights, where they cluttered every space (issue 42)."""
    from generator.games.formula_d.overlay import corner_marks

    g, L, u = garenne.graph, garenne.lap_length, garenne.unit_length
    corners = {i for m in corner_marks(garenne) for i in m.paths.spaces}
    drawn = set(lane_changes(garenne, corners))
    assert drawn
    for sp in g.spaces:
        for t in sp.diagonal:
            offset = abs((g.spaces[t].s0 - sp.s1 + L / 2) % L - L / 2)
            hidden = sp.hidden or g.spaces[t].hidden
            cornered = sp.id in corners or t in corners
            assert ((sp.id, t) in drawn) == (offset > LEVEL * u and not hidden and cornered)
    for a, b in drawn:  # each arrow runs from the space moved from into the space moved to
        tail, head = arrow_points(garenne, a, b)
        assert SPoly(g.spaces[a].polygon).contains(Point(tail)) and SPoly(g.spaces[b].polygon).contains(Point(head))


def test_lane_change_arrows_follow_the_lanes(garenne):
    """An arrow goes diagonally forward and bends with the corner: at its head it points along the lanes more than
    across them (it pointed straight across before, issue 42), and every point of it lies on its two spaces."""
    import math

    from shapely.ops import unary_union

    from generator.games.formula_d.overlay import arrow_path, corner_marks

    g, L = garenne.graph, garenne.lap_length
    corners = {i for m in corner_marks(garenne) for i in m.paths.spaces}
    for a, b in lane_changes(garenne, corners):
        path = arrow_path(garenne, a, b)
        both = unary_union([SPoly(g.spaces[a].polygon), SPoly(g.spaces[b].polygon)]).buffer(0.5)
        assert all(both.contains(Point(p)) for p in path), (a, b)
        (px, py), (hx, hy) = path[-3], path[-1]
        s = (g.spaces[b].s0 + 0.5 * ((g.spaces[b].s1 - g.spaces[b].s0) % L)) % L
        ax, ay = garenne.offset_point((s + 0.5) % L, 0.0)
        bx, by = garenne.offset_point((s - 0.5) % L, 0.0)
        along = (ax - bx, ay - by)
        dot = (hx - px) * along[0] + (hy - py) * along[1]
        angle = math.degrees(math.acos(dot / (math.hypot(hx - px, hy - py) * math.hypot(*along))))
        assert angle < 60, (a, b, angle)  # forward, with the race, not across it


def test_corner_zones_are_tinted_lightly_round_the_marked_spaces(garenne):
    from generator.games.formula_d.overlay import corner_marks, formula_d_board

    page = formula_d_board(circuit=garenne)
    tinted = [p for p in walk(page.layer(LAYER).items) if isinstance(p, Polygon) and p.style.fill == CORNER_TINT]
    marked = numbered_spaces(garenne) | set(garenne.danger_spaces)
    want = {i for m in corner_marks(garenne) for i in m.paths.spaces} - marked
    spaces = sorted(garenne.graph.spaces[i].polygon for i in want)
    drawn = [p.exterior for p in tinted]
    assert sorted(e for e in drawn if e in spaces) == spaces and len(drawn) == len(spaces) + 1  # and the key's
    assert all(p.style.opacity < 1 for p in tinted)


# --- over the space of inputs -------------------------------------------------------------------------------

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=20))
def test_any_die_an_edited_dice_file_gives_is_rolled_exactly_or_refused(faces):
    """Whatever faces a dice file lists, the ordinary die Paddock names gives each move exactly as often as the
    gear die would; where no single ordinary die can, it says so rather than print an approximation."""
    faces = tuple(faces)
    try:
        recipe = facts.ordinary_dice(faces)
    except ValueError:
        n = len(faces)
        counts = Counter(faces).values()
        assert not any(all(c * sides % n == 0 for c in counts) for sides in facts.ORDINARY_DICE)
        return
    got = distribution(recipe)
    total, n = sum(got.values()), len(faces)
    assert {v: Fraction(c, total) for v, c in got.items()} == {v: Fraction(c, n) for v, c in Counter(faces).items()}


@settings(max_examples=120, derandomize=True, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(lambda x: {"straight": x}, st.floats(10, 400)),
            st.builds(
                lambda r, a, t, s: {"arc": {"radius": r, "angle": a, "turn": t, "stops": s}},
                st.floats(40, 300),
                st.floats(10, 270),
                st.sampled_from(["left", "right"]),
                st.one_of(st.none(), st.integers(1, 3)),
            ),
        ),
        min_size=2,
        max_size=10,
    ),
    st.floats(0, 20),
    st.booleans(),
)
def test_a_corner_declared_on_an_arc_covers_the_arc(segments, at, reverse):
    """An arc's ``stops`` declare the corner of the units it begins and ends in, counted from the start line in
    the race direction, whatever the segments, the start and the direction: its units hold the whole arc."""
    import math

    from generator.games.formula_d.board import arc_corners
    from generator.track.model import CircuitSpec

    spec = CircuitSpec.model_validate(
        {"name": "x", "game": "formula-d", "segments": segments, "start": {"at": at, "reverse": reverse}}
    )
    L = sum(s.length for s in spec.segments)
    assume(spec.start.at * spec.unit < L)  # a start past the lap is refused by the engine ('use a smaller start.at')
    n = max(1, round(L / spec.unit))
    u = L / n
    start = spec.start.at * spec.unit
    declared = arc_corners(spec).corners or []
    arcs = [s for s in spec.segments if s.arc and s.arc.stops]
    assert len(declared) == len(arcs)
    pos, spans = 0.0, []
    for s in spec.segments:
        if s.arc and s.arc.stops:
            a, b = pos, pos + s.length
            spans.append(((start - b) % L, s.length) if reverse else ((a - start) % L, s.length))
        pos += s.length

    def covers(c, s0: float, length: float) -> bool:
        first = (c.from_ - 1) * u  # the corner's units, round the lap from its first
        covered = ((c.to - c.from_) % n + 1) * u
        if covered >= L - 1e-6:  # a corner of every unit (a lap of one unit): it holds any arc
            return True
        return (s0 - first) % L <= u + 1e-6 and (s0 - first) % L + length <= covered + 1e-6

    for s0, length in spans:
        assert any(covers(c, s0, length) for c in declared) or math.isclose(length, L, rel_tol=1e-9)
