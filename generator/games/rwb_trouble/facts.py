"""The RWB TROUBLE facts, read once from ``templates/rwb-trouble/*.yaml``, and what follows from them.

Every sheet that prints a divisor, a chance, a chip count or a track suggestion takes it from here: the ACCIDENT
table and its chances are computed from the divisors and the dice, the chips from the race length and the track.
The options a user types (``--turns``, ``--track``, ``--extras``, ``--card``) are read here too, each with one clear
error naming the option and what to change.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from ...errors import InputError
from ...units import inch_to_mm
from ...words import ordinal
from .models import AccidentExample, Chips, CrashExample, Form, Group, Rules, Sheets, Track, load


def rules() -> Rules:
    return load("rules.yaml")  # type: ignore[return-value]


def sheets() -> Sheets:
    return load("sheets.yaml")  # type: ignore[return-value]


def credit() -> str:
    return rules().credit


# -- forms and groups ---------------------------------------------------------------------------------------------


def forms() -> tuple[Form, ...]:
    return rules().forms


def form_keys() -> tuple[str, ...]:
    return tuple(f.key for f in forms())


def form(key: str) -> Form:
    return next(f for f in forms() if f.key == key)


def groups() -> tuple[Group, ...]:
    return rules().groups


def group_keys() -> tuple[str, ...]:
    return tuple(g.key for g in groups())


def group_name(key: str) -> str:
    return next(g.name for g in groups() if g.key == key)


# -- dice and the ACCIDENT table ----------------------------------------------------------------------------------


def dice() -> tuple[int, int]:
    d = rules().dice
    return d.count, d.sides


def dice_words() -> str:
    """``two dice``: how the sheets say the add-on's roll."""
    count, _ = dice()
    return f"{_number_word(count)} dice"


@cache
def ways() -> dict[int, int]:
    """Each total of the dice and in how many of the equally likely throws it comes up."""
    count, sides = dice()
    out: dict[int, int] = {}
    for throw in product(range(1, sides + 1), repeat=count):
        out[sum(throw)] = out.get(sum(throw), 0) + 1
    return dict(sorted(out.items()))


def outcomes() -> int:
    count, sides = dice()
    return sides**count


def totals() -> list[int]:
    return list(ways())


def divisor(group: str) -> int:
    return rules().accident.divisor[group]


def group_column(key: str) -> str:
    """``TOP ÷ 3``, ``BOTTOM``: a group and what its dice total is divided by."""
    d = divisor(key)
    return group_name(key) + (f" ÷ {d}" if d != 1 else "")


def rounding() -> str:
    return rules().accident.rounding


def drivers_involved(total: int, group: str) -> int:
    """Drivers an ACCIDENT involves: the dice total divided by the group's divisor, fractions rounded as the add-on
    says (up)."""
    exact = Fraction(total, divisor(group))
    return math.ceil(exact) if rounding() == "up" else math.floor(exact)


def accident_table() -> list[tuple[int, int, dict[str, int]]]:
    """(total, ways, {group: drivers}) for every total of the dice."""
    return [(t, n, {g: drivers_involved(t, g) for g in group_keys()}) for t, n in ways().items()]


def driver_chances(group: str) -> dict[int, int]:
    """How many throws give each number of drivers in ``group``."""
    out: dict[int, int] = {}
    for t, n in ways().items():
        k = drivers_involved(t, group)
        out[k] = out.get(k, 0) + n
    return dict(sorted(out.items()))


def chance(n: int) -> Fraction:
    return Fraction(n, outcomes())


def chance_text(n: int) -> str:
    """``3/36 · 8.3 %``: the count out of every throw (not reduced, so rows compare at a glance) and a percentage."""
    if n == 0:
        return "–"
    return f"{n}/{outcomes()} · {float(chance(n) * 100):.1f} %"


def exact_quotient(total: int, div: int) -> str:
    """``2.67``: the division before rounding, as the add-on writes it."""
    q = total / div
    return f"{q:.2f}".rstrip("0").rstrip(".") if q != int(q) else str(int(q))


@dataclass(frozen=True)
class WorkedAccident:
    """One of the add-on's worked ACCIDENT examples with what the table gives for it."""

    example: AccidentExample
    total: int  # the dice added up
    drivers: int  # what the table gives

    @property
    def group(self) -> str:
        return self.example.group

    @property
    def dice(self) -> tuple[int, int]:
        return self.example.dice

    @property
    def first(self) -> int:
        return self.example.first


def accident_examples() -> list[WorkedAccident]:
    """The add-on's worked examples with what the table gives for them."""
    out = []
    for ex in rules().accident.examples:
        total = sum(ex.dice)
        out.append(WorkedAccident(ex, total, drivers_involved(total, ex.group)))
    return out


def named_drivers(ex: WorkedAccident | AccidentExample) -> str:
    """The drivers an ACCIDENT example names: ``#6, #7 and the race leader``, or ``#21, #22, #23, #24 and on``."""
    ex = ex.example if isinstance(ex, WorkedAccident) else ex
    if ex.more:
        return ", ".join(ex.named) + " and on"
    return join_words(list(ex.named))


def crash_example() -> CrashExample:
    """The add-on's CRASH example; each driver who passed on the second try lands ``to`` = place + 2d6 rolled."""
    return rules().crash.example


def crash_drops() -> list[str]:
    """``#11 rolls 3 and drops to 14th``: the CRASH example's drivers who passed on the second try."""
    ex = crash_example()
    out = []
    for i, d in enumerate(ex.dropped):
        part = f"#{d.driver} rolls {d.roll} and drops to {ordinal(d.to)}"
        if i == len(ex.dropped) - 1 and ex.into_group:
            part += f", now in the {group_name(ex.into_group)} group"
        out.append(part)
    return out


# -- tracks and chips ---------------------------------------------------------------------------------------------


def tracks() -> dict[str, Track]:
    return dict(rules().tracks)


def track_options() -> list[str]:
    return list(sheets().track_options)


def chip_rule() -> Chips:
    """The add-on's chips: ``per_space`` at the start, one more every ``extra_every`` turns past ``base_turns``."""
    return rules().chips


def extra_chips(turns: int) -> int:
    """One extra chip for every whole ``extra_every`` turns beyond ``base_turns``: partial tens do not count, and a
    race no longer than ``base_turns`` gets none."""
    r = chip_rule()
    return max(0, (turns - r.base_turns) // r.extra_every)


def chips_by_length(columns: int) -> list[tuple[str, int, int]]:
    """(turns, extra chips, chips in all) for the first ``columns`` race lengths: up to the first extra, then by
    tens."""
    rule = chip_rule()
    spaces = rule.per_space * len(form_keys())
    first = rule.base_turns + rule.extra_every
    out = [(f"1–{first - 1}", 0, spaces)]
    for k in range(1, columns):
        lo = first + (k - 1) * rule.extra_every
        out.append((f"{lo}–{lo + rule.extra_every - 1}", extra_chips(lo), spaces + extra_chips(lo)))
    return out


@dataclass(frozen=True)
class ChipPlan:
    """The chips of one race: ``placed`` holds the extras on each space."""

    turns: int
    track: str
    per_space: int
    extras: int
    placed: dict[str, int]
    chosen: bool = False  # the user placed the extras (--extras)
    reading: bool = False  # the track's space is Paddock's reading: the add-on names none for this track

    @property
    def total(self) -> int:
        return self.per_space * len(form_keys()) + self.extras

    @property
    def track_name(self) -> str:
        return tracks()[self.track].name

    def start(self, key: str) -> int:
        """Chips on ``key`` at the start."""
        return self.per_space + self.placed.get(key, 0)

    def chips(self) -> list[str]:
        """Every chip by the form it names, in the card's order: what a blind draw draws from."""
        return [k for k in form_keys() for _ in range(self.start(k))]


def share_extras(count: int, on: str | None) -> dict[str, int]:
    """Paddock's reading of where ``count`` extra chips go by default (the add-on leaves it to the players, "in
    keeping with the track"): two of every three on the track's space ``on``, every third on the other spaces in
    turn, in the card's order after it; with no space for the track (an oval), one on each space in turn."""
    keys = form_keys()
    out = {k: 0 for k in keys}
    if on is None:
        for i in range(count):
            out[keys[i % len(keys)]] += 1
        return out
    others = [keys[(keys.index(on) + j) % len(keys)] for j in range(1, len(keys))]
    for i in range(count):
        if i % 3 == 2:
            out[others[(i // 3) % len(others)]] += 1
        else:
            out[on] += 1
    return out


def first_draw(plan: ChipPlan) -> list[tuple[str, int]]:
    """(form, chips) for the race's first TROUBLE: a blind draw takes each chip alike, so a form comes up as many
    times in ``plan.total`` as it has chips."""
    return [(k, plan.start(k)) for k in form_keys()]


def draw_text(plan: ChipPlan) -> str:
    """``ACCIDENT 3 in 5 · CRASH 1 in 5 · WRECK 1 in 5``: the first TROUBLE's chances, as the cards print them."""
    return " · ".join(f"{form(k).name} {n} in {plan.total}" for k, n in first_draw(plan))


def default_turns() -> int:
    """The race length when none is given: the add-on's own example."""
    return rules().chips.example_turns


def default_track() -> str:
    return sheets().default_track


def defaults_note(turns: int | str | None, track: str | None) -> str | None:
    """What a pack chose for a race length or a track left out (None when both were given)."""
    words = sheets().defaults
    plan = chip_plan(turns, track)
    chosen = {"--turns N": words.turns, "--track TYPE": words.track}
    left_out = [k for k, given in zip(chosen, (turns, track), strict=True) if given is None]
    if not left_out:
        return None
    return words.note.format(
        missing=" or ".join(k.split()[0] for k in left_out),
        chosen=" on ".join(chosen[k] for k in left_out).format(turns=plan.turns, track_name=plan.track_name),
        options=" and ".join(left_out),
    )


def extras_space(key: str) -> tuple[str | None, bool]:
    """Where the extra chips of a track go: the add-on's suggestion, else Paddock's reading where it has one
    (then True), else None (the players' choice)."""
    on = tracks()[key].extras_on
    if on is not None:
        return on, False
    reading = sheets().readings.short_track
    if reading.track == key:
        return reading.extras_on, True
    return None, False


def chip_plan(turns: int | str | None, track: str | None, extras: str | None = None) -> ChipPlan:
    """The chips for a race of ``turns`` on a ``track`` (each left out: the defaults): computed, and the extras
    shared out as Paddock reads the add-on (:func:`share_extras`) or placed as ``extras`` (``accident=1,wreck=1``)
    says."""
    n = parse_turns(default_turns() if turns is None else turns)
    key = parse_track(default_track() if track is None else track)
    count = extra_chips(n)
    per = chip_rule().per_space
    if extras is not None:
        return ChipPlan(n, key, per, count, parse_extras(extras, count, n), chosen=True)
    on, reading = extras_space(key)
    return ChipPlan(n, key, per, count, share_extras(count, on), reading=reading and count > 0)


# -- options ------------------------------------------------------------------------------------------------------


def max_turns() -> int:
    return sheets().limits.max_turns


def parse_turns(value: int | str | None, field: str = "--turns") -> int:
    """The race length in turns: a whole number from 1 to Paddock's limit."""
    limit = max_turns()
    example = rules().chips.example_turns
    if value is None:
        raise InputError("the race length is missing", field=field, hint=f"give it in turns, e.g. {field} {example}")
    text = str(value).strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise InputError(
            f"'{text[:20]}' is not a whole number of turns", field=field, hint=f"give the race length, e.g. {example}"
        )
    n = int(text)
    if not 1 <= n <= limit:
        raise InputError(
            f"a race of {n} turns cannot be run", field=field, hint=f"give a race length from 1 to {limit} turns"
        )
    return n


def parse_track(value: str | None, field: str = "--track") -> str:
    """A track type by key (``road``) or name (``road course``, ``super-speedway``)."""
    known = track_options()
    if value is None:
        raise InputError("the track type is missing", field=field, hint=f"use {field} " + "|".join(known))
    want = re.sub(r"[\s_-]+", " ", str(value).strip().lower())
    for key, t in tracks().items():
        if want in (key, re.sub(r"[\s_-]+", " ", t.name)):
            return key
    raise InputError(f"unknown track type '{str(value)[:30]}'", field=field, hint="use one of " + ", ".join(known))


def parse_extras(text: str, count: int, turns: int, field: str = "--extras") -> dict[str, int]:
    """``accident=1,wreck=1``: where the extra chips go. Every space named at most once, whole numbers, and the
    extras add up to what the race length gives."""
    keys = form_keys()
    aliases = {name.lower(): k for k in keys for name in (k, form(k).name, form(k).plural)}
    out = {k: 0 for k in keys}
    seen: set[str] = set()
    hint = f"e.g. {field} " + ",".join(f"{k}=1" for k in keys[:2]) + f" (spaces: {', '.join(keys)})"
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        if part.count("=") != 1:
            raise InputError(f"cannot read '{part[:30]}'", field=field, hint=hint)
        name, _, number = (s.strip() for s in part.partition("="))
        key = aliases.get(name.lower())
        if key is None:
            raise InputError(f"'{name[:20]}' is not a chip space", field=field, hint=f"use {', '.join(keys)}")
        if key in seen:
            raise InputError(f"{key} is given twice", field=field, hint="name each space once")
        seen.add(key)
        if not re.fullmatch(r"\d+", number):
            raise InputError(f"'{number[:20]}' is not a whole number of chips for {key}", field=field, hint=hint)
        out[key] = int(number)
    given = sum(out.values())
    if given != count:
        rule = chip_rule()
        why = (
            f"a {turns}-turn race has {count} (one per {rule.extra_every} whole turns beyond {rule.base_turns})"
            if count
            else f"a {turns}-turn race has none (extras start at {rule.base_turns + rule.extra_every} turns)"
        )
        raise InputError(
            f"the extras add up to {given} chip{'s' if given != 1 else ''}, but {why}",
            field=field,
            hint=f"give {count} in all" if count else f"leave out {field}",
        )
    return out


# -- the chip card's size ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardSize:
    key: str
    label: str
    width: float  # mm, landscape
    height: float


def card_sizes() -> dict[str, CardSize]:
    out = {}
    for key, c in sheets().cards.items():
        if c.width_in is not None and c.height_in is not None:  # inches become mm here, at the edge
            w, h = inch_to_mm(c.width_in), inch_to_mm(c.height_in)
        else:
            w, h = float(c.width_mm or 0), float(c.height_mm or 0)
        out[key] = CardSize(key, c.label, w, h)
    return out


def card_size(value: str | None = None, field: str = "--card") -> CardSize:
    sizes = card_sizes()
    key = (value or sheets().default_card).strip().lower()
    if key not in sizes:
        raise InputError(f"unknown card size '{key[:20]}'", field=field, hint="use one of " + ", ".join(sizes))
    return sizes[key]


# -- words --------------------------------------------------------------------------------------------------------

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _number_word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def join_words(items: list[str]) -> str:
    """``#6, #7 and the race leader``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def values(plan: ChipPlan | None = None) -> dict[str, str]:
    """The numbers the sheets' wording quotes (the ``{braces}`` of sheets.yaml), from the facts and the race."""
    rule = chip_rule()
    first = rule.base_turns + rule.extra_every
    mid = first + rule.extra_every // 2
    out = {
        "per_space": str(rule.per_space),
        "base_turns": str(rule.base_turns),
        "extra_every": str(rule.extra_every),
        "first_extra_turns": str(first),
        "mid_turns": str(mid),
        "mid_extras": str(extra_chips(mid)),
        "top_divisor": str(divisor("top")),
        "middle_divisor": str(divisor("middle")),
        "rounding": rounding(),
        "outcomes": str(outcomes()),
        "dice": dice_words(),
        "drop_dice": _number_word(rules().crash.drop_dice),
        "repair_passed": rules().crash.repair_passed,
        "repair_failed": rules().crash.repair_failed,
        "colour": rules().chips.colour,
    }
    if plan is not None:
        out |= {
            "turns": str(plan.turns),
            "track_name": plan.track_name,
            "total": str(plan.total),
            "extras": str(plan.extras),
            "placed": join_words([f"+{n} on {form(k).plural}" for k, n in plan.placed.items() if n]),
            "draw": draw_text(plan),
        }
        on, _ = extras_space(plan.track)
        if on is not None:
            out["extras_space"] = form(on).plural
    return out
