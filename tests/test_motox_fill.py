"""No half-blank sheets of card in a MotoX pack (issue 42): three riders' cards fill their second sheet (a spare
card), a large tile's last sheet and the fold-over set's last page take the dice and pawns, a wide printer's edge
keeps the dice and pawns on one page — measured on the sheets as drawn, for the options players use."""

from __future__ import annotations

import pytest

from generator.games.motox import facts
from generator.games.motox.pack import build
from generator.paper import PageSettings, PaperChoice
from generator.scene import Text, bounds, walk

VARIANTS = {
    "default": ({}, {}),
    "three riders": ({}, {"players": 3}),
    "2.5 in tiles": ({}, {"tile_size": "2.5in"}),
    "1.5 in tiles": ({}, {"tile_size": "1.5in"}),
    "fold-over": ({}, {"duplex": "off"}),
    "short edge": ({}, {"duplex": "short"}),
    "edge 15": ({"edge": 15.0}, {}),
    "letter": ({"paper": PaperChoice("letter")}, {}),
    "letter, three riders, motox look": ({"paper": PaperChoice("letter")}, {"players": 3, "look": "motox"}),
}


def _on_card(name: str) -> bool:
    """Sheets printed on card whose face holds pieces or cards (a back page follows its front)."""
    return name.startswith(("tiles-coins", "dice-pawns", "reference")) and not name.endswith("-back")


# Paddock's notices (LayoutWarning): odd papers and edges make the reference card overflow, said to the user; here how
# full the card is
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
@pytest.mark.parametrize("variant", VARIANTS)
def test_no_sheet_of_card_is_left_half_blank(variant):
    page_kw, pack_kw = VARIANTS[variant]
    sheets = build(PageSettings(**page_kw), **pack_kw)
    names = [s.name for s in sheets]
    assert not any("pawns" in n and "dice" not in n for n in names), names  # never a page of pawns alone
    for sheet in sheets:
        if not _on_card(sheet.name):
            continue
        page = sheet.page
        _, y, _, h = page.spec.content_box
        cut = bounds(page.layers["cut"].items)
        assert cut is not None, sheet.name
        used = (cut[3] - y) / h  # from the top of the content box to the last cut line
        assert used > 0.5, f"{variant}: {sheet.name} is {used:.0%} used"
        if sheet.name.startswith("reference"):
            cards = [t for t in walk(page.layers["text"].items) if isinstance(t, Text) and "rider's card" in t.text]
            assert len(cards) == 2 or pack_kw.get("duplex") == "off", f"{variant}: {sheet.name}"
    # the four die nets and four pawns, exactly once: on the front page, the last sheet of pieces or their own page
    labels = [t.text for s in sheets for t in walk(s.page.items()) if isinstance(t, Text)]
    suits = [s.name for s in facts.suits()]
    assert sum(t in [f"{s} die" for s in suits] for t in labels) == 4, variant
    assert sum(t in [f"{s} {w}" for s in suits for w in ("pawn", "bike")] for t in labels) == 4, variant
