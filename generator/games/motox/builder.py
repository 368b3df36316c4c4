"""``paddock motox course``: deal a piecepack and build a course the way players would, turn by turn.

Set-up as motox.txt has it: the tiles are dealt evenly, the coins split into two equal groups and one group dealt
evenly for building; a roll picks the starting player, who lays the start tile. Then players take turns, each
adding a tile (face down, lined up with the last tile played and touching no other) or a coin under a straight
tile's far edge, until every tile and building coin is down.

The simulated players are careful rather than clever: they never lay a tile that would box the track in before
all tiles are down (a short look-ahead), and they like straights, where ramps go. Everything random comes from
one ``random.Random(seed)``, so a seed always gives the same course. A deal that still gets stuck (a player left
with only coins and nowhere to put them) is dealt again from the same generator, so this too is deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...errors import GeometryError
from . import facts
from .checks import check_course, jump_traps
from .course import HEADINGS, Course, left_of, right_of

COIN_CHANCE = 0.35  # how often a player holding both plays a coin (when a straight tile has room)
STRAIGHT_WEIGHT = 3  # straight on is this much likelier than each turn
LOOKAHEAD_BUDGET = 4000  # search steps when checking that the track can still take every remaining tile
ATTEMPTS = 200


@dataclass
class Built:
    course: Course
    starter: int  # 0-based
    log: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


def _legal(cells: set, head: tuple[int, int], cand: tuple[int, int]) -> bool:
    """``cand`` is free and meets no tile but ``head`` edge to edge (corners may meet)."""
    if cand in cells:
        return False
    x, y = cand
    return all((x + dx, y + dy) == head or (x + dx, y + dy) not in cells for dx, dy in HEADINGS.values())


def _options(cells: set, head: tuple[int, int], d: tuple[int, int] | None) -> list[tuple[str, tuple[int, int]]]:
    """(move, direction) of every legal next tile; ``d`` is the way the track runs into ``head`` (None: tile 2)."""
    if d is None:
        choices = [("straight", v) for v in HEADINGS.values()]
    else:
        choices = [("straight", d), ("left", left_of(d)), ("right", right_of(d))]
    out = []
    for move, v in choices:
        cand = (head[0] + v[0], head[1] + v[1])
        if _legal(cells, head, cand):
            out.append((move, v))
    return out


def _can_extend(cells: set, head: tuple[int, int], d: tuple[int, int], k: int) -> bool:
    """Whether ``k`` more tiles can still be laid after ``head`` (depth-first, straight first, bounded)."""
    budget = [LOOKAHEAD_BUDGET]

    def go(head, d, k) -> bool:
        if k == 0:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for _, v in _options(cells, head, d):
            cand = (head[0] + v[0], head[1] + v[1])
            cells.add(cand)
            ok = go(cand, v, k - 1)
            cells.discard(cand)
            if ok:
                return True
        return False

    return go(head, d, k)


def _run(dirs: list[tuple[int, int]], t: int) -> tuple[int, bool]:
    """Tiles laid straight on past tile ``t`` so far, and whether that run is still open (the last tile laid is
    in it, so the track may yet run on straight)."""
    k = 0
    for j in range(t - 1, len(dirs)):  # dirs[j]: from tile j + 1 to tile j + 2
        if dirs[j] != dirs[t - 1]:
            return k, False
        k += 1
    return k, True


def _trap_free(heights: dict[int, int], dirs: list[tuple[int, int]], turn_at_head: bool) -> bool:
    """Whether every ramp can still be cleared and landed from its front row (:func:`.checks.jump_traps`) if the
    track turns at the tile just laid (``turn_at_head``) or ends its open runs as they are."""
    for t, h in heights.items():
        k, open_run = _run(dirs, t)
        if open_run and not turn_at_head:
            continue
        if k * facts.spaces_per_edge() <= h:  # the highest roll over a ramp of h lands h + 1 spaces on
            return False
    return True


def _attempt(rng: random.Random, players: int) -> Built | None:
    tiles = [(s.name, r.name) for s in facts.suits() for r in facts.ranks()]
    rng.shuffle(tiles)
    per_t = facts.tiles_per_player(players)
    hands_t = [tiles[i * per_t : (i + 1) * per_t] for i in range(players)]
    coins = [(s.name, r.name) for s in facts.suits() for r in facts.ranks()]
    rng.shuffle(coins)
    building = coins[: facts.building_coins()]  # the other group waits for the race
    per_c = facts.coins_per_player(players)
    hands_c = [building[i * per_c : (i + 1) * per_c] for i in range(players)]
    starter = rng.randrange(players)  # the roll for the starting player

    positions: list[tuple[int, int]] = []
    cells: set = set()
    heights: dict[int, int] = {}
    dirs: list[tuple[int, int]] = []  # dirs[i]: from tile i+1 to tile i+2
    moves: list[str] = []
    log: list[str] = []
    total = facts.tile_count()
    top = facts.max_ramp()
    p = starter
    turn = 0
    while any(hands_t) or any(hands_c):
        if not hands_t[p] and not hands_c[p]:
            p = (p + 1) % players
            continue
        turn += 1
        who = f"player {p + 1}"
        # careful players: a coin only where the jump can still be landed (no trap before a turn)
        spots = [
            t
            for t in range(2, len(positions))
            if dirs[t - 2] == dirs[t - 1]
            and heights.get(t, 0) < top
            and (_run(dirs, t)[1] or _run(dirs, t)[0] * facts.spaces_per_edge() > heights.get(t, 0) + 1)
        ]
        play_coin = bool(positions) and hands_c[p] and spots and (not hands_t[p] or rng.random() < COIN_CHANCE)
        if play_coin:
            t = rng.choice(spots)
            heights[t] = heights.get(t, 0) + 1
            suit, rank = hands_c[p].pop()
            log.append(f"{turn}. {who}: a coin ({rank} of {suit}) under tile {t}, now {heights[t]} high")
        elif hands_t[p]:
            suit, rank = hands_t[p].pop()
            if not positions:
                positions.append((0, 0))
                cells.add((0, 0))
                moves.append("start")
                log.append(f"{turn}. {who}: the start tile ({rank} of {suit}, face down)")
            else:
                head = positions[-1]
                d = dirs[-1] if dirs else None
                left = total - len(positions) - 1
                options = []
                for move, v in _options(cells, head, d):
                    cand = (head[0] + v[0], head[1] + v[1])
                    cells.add(cand)
                    ok = _can_extend(cells, cand, v, left)
                    cells.discard(cand)
                    if ok:
                        options.append((move, v))
                if not options:
                    return None
                safe = [o for o in options if o[0] == "straight" or _trap_free(heights, dirs, True)]
                options = safe or options
                weights = [STRAIGHT_WEIGHT if move == "straight" and d is not None else 1 for move, _ in options]
                move, v = rng.choices(options, weights)[0]
                cand = (head[0] + v[0], head[1] + v[1])
                positions.append(cand)
                cells.add(cand)
                dirs.append(v)
                moves.append(move)
                what = "straight on" if move == "straight" else f"turning {move}"
                if d is None:
                    what = "beside the start tile"
                log.append(f"{turn}. {who}: tile {len(positions)}, {what}")
        else:
            return None  # only coins left and no straight tile with room: deal again
        p = (p + 1) % players
    course = Course(name="", positions=[(float(x), float(y)) for x, y in positions], ramps=heights, players=players)
    if check_course(course) or jump_traps(course):
        return None
    return Built(course, starter, log, moves)


def deal_course(players: int, seed: int) -> Built:
    """A legal random course for ``players`` players, the same for the same seed."""
    lo, hi = facts.player_range()
    if not lo <= players <= hi:
        from ...errors import InputError

        raise InputError(f"MotoX is for {lo}–{hi} players, not {players}", field="--players")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        built = _attempt(rng, players)
        if built is not None:
            built.course.name = f"Random course, seed {seed}"
            built.course.seed = seed
            return built
    raise GeometryError(f"no legal course found for seed {seed} after {ATTEMPTS} deals", hint="try another --seed")


def course_yaml(built: Built, command: str) -> str:
    """The course as a spec file: a path of moves, its ramps, and how it was built as comments."""
    c = built.course
    per_t, per_c = facts.tiles_per_player(c.players), facts.coins_per_player(c.players)
    heading = next(k for k, v in HEADINGS.items() if v == c.step(1)) if c.n > 1 else "east"
    out = [
        f"# A MotoX course dealt and built by `{command}`:",
        f"# {c.n} tiles ({per_t} each) and {facts.building_coins()} building coins ({per_c} each) between "
        f"{c.players} players; player {built.starter + 1} rolled to start.",
        "# Check it with `paddock motox check FILE`, draw it with `paddock motox draw FILE`.",
        "#",
        "# How it was built, turn by turn:",
        *[f"#   {line}" for line in built.log],
        f'name: "{c.name}"',
        f"players: {c.players}",
        f"seed: {c.seed}",
        f"heading: {heading}           # the track leaves the start tile this way (north = up the page)",
        "path:",
    ]
    width = max(len(m) for m in built.moves)
    for i, move in enumerate(built.moves):
        note = f"tile {i + 1}"
        if i + 1 in c.ramps:
            note += f", ramp {c.ramps[i + 1]}"
        out.append(f"  - {move:<{width}}   # {note}")
    out.append("ramps:")
    for t, h in sorted(c.ramps.items()):
        out.append(f"  - {{tile: {t}, height: {h}}}")
    return "\n".join(out) + "\n"
