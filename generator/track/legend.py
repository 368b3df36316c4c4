"""The board's title block and legend (every feature the board shows, each with a swatch drawn as the board draws
it), its podium, and the words of both (``templates/board/legend.yaml``). Drawing only, on the paper the track
left free."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import box

from ..compose.freespace import FreeSpace
from ..data import template
from ..errors import GeometryError
from ..fonts import text_width
from ..scene import WHITE, Page, Polygon, Polyline, Style, Text, rect
from ..units import pt_to_mm
from ..words import ordinal
from .circuit import Circuit
from .palette import ACTION, ACTION_UNIT, ASPHALT, COUNTED, DANGER, HIDDEN, INK, KERB_RED, LINE, MUTED, PIT, POLICE

PODIUM_CLEAR = 6.0  # mm of free paper kept round the podium (track, pit lane, garages, labels)


def words() -> dict:
    """The board's labels and legend lines (``templates/board/legend.yaml``)."""
    return template("board/legend.yaml")


def _legend_entries(c: Circuit) -> list[tuple[str, str]]:
    """(swatch, line) for each feature the board shows, worded as in the legend template."""
    say = words()["legend"]
    out = [("start", say["start"])]
    nth = ordinal(c.spec.action_every)
    out.append(("action", (say["action_units"] if c.graph is None else say["action_spaces"]).format(nth=nth)))
    if c.kerbs:
        out.append(("kerb", say["kerb"]))
    if c.spec.grid:
        out.append(("grid", say["grid"].format(slots=c.spec.grid)))
    if c.pit:
        line = say["pit"] if c.pit.min_roll is None else say["pit_roll"]
        out.append(
            (
                "pit",
                line.format(
                    garages=f"{c.pit.garages} garage{'' if c.pit.garages == 1 else 's'}",
                    roll=c.pit.min_roll,
                    units=c.pit.units,
                    what="units" if c.graph is None else "spaces",
                ),
            )
        )
    if c.spec.danger:
        out.append(("danger", say["danger"]))
    if c.spec.police_line:
        out.append(("police", say["police"]))
    kinds = {cr.kind for cr in c.crossings}
    if "bridge" in kinds:
        out.append(("bridge", say["bridge"]))
    if "tunnel" in kinds:
        # per-lane boards tag each lane's pair of spaces apart (T1a, T1b …), boards ruled across one pair of units
        out.append(("tunnel", say["tunnel_lanes"] if c.graph is not None else say["tunnel"].format(what="units")))
    out += _real_circuit_entries(c, say)
    return out


def _real_circuit_entries(c: Circuit, say: dict) -> list[tuple[str, str]]:
    """A real circuit's board: how close its shape is to the real one (``shape``) and, when the source is a map,
    an arrow pointing north (swatch key ``north:<degrees clockwise from up>``)."""
    out = []
    if c.fidelity is not None:
        out.append(("shape", say["shape"].format(mm=math.ceil(c.fidelity.max_mm))))
    if c.stretch != 1.0:
        out.append(("stretch", say["stretch"].format(times=f"{c.stretch:.1f}".rstrip("0").rstrip("."))))
    if c.north is not None:
        turn = math.degrees(math.atan2(c.north[0], -c.north[1]))
        line = say["north"] if abs(turn) < 0.5 else say["north_turned"].format(deg=round(abs(turn)))
        out.append((f"north:{turn:.3f}", line))
    if c.real_start is not None:
        out.append(("real_start", c.real_start[1]))
    out += [("note", note) for note in c.notes]
    return out


TITLE_PT, COUNT_PT, SUB_PT, ENTRY_PT = 16, 11, 7, 6.5
ENTRY_LINE = 4.2  # mm from one legend line to the next
WRAP_LINE = 3.0  # mm from a wrapped line to its next
SWATCH_W = 9.0  # mm from a legend line's left edge to its text (the swatch and a gap)
WRAP_MM = (None, 100.0, 80.0, 64.0, 48.0)  # the legend's lines wrapped to these widths in turn (None: unwrapped)


def _wrap(text: str, size: float, width: float | None, font: str = "regular") -> list[str]:
    """``text`` in lines of at most ``width`` mm at ``size`` (a word longer than that stays whole)."""
    if width is None:
        return [text]
    lines, cur = [], ""
    for word in text.split(" "):
        trial = f"{cur} {word}" if cur else word
        if cur and text_width(trial, size, font) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return [*lines, cur]


@dataclass(frozen=True)
class _Block:
    """Lines to place as one box: the title's three (``head``) and/or legend entries, each wrapped."""

    head: tuple[str, ...]  # title, count, subtitle (empty for a part of the legend on its own)
    entries: tuple[tuple[str, tuple[str, ...]], ...]  # (swatch key, its wrapped lines)
    where: int = 0  # the title block of a legend placed apart in this many parts: a line more, saying where

    def size(self) -> tuple[float, float]:
        sizes = (pt_to_mm(TITLE_PT), pt_to_mm(COUNT_PT), pt_to_mm(SUB_PT))
        fonts = ("bold", "bold", "regular")
        lsize = pt_to_mm(ENTRY_PT)
        widths = [text_width(t, z, f) for t, z, f in zip(self.head, sizes, fonts, strict=False)]
        widths += [SWATCH_W + text_width(line, lsize, "regular") for _, lines in self.entries for line in lines]
        h = (sizes[0] * 1.15 + sizes[1] * 1.25 + sizes[2] * 1.5) if self.head else 0.0
        h += sum(ENTRY_LINE + (len(lines) - 1) * WRAP_LINE for _, lines in self.entries)
        h += 1.0
        if self.where:  # room for the longest it can say ("legend: bottom right, then …"), wrapped to the title's
            h += ENTRY_LINE + (len(self.where_lines(self._most(), max(widths))) - 1) * WRAP_LINE
        return max(widths), h

    def _most(self) -> str:
        return words()["legend"]["where"].format(where=", then ".join(["bottom right"] * min(self.where, 9)))

    def where_lines(self, text: str, width: float) -> list[str]:
        """The line saying where the legend is, wrapped to ``width`` (never narrower than 40 mm)."""
        return _wrap(text, pt_to_mm(ENTRY_PT), max(width, 40.0), "bold")


def _head(c: Circuit) -> tuple[str, str, str]:
    title = c.spec.title or c.name
    if c.graph is None:
        count = f"{c.units_count} units"
    else:
        count = f"{len(c.graph.spaces)} spaces (" + " · ".join(str(c.graph.count(i)) for i in range(c.lanes)) + ")"
    sub = (
        f"{c.lanes} lane{'s' if c.lanes > 1 else ''} · lap {c.lap_length / 10:.1f} cm · "
        f"unit {c.unit / 10:g} cm · {'per-lane spaces' if c.graph is not None else 'units across'}"
    )
    return title, count, sub


def _find(free: FreeSpace, block: _Block):
    """The top-left corner of a free box for ``block`` (the paper's corners first), or None."""
    w, h = block.size()
    x0, y0, x1, y1 = free.box.bounds
    prefer = [(x0, y0), (x1 - w - 2, y0), (x0, y1 - h - 2), (x1 - w - 2, y1 - h - 2)]
    spot = free.find(w + 2, h + 2, prefer)
    if spot is not None:
        free.take(box(spot[0], spot[1], spot[0] + w + 2, spot[1] + h + 2))
    return spot


def _parts(entries: list, n: int) -> list[list]:
    """``entries`` cut into ``n`` runs of about equal length, in order."""
    k = math.ceil(len(entries) / n)
    return [entries[i : i + k] for i in range(0, len(entries), k)]


def _place(c: Circuit, free: FreeSpace) -> list[tuple[_Block, tuple[float, float]]] | None:
    """Where the title and every legend line go: one box in a free corner (its lines wrapped narrower in turn);
    else the title alone and the legend beside it in as few parts as fit, each on free paper. None if some line of
    the legend finds no free paper at all."""
    head = _head(c)
    say = _legend_entries(c)
    lsize = pt_to_mm(ENTRY_PT)
    for width in WRAP_MM:
        ents = tuple((key, tuple(_wrap(text, lsize, width))) for key, text in say)
        whole = _Block(head, ents)
        spot = _find(free, whole)
        if spot is not None:
            return [(whole, spot)]
    taken = len(free.taken)
    for width in WRAP_MM[1:]:
        ents = [(key, tuple(_wrap(text, lsize, width))) for key, text in say]
        for n in sorted({1, 2, 3, 4, len(ents)}):
            del free.taken[taken:]
            title = _Block(head, (), where=len(_parts(ents, n)))
            spot = _find(free, title)
            if spot is None:
                return None
            placed = [(title, spot)]
            for part in _parts(ents, n):
                block = _Block((), tuple(part))
                at = _find(free, block)
                if at is None:
                    break
                placed.append((block, at))
            else:
                return placed
    del free.taken[taken:]
    return None


def _where(free: FreeSpace, spot: tuple[float, float], block: _Block) -> str:
    """Where on the paper a block lies, in words: "top left", "right" …"""
    x0, y0, x1, y1 = free.box.bounds
    w, h = block.size()
    fx = (spot[0] + w / 2 - x0) / (x1 - x0)
    fy = (spot[1] + h / 2 - y0) / (y1 - y0)
    row = "top" if fy < 1 / 3 else "bottom" if fy > 2 / 3 else ""
    col = "left" if fx < 1 / 3 else "right" if fx > 2 / 3 else ""
    return " ".join(p for p in (row, col) if p) or "middle"


def draw_title(page: Page, c: Circuit, free: FreeSpace) -> None:
    """The title and the whole legend on free paper: in a corner, or the legend apart from the title (the title
    then says where it is). A legend that finds no free paper is an error: a board never drops a line of it (a
    board with problems, drawn only to show them, gets it in the top left corner whatever lies there)."""
    placed = _place(c, free)
    if placed is None and c.problems:  # a board already said not to build (a preview marks it): drawn as it falls
        x0, y0, _, _ = free.box.bounds
        placed = [(_Block(_head(c), tuple((k, (t,)) for k, t in _legend_entries(c))), (x0, y0))]
    if placed is None:
        entries = _legend_entries(c)
        w, h = _Block(_head(c), tuple((k, (t,)) for k, t in entries)).size()
        raise GeometryError(
            f"{c.name}: no free paper on {c.paper.name.upper()} for the board's title and legend "
            f"({w:.0f} × {h:.0f} mm, {len(entries)} lines)",
            file=c.source,
            hint="a larger paper (--paper) or a smaller board (--fit N units)",
        )
    lab = page.layer("labels")
    parts = [_where(free, spot, block) for block, spot in placed[1:]]
    for block, spot in placed:
        x, y = spot[0] + 1, spot[1] + 1
        if block.head:
            title, count, sub = block.head
            tsize, bsize, ssize = pt_to_mm(TITLE_PT), pt_to_mm(COUNT_PT), pt_to_mm(SUB_PT)
            y += tsize * 0.95
            lab.add(Text(title, x, y, tsize, "bold", INK))
            y += bsize * 1.3
            lab.add(Text(count, x, y, bsize, "bold", KERB_RED))
            y += ssize * 1.45
            lab.add(Text(sub, x, y, ssize, "regular", MUTED))
            y += 2.2
        if block.where:
            said = list(dict.fromkeys(parts))  # in the legend's order: where it begins, then where it goes on
            text = words()["legend"]["where"].format(where=", then ".join(said))
            lines = block.where_lines(text, block.size()[0])
            for i, line in enumerate(lines):
                lab.add(Text(line, x, y + 2.6 + i * WRAP_LINE, pt_to_mm(ENTRY_PT), "bold", INK))
            y += ENTRY_LINE + (len(lines) - 1) * WRAP_LINE
        for key, lines in block.entries:
            _swatch(lab, key, x, y + 0.6, c.graph is not None)
            for i, line in enumerate(lines):
                lab.add(Text(line, x + SWATCH_W, y + 2.6 + i * WRAP_LINE, pt_to_mm(ENTRY_PT), "regular", INK))
            y += ENTRY_LINE + (len(lines) - 1) * WRAP_LINE


def _swatch(layer, key: str, x: float, y: float, spaces: bool = False) -> None:
    w, h = 7.0, 3.0
    if key == "start":
        for i in range(6):
            for j in range(2):
                col = INK if (i + j) % 2 == 0 else WHITE
                layer.add(rect(x + i * w / 6, y + j * h / 2, w / 6, h / 2, Style(stroke=None, fill=col)))
        layer.add(rect(x, y, w, h, Style(stroke=INK, width=0.2)))
    elif key == "action" and not spaces:
        layer.add(rect(x, y, w, h, Style(stroke=None, fill=ACTION_UNIT)))
        for i in range(1, 7):
            layer.add(Polyline(((x + i * 1.1 - 1.0, y + h), (x + i * 1.1 + 0.2, y)), Style(stroke=INK, width=0.4)))
        layer.add(rect(x, y, w, h, Style(stroke=INK, width=0.6)))
    elif key in ("action", "danger", "pit"):
        col = {"action": COUNTED, "danger": DANGER, "pit": PIT}[key]
        layer.add(rect(x, y, w, h, Style(stroke=LINE, width=0.2, fill=col)))
    elif key == "kerb":
        for i in range(4):
            col = KERB_RED if i % 2 == 0 else WHITE
            layer.add(rect(x + i * w / 4, y, w / 4, h, Style(stroke=None, fill=col)))
        layer.add(rect(x, y, w, h, Style(stroke=KERB_RED, width=0.2)))
    elif key == "grid":
        layer.add(
            Polyline(((x + 1, y + h), (x + 1, y), (x + w - 1, y), (x + w - 1, y + h)), Style(stroke=INK, width=0.35))
        )
    elif key == "police":
        layer.add(Polyline(((x, y + h / 2), (x + w, y + h / 2)), Style(stroke=POLICE, width=1.0, dash=(2.0, 1.0))))
    elif key == "bridge":
        layer.add(rect(x, y, w, h, Style(stroke=None, fill=ASPHALT)))
        for yy in (y - 0.4, y + h + 0.4):
            layer.add(Polyline(((x, yy), (x + w, yy)), Style(stroke=INK, width=0.9)))
    elif key == "shape":  # the real outline (thin) and the board's (thick), side by side
        layer.add(Polyline(((x, y + h), (x + w * 0.4, y), (x + w, y + h * 0.6)), Style(stroke=MUTED, width=0.25)))
        board = ((x, y + h * 0.9), (x + w * 0.45, y + 0.3), (x + w, y + h * 0.7))
        layer.add(Polyline(board, Style(stroke=INK, width=0.6)))
    elif key == "stretch":  # a short straight and, below it, the same drawn longer
        layer.add(Polyline(((x, y + h * 0.25), (x + w * 0.45, y + h * 0.25)), Style(stroke=MUTED, width=0.5)))
        layer.add(Polyline(((x, y + h * 0.75), (x + w, y + h * 0.75)), Style(stroke=INK, width=0.8)))
    elif key.startswith("north:"):  # an arrow pointing north, "N" at its head
        a = math.radians(float(key.split(":")[1]))
        ux, uy = math.sin(a), -math.cos(a)
        cx, cy, r = x + 2.0, y + h / 2, 1.8
        tip, tail = (cx + ux * r, cy + uy * r), (cx - ux * r, cy - uy * r)
        layer.add(Polyline((tail, tip), Style(stroke=INK, width=0.35)))
        left = (tip[0] - ux * 1.1 - uy * 0.65, tip[1] - uy * 1.1 + ux * 0.65)
        right = (tip[0] - ux * 1.1 + uy * 0.65, tip[1] - uy * 1.1 - ux * 0.65)
        layer.add(Polygon((tip, left, right), style=Style(stroke=None, fill=INK)))
        layer.add(Text("N", x + 4.2, y + h / 2 + 0.8, 2.2, "bold", INK))
    elif key == "real_start":  # the real start line: dashed across the track
        layer.add(rect(x, y, w, h, Style(stroke=None, fill=ASPHALT)))
        layer.add(
            Polyline(((x + w / 2, y - 0.3), (x + w / 2, y + h + 0.3)), Style(stroke=INK, width=0.6, dash=(0.8, 0.6)))
        )
    elif key == "tunnel":
        layer.add(rect(x, y, w, h, Style(stroke=None, fill=HIDDEN)))
        for xx in (x, x + w):
            layer.add(Polyline(((xx, y - 0.5), (xx, y + h + 0.5)), Style(stroke=INK, width=1.2)))


def draw_podium(page: Page, c: Circuit, free: FreeSpace) -> None:
    bw, hs = 11.0, (11.0, 8.0, 5.5)
    w, h = 3 * bw, 11.0 + 6.0
    pad = PODIUM_CLEAR
    start = c.point_at(0.0)
    spot = free.find(w + 2 * pad, h + 2 * pad, [(start[0] - w / 2 - pad, start[1] - h / 2 - pad)], step=5.0)
    if spot is None:
        return
    free.take(box(spot[0], spot[1], spot[0] + w + 2 * pad, spot[1] + h + 2 * pad))
    x0, base = spot[0] + pad, spot[1] + pad + 11.0
    lab = page.layer("labels")
    for place, col in ((2, 0), (1, 1), (3, 2)):
        hh = hs[place - 1]
        x = x0 + col * bw
        fillc = ACTION if place == 1 else "#efeee9"
        lab.add(rect(x, base - hh, bw, hh, Style(stroke=INK, width=0.35, fill=fillc)))
        lab.add(Text(str(place), x + bw / 2, base - hh / 2, pt_to_mm(9), "bold", INK, "middle", "middle"))
    lab.add(Text(words()["labels"]["podium"], x0 + w / 2, base + 4.2, pt_to_mm(7), "condensed-bold", MUTED, "middle"))
