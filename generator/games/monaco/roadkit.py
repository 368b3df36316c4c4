"""The road kit: a circuit's road cut into pieces with its layout plan, or the modular set — as pipeline sheets.

This is what ``paddock road`` and ``paddock pack monaco`` call; it turns the user's options into page specs and
hands geometry (:mod:`.road`, :mod:`.pieces`, :mod:`.modular`) to the sheets that draw it (:mod:`.road_sheets`,
:mod:`.modular_sheet`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...paper import PageSettings
from ...scene import Sheet
from ...units import inch_to_mm
from .facts import road


@dataclass
class RoadKit:
    road: object
    pieces: list
    sheets: list[Sheet]
    paper_label: str
    sheet_count: int
    tabs: dict = field(default_factory=dict)  # piece number → its glue tabs (band frame), where it has room
    turn: float = 0.0  # degrees the circuit is turned on its plan (the frame words on the pieces read upright in)


def circuit_kit(
    spec_path: str | Path,
    settings: PageSettings,
    width: str = "double",
    lap_in: float | None = None,
    lane_width_in: float | None = None,
    car_length_in: float | None = None,
    grid: int | None = None,
    overrides: dict | None = None,
    stem: str = "road",
    tone: str = "light",
) -> RoadKit:
    """The road of a circuit spec: the plan and the sheets of pieces, numbered in lap order from the start line."""
    from .packing import add_tabs, fill_loop
    from .road import build_road, load_circuit
    from .road_plan import PAPER as PLAN_PAPER
    from .road_plan import plan_page, plan_turn
    from .road_sheets import PAPER, loop_joins, piece_pages

    circuit = load_circuit(spec_path, overrides)
    road_ = build_road(circuit, width, lap_in, lane_width_in, car_length_in, grid)
    spec = settings.document_page(PAPER)
    facts = road()
    label = spec.paper.size_label
    first_cut = -inch_to_mm(facts.start_clear_in)  # piece 1 holds the start line, this far in from its end
    pieces, packer = fill_loop(
        road_, spec.content_box, float(facts.piece_gap_mm), first_cut, label, facts.budget.pieces
    )
    count = len(packer.sheets)
    tabs = add_tabs(pieces, packer, lambda p: pieces[p.number % len(pieces)])
    plan_spec = settings.text_page(PLAN_PAPER)
    turn = plan_turn(road_, plan_spec)
    title = f"{road_.name} — road pieces"
    pages = piece_pages(
        pieces, count, spec, title, loop_joins(pieces), lambda p: f"of {len(pieces)}", -turn, tabs, tone
    )
    plan = plan_page(road_, pieces, count, plan_spec, label, turn)
    sheets = [Sheet(f"{stem}-plan", plan)]
    sheets += [Sheet(f"{stem}-{i + 1:02d}", page) for i, page in enumerate(pages)]
    return RoadKit(road_, pieces, sheets, label, count, tabs, turn)


def modular_kit(
    set_text: str | None,
    settings: PageSettings,
    width: str = "double",
    lane_width_in: float | None = None,
    car_length_in: float | None = None,
    stem: str = "modular",
    tone: str = "light",
) -> RoadKit:
    """The modular set: a cover sheet (what it holds, how many sheets, sample layouts) and the sheets of pieces."""
    from .modular import modular_pieces
    from .modular_sheet import PAPER as SET_PAPER
    from .modular_sheet import set_page
    from .packing import add_tabs, first_fit
    from .road_sheets import PAPER, piece_pages

    spec = settings.document_page(PAPER)
    x0, y0, W, H = spec.content_box
    label = spec.paper.size_label
    plan = modular_pieces(set_text, width, W, H, label, lane_width_in, car_length_in)
    packer = first_fit(plan.pieces, spec.content_box, float(road().piece_gap_mm), label)
    plan.sheets = len(packer.sheets)
    parts = {k.id: n for k, _, n in plan.entries}

    def part_of(p) -> tuple[str, int, int]:
        kind, part = p.kind.split("/")
        return kind, int(part), parts[kind]

    def joins(p):
        kind, part, n = part_of(p)
        base = p.label.rsplit("-", 1)[0] if n > 1 else p.label
        prev = f"{base}-{part - 1}" if part > 1 else None
        nxt = f"{base}-{part + 1}" if part < n else None
        return prev, nxt

    def inner(p):
        _, part, n = part_of(p)
        return part > 1, part < n

    names = {k.id: k.name for k, _, _ in plan.entries}

    def subtitle(p):
        kind, part, n = part_of(p)
        return names[kind] + (f" · part {part} of {n}" if n > 1 else "")

    tabs = add_tabs(plan.pieces, packer, lambda p: plan.pieces[p.number] if inner(p)[1] else None)
    title = f"Monaco! modular road — {width}"
    pages = piece_pages(plan.pieces, plan.sheets, spec, title, joins, subtitle, 0.0, tabs, tone, inner)
    sheets = [Sheet(f"{stem}-set", set_page(plan, settings.text_page(SET_PAPER), label))]
    sheets += [Sheet(f"{stem}-{i + 1:02d}", page) for i, page in enumerate(pages)]
    return RoadKit(None, plan.pieces, sheets, label, plan.sheets, tabs, 0.0)
