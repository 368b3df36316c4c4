"""The board's title block and legend (every feature the board shows, each with a swatch drawn as the board draws
it), its podium, and the words of both (``templates/board/legend.yaml``). Drawing only, on the paper the track
left free."""

from __future__ import annotations

import math

from shapely import box

from ..compose.freespace import FreeSpace
from ..data import template
from ..fonts import text_width
from ..notices import warn
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


def draw_title(page: Page, c: Circuit, free: FreeSpace) -> None:
    title = c.spec.title or c.name
    tsize = pt_to_mm(16)
    bsize = pt_to_mm(11)
    ssize = pt_to_mm(7)
    lsize = pt_to_mm(6.5)
    if c.graph is None:
        count = f"{c.units_count} units"
    else:
        count = f"{len(c.graph.spaces)} spaces (" + " · ".join(str(c.graph.count(i)) for i in range(c.lanes)) + ")"
    sub = (
        f"{c.lanes} lane{'s' if c.lanes > 1 else ''} · lap {c.lap_length / 10:.1f} cm · "
        f"unit {c.unit / 10:g} cm · {'per-lane spaces' if c.graph is not None else 'units across'}"
    )
    entries = _legend_entries(c)
    for compact in (False, True):
        ents = [] if compact else entries
        w = max(
            text_width(title, tsize, "bold"),
            text_width(count, bsize, "bold"),
            text_width(sub, ssize, "regular"),
            *(9 + text_width(t, lsize, "regular") for _, t in ents),
        )
        h = tsize * 1.15 + bsize * 1.25 + ssize * 1.5 + len(ents) * 4.2 + 1.0
        x0, y0, x1, y1 = free.box.bounds
        prefer = [(x0, y0), (x1 - w, y0), (x0, y1 - h), (x1 - w, y1 - h)]
        spot = free.find(w + 2, h + 2, prefer)
        if spot:
            break
    if spot is None:
        warn(f"{c.name}: no free corner for the title and legend; they overlap the track")
        x0, y0, _, _ = free.box.bounds
        spot = (x0, y0)
    x, y = spot[0] + 1, spot[1] + 1
    free.take(box(spot[0], spot[1], spot[0] + w + 2, spot[1] + h + 2))
    lab = page.layer("labels")
    yy = y + tsize * 0.95
    lab.add(Text(title, x, yy, tsize, "bold", INK))
    yy += bsize * 1.3
    lab.add(Text(count, x, yy, bsize, "bold", KERB_RED))
    yy += ssize * 1.45
    lab.add(Text(sub, x, yy, ssize, "regular", MUTED))
    yy += 2.2
    for key, text in ents:
        _swatch(lab, key, x, yy + 0.6, c.graph is not None)
        lab.add(Text(text, x + 9, yy + 2.6, lsize, "regular", INK))
        yy += 4.2


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
