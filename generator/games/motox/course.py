"""MotoX courses: the spec (YAML, validated by pydantic) and the tiles on the table.

A course lists its tiles in play order, tile 1 being the start tile, either as a **path** of moves (``start``,
then ``straight``, ``left``, ``right``; ``straight 3`` is three tiles straight on) or as **grid positions** in
tiles (x to the right, y down the page; halves allowed, since a tile may be laid half a tile — one space — off
its neighbour, which the rules forbid). Ramps name a tile and a height in coins.

The building rules are checked by :mod:`.checks`. The JSON Schema ``templates/motox/course.schema.json`` is
generated from :class:`CourseSpec` (``python -m generator.games.motox.schema``).

Paddock's reading of "touch" (the rulebook leaves it open): tiles touch when they share part of an edge. Tiles
meeting only at a corner do not touch — each turn of the track puts the tiles before and after the turning tile
corner to corner, so the other reading would forbid every turn.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from . import facts

Pos = tuple[float, float]
HEADINGS: dict[str, tuple[int, int]] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
EDGE_OF = {v: k for k, v in HEADINGS.items()}
MOVES = ("start", "straight", "left", "right")
MOVE_RE = re.compile(r"^\s*(start|straight|left|right)(?:\s+(\d+))?\s*$", re.I)
MIN_PLAYERS, MAX_PLAYERS = facts.player_range()
#: The most tiles a course file may lay: a MotoX course plays the piecepack's 24, and a file with a few too many
#: is still checked and told what to take away; past this, it is refused before any work (Paddock's budget).
MAX_TILES = 200


GRID_LIMIT = 200  # tiles from the start tile: a position farther out is a typing slip


def _coord(c: float) -> str:
    """A coordinate as a message quotes it: ``3``, ``2.5``, ``1e+308``, ``inf``, ``nan``."""
    return f"{c:g}"


def left_of(d: tuple[int, int]) -> tuple[int, int]:
    """The direction 90° to the left of ``d`` (y down the page: left of east is north)."""
    return (d[1], -d[0])


def right_of(d: tuple[int, int]) -> tuple[int, int]:
    return (-d[1], d[0])


def parse_move(text: str) -> tuple[str, int]:
    """``straight 3`` → ("straight", 3); ValueError naming the fix otherwise."""
    m = MOVE_RE.match(str(text))
    if not m:
        raise ValueError(
            f"unknown move '{str(text)[:30]}': use start, straight, left or right (straight N for N tiles straight on)"
        )
    move, count = m.group(1).lower(), m.group(2)
    n = int(count) if count else 1
    if count and move != "straight":
        raise ValueError(f"'{text}': only straight takes a count (straight 3); write each turn on its own")
    if not 1 <= n <= facts.tile_count():
        raise ValueError(f"'{text}': a count from 1 to {facts.tile_count()}")
    return move, n


def _check_move(text: str) -> str:
    parse_move(text)
    return text


# -- the spec --------------------------------------------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RampSpec(_Model):
    tile: Annotated[int, Field(ge=1, description="The tile the ramp is on, in play order (1 = the start tile).")]
    height: Annotated[
        int,
        Field(
            ge=1,
            description=f"Coins stacked under the raised edge; the rules allow at most {facts.max_ramp()} "
            "(the checker reports a higher ramp).",
        ),
    ]
    edge: Literal["north", "east", "south", "west"] | None = Field(
        None,
        description="The raised edge (north = up the page). Optional: it must be the edge farthest along the "
        "track from the start tile, the one the next tile meets; the checker works it out and reports a wrong one.",
    )


class CourseSpec(_Model):
    """A MotoX course: its tiles in play order (``path`` or ``tiles``), its ramps and its players."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"title": "Paddock MotoX course"})

    name: Annotated[str, Field(min_length=1, max_length=60, description="Printed as the diagram's title.")]
    players: int | list[str] = Field(
        description=f"How many play ({MIN_PLAYERS}–{MAX_PLAYERS}), or their names; tiles and building coins are "
        "dealt evenly between them.",
        json_schema_extra={
            "anyOf": [
                {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
                {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 30},
                    "minItems": MIN_PLAYERS,
                    "maxItems": MAX_PLAYERS,
                },
            ]
        },
    )
    heading: Literal["north", "east", "south", "west"] = Field(
        "east", description="Path form: the way the track leaves the start tile (north = up the page)."
    )
    path: list[Annotated[str, AfterValidator(_check_move)]] | None = Field(
        None,
        description="The tiles as moves in play order: 'start', then 'straight', 'left' or 'right' (each a tile "
        "placed straight on or after a 90° turn); 'straight N' is N tiles straight on.",
    )
    tiles: list[tuple[float, float]] | None = Field(
        None,
        description="Or: each tile's grid position [x, y] in tiles (x to the right, y down the page), in play "
        "order; .5 puts a tile half a tile (one space) over.",
    )
    ramps: list[RampSpec] = Field(
        default_factory=list,
        description="Jump ramps: coins under a tile's edge. Their heights use every building coin.",
    )
    seed: int | None = Field(None, description="Set by `paddock motox course`: the seed that dealt this course.")
    notes: Annotated[str | None, Field(max_length=200, description="A line printed under the diagram's title.")] = None

    @field_validator("name", "notes")
    @classmethod
    def _printable(cls, v: str | None) -> str | None:
        if v is None:
            return v
        from ...fonts import missing_glyphs

        bad = missing_glyphs(v, "bold")
        if bad:
            raise ValueError(f"the bundled font cannot print {', '.join(repr(c) for c in bad)}")
        return v

    @field_validator("players", mode="before")
    @classmethod
    def _players(cls, v):
        span = f"{MIN_PLAYERS}–{MAX_PLAYERS}"
        if isinstance(v, bool) or not isinstance(v, int | list):
            raise ValueError(f"give the number of players ({span}) or a list of their names")
        if isinstance(v, int):
            if not MIN_PLAYERS <= v <= MAX_PLAYERS:
                raise ValueError(f"MotoX is for {span} players, not {v}")
            return v
        if not MIN_PLAYERS <= len(v) <= MAX_PLAYERS:
            raise ValueError(f"MotoX is for {span} players; the list names {len(v)}")
        seen = set()
        for i, name in enumerate(v):
            if not isinstance(name, str) or not name.strip() or len(name) > 30:
                raise ValueError("each player's name is text of 1 to 30 characters")
            from ...fonts import missing_glyphs
            from ...specs import FieldError

            bad = missing_glyphs(name, "bold")
            if bad:  # said here, of the file and the name, not while the diagram is drawn
                raise FieldError(f"the bundled font cannot print {', '.join(repr(c) for c in bad)}", ("players", i))
            if name.strip().lower() in seen:
                raise ValueError(f"the player '{name}' is listed twice")
            seen.add(name.strip().lower())
        return [name.strip() for name in v]

    @field_validator("path")
    @classmethod
    def _path(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        if not v:
            raise ValueError("an empty path: start with 'start'")
        tiles = 0
        for i, item in enumerate(v):
            move, count = parse_move(item)
            if (move == "start") != (i == 0):
                raise ValueError(
                    "the path begins with 'start' (the start tile), and only there"
                    if i == 0
                    else f"'start' again at entry {i + 1}: a course has one start tile"
                )
            tiles += count
            if tiles > MAX_TILES:
                from ...specs import FieldError

                raise FieldError(
                    f"the path lays more than {MAX_TILES} tiles by entry {i + 1}: Paddock checks at most {MAX_TILES} "
                    f"(a MotoX course plays {facts.tile_count()})",
                    ("path", i),
                    hint=f"lay the {facts.tile_count()} tiles of the piecepack",
                )
        return v

    @field_validator("tiles")
    @classmethod
    def _grid(cls, v: list[tuple[float, float]] | None) -> list[tuple[float, float]] | None:
        from ...specs import FieldError

        if v is None:
            return v
        if not v:
            raise ValueError("no tiles: give the start tile's position first, e.g. [0, 0]")
        if len(v) > MAX_TILES:
            raise FieldError(
                f"the course lists {len(v):,} tiles; Paddock checks at most {MAX_TILES} (a MotoX course plays "
                f"{facts.tile_count()})",
                ("tiles", MAX_TILES),
                hint=f"give the positions of the {facts.tile_count()} tiles of the piecepack",
            )
        for i, (x, y) in enumerate(v):
            for c in (x, y):
                # finite and in range before anything is rounded: 1e308 doubled is infinite
                if not math.isfinite(c) or abs(c) > GRID_LIMIT or abs(c * 2 - round(c * 2)) > 1e-9:
                    where = f"[{_coord(x)}, {_coord(y)}]"
                    raise FieldError(
                        f"tile {i + 1} at {where}: positions are whole or half tiles (a half is one space), "
                        f"within ±{GRID_LIMIT}",
                        ("tiles", i),
                        hint="give each position in tiles, e.g. [3, 0] or [3.5, 1]",
                    )
        return v

    @model_validator(mode="after")
    def _one_layout(self) -> CourseSpec:
        if (self.path is None) == (self.tiles is None):
            raise ValueError("give the tiles once: as a path of moves or as grid positions (tiles), not both")
        return self


# -- the course on the table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ramp:
    tile: int
    height: int
    edge: Literal["north", "east", "south", "west"]  # the raised edge


@dataclass
class Course:
    """A course as laid on the table: tile positions (in tiles, play order), ramps, players."""

    name: str
    positions: list[Pos]
    ramps: dict[int, int] = field(default_factory=dict)  # tile -> height
    players: int = 4
    names: list[str] = field(default_factory=list)
    notes: str | None = None
    seed: int | None = None
    spec: CourseSpec | None = None
    source: Path | None = None
    lines: object = None  # specs.LineMap
    tile_entries: list[int] = field(default_factory=list)  # path form: the path entry that laid each tile

    @property
    def n(self) -> int:
        return len(self.positions)

    def pos(self, tile: int) -> Pos:
        return self.positions[tile - 1]

    def step(self, tile: int) -> tuple[int, int] | None:
        """The unit direction from ``tile`` to the next, or None when they do not line up edge to edge."""
        if not 1 <= tile < self.n:
            return None
        (ax, ay), (bx, by) = self.pos(tile), self.pos(tile + 1)
        d = (bx - ax, by - ay)
        return (int(d[0]), int(d[1])) if d in ((1, 0), (-1, 0), (0, 1), (0, -1)) else None

    def turn(self, tile: int) -> str | None:
        """straight, left or right at an inner tile (None at the ends or where tiles do not line up)."""
        a, b = self.step(tile - 1), self.step(tile)
        if a is None or b is None:
            return None
        if a == b:
            return "straight"
        if b == left_of(a):
            return "left"
        if b == right_of(a):
            return "right"
        return "back"

    def is_straight(self, tile: int) -> bool:
        return 1 < tile < self.n and self.turn(tile) == "straight"

    def raised_edge(self, tile: int) -> str | None:
        """The edge a ramp on ``tile`` lifts: the one the next tile meets, farthest along the track from the start."""
        d = self.step(tile)
        return EDGE_OF[d] if d else None

    def finish_edge(self) -> str | None:
        """The finish line: the last tile's edge facing away from the tile before it (its two side edges meet that
        tile's corners, so this is the edge farthest from the rest of the track)."""
        d = self.step(self.n - 1)
        return EDGE_OF[d] if d else None

    def ramp_list(self) -> list[Ramp]:
        return [Ramp(t, h, self.raised_edge(t) or "east") for t, h in sorted(self.ramps.items())]

    def run_past(self, tile: int) -> tuple[int, bool]:
        """Past ``tile``'s far edge (a ramp's raised edge), straight on: how many spaces of track, and whether that
        run ends across the finish line (it reaches the finish tile) rather than off the side of a turn."""
        d = self.step(tile)
        if d is None:
            return 0, False
        x, y = self.pos(tile)
        k = 0
        for j in range(tile + 1, self.n + 1):
            if self.pos(j) != (x + d[0] * (j - tile), y + d[1] * (j - tile)):
                break
            k += 1
            if j == self.n:
                return k * facts.spaces_per_edge(), True
            if self.turn(j) != "straight":
                break
        return k * facts.spaces_per_edge(), False

    def straight_tiles(self) -> list[int]:
        return [t for t in range(2, self.n) if self.is_straight(t)]

    def coins_used(self) -> int:
        return sum(self.ramps.values())


def relation(a: Pos, b: Pos) -> str:
    """How two tiles lie: overlap, edge (a whole shared edge, spaces lined up), offset (a shared edge, shifted),
    corner (corners meet only) or apart."""
    dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
    if dx < 1 and dy < 1:
        return "overlap"
    if (dx == 1 and dy == 0) or (dy == 1 and dx == 0):
        return "edge"
    if (dx == 1 and dy < 1) or (dy == 1 and dx < 1):
        return "offset"
    if dx == 1 and dy == 1 and facts.corner_contact_touches():
        return "offset"
    if dx == 1 and dy == 1:
        return "corner"
    return "apart"


def touches(a: Pos, b: Pos) -> bool:
    return relation(a, b) in ("overlap", "edge", "offset")


def path_positions(path: list[str], heading: str) -> tuple[list[Pos], list[int]]:
    """Tile positions from a path of moves, and for each tile the index of the path entry that laid it."""
    d = HEADINGS[heading]
    pos: list[Pos] = []
    entries: list[int] = []
    x, y = 0, 0
    for i, item in enumerate(path):
        move, count = parse_move(item)
        for _ in range(count):
            if move == "start":
                pos.append((0, 0))
                entries.append(i)
                continue
            if move == "left":
                d = left_of(d)
            elif move == "right":
                d = right_of(d)
            x, y = x + d[0], y + d[1]
            pos.append((x, y))
            entries.append(i)
    return pos, entries


def from_spec(spec: CourseSpec, source: Path | None = None, lines=None) -> Course:
    if spec.path is not None:
        positions, entries = path_positions(spec.path, spec.heading)
    else:
        positions, entries = [tuple(p) for p in spec.tiles], list(range(len(spec.tiles)))
    names = list(spec.players) if isinstance(spec.players, list) else []
    players = len(spec.players) if isinstance(spec.players, list) else spec.players
    ramps: dict[int, int] = {}
    for r in spec.ramps:
        ramps[r.tile] = ramps.get(r.tile, 0) + r.height
    return Course(
        name=spec.name,
        positions=positions,
        ramps=ramps,
        players=players,
        names=names,
        notes=spec.notes,
        seed=spec.seed,
        spec=spec,
        source=source,
        lines=lines,
        tile_entries=entries,
    )


def load_course(path: str | Path) -> Course:
    """Read and validate a course spec; malformed files raise a located InputError (exit 2)."""
    from ...errors import InputError
    from ...specs import load_yaml, validate

    path = Path(path)
    data, lines = load_yaml(path)
    if data is not None and not isinstance(data, dict):
        raise InputError("a course spec is a mapping of fields (name, players, path …)", file=path, line=1)
    try:
        spec = validate(CourseSpec, data, path, lines)
    except InputError as err:
        # The generic loader points at the page that lists the fields; a course's are few: name them too.
        if err.hint and "docs/motox.md" in err.hint:
            err.hint = f"a course's fields are {', '.join(CourseSpec.model_fields)} (see docs/motox.md, Courses)"
        raise
    return from_spec(spec, path, lines)
