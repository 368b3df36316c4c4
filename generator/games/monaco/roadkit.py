"""The road kit: a circuit's road cut into pieces with its layout plan, or the modular set — as pipeline sheets.

This is what ``paddock road`` and ``paddock pack monaco`` call; it turns the user's options into page specs and
hands geometry (:mod:`.road`, :mod:`.pieces`, :mod:`.modular`) to the sheets that draw it (:mod:`.road_sheets`,
:mod:`.modular_sheet`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...paper import PageSettings
from ...pipeline import Sheet
from ...units import inch_to_mm
from .facts import road


@dataclass
class RoadKit:
    road: object
    pieces: list
    sheets: list[Sheet]
    paper_label: str
    sheet_count: int


def _box(spec):
    return spec.content_box


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
) -> RoadKit:
    """The road of a circuit spec: the plan and the sheets of pieces."""
    from .pieces import FIT_MARGIN, cut_loop, pack
    from .road import build_road, load_circuit
    from .road_sheets import PAPER, PLAN_PAPER, loop_joins, piece_pages, plan_page

    circuit = load_circuit(spec_path, overrides)
    road_ = build_road(circuit, width, lap_in, lane_width_in, car_length_in, grid)
    spec = settings.document_page(PAPER)
    x0, y0, W, H = spec.content_box
    clear = inch_to_mm(road().start_clear_in)
    label = spec.paper.size_label
    pieces = cut_loop(road_, W - 2 * FIT_MARGIN, H - 2 * FIT_MARGIN, [(-clear, clear)], label)
    count = pack(pieces, spec.content_box, float(road().piece_gap_mm))
    title = f"{road_.name} — road pieces"
    pages = piece_pages(pieces, count, spec, title, loop_joins(pieces), lambda p: f"of {len(pieces)}")
    plan = plan_page(road_, pieces, count, settings.text_page(PLAN_PAPER), label)
    sheets = [Sheet(f"{stem}-plan", plan)]
    sheets += [Sheet(f"{stem}-{i + 1:02d}", page) for i, page in enumerate(pages)]
    return RoadKit(road_, pieces, sheets, label, count)


def modular_kit(
    set_text: str | None,
    settings: PageSettings,
    width: str = "double",
    lane_width_in: float | None = None,
    car_length_in: float | None = None,
    stem: str = "modular",
) -> RoadKit:
    """The modular set: a cover sheet (what it holds, how many sheets) and the sheets of pieces."""
    from .modular import modular_pieces
    from .modular_sheet import PAPER as SET_PAPER
    from .modular_sheet import set_page
    from .pieces import pack
    from .road_sheets import PAPER, piece_pages

    spec = settings.document_page(PAPER)
    x0, y0, W, H = spec.content_box
    label = spec.paper.size_label
    plan = modular_pieces(set_text, width, W, H, label, lane_width_in, car_length_in)
    plan.sheets = pack(plan.pieces, spec.content_box, float(road().piece_gap_mm))
    names = {p.kind.split("/")[0]: p for p in plan.pieces}
    del names

    def joins(p):
        kind, part = p.kind.split("/")
        part = int(part)
        parts = next(n for k, _, n in plan.entries if k.id == kind)
        base = p.label.rsplit("-", 1)[0] if parts > 1 else p.label
        prev = f"{base}-{part - 1}" if part > 1 else None
        nxt = f"{base}-{part + 1}" if part < parts else None
        return prev, nxt

    def subtitle(p):
        kind = p.kind.split("/")[0]
        return next(k.name for k, _, _ in plan.entries if k.id == kind)

    title = f"Monaco! modular road — {width}"
    pages = piece_pages(plan.pieces, plan.sheets, spec, title, joins, subtitle)
    sheets = [Sheet(f"{stem}-set", set_page(plan, settings.text_page(SET_PAPER), label))]
    sheets += [Sheet(f"{stem}-{i + 1:02d}", page) for i, page in enumerate(pages)]
    return RoadKit(None, plan.pieces, sheets, label, plan.sheets)
