"""*Monaco!* seasons (``../shared/rules/monaco.txt`` A4–5): dicing a field, and the changes between seasons.

Both work on the plain data of a teams file and return new data plus a log of what happened, so the file that
is written keeps every field the user wrote. The same seed always gives the same result.

Between seasons, in this order (every die comes from one ``random.Random(seed)``):

1. each race win raises the winner's skill by one, to at most the top rating;
2. in every squad the best driver (highest skill; on a tie the one listed first) retires;
3. the second best moves to another squad drawn at random among those with a free seat (he stays put only if
   no other squad has one); he takes the car of the seat he fills;
4. every seat still free gets a new recruit whose skill is diced;
5. in every squad the best and the worst car (highest and lowest tech; ties: first listed best, last listed
   worst) are re-diced. A squad of one car re-dices it once.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ...errors import InputError
from ...specs import LineMap, load_yaml, located, validate
from ...teams.models import TeamField, parse_field
from .facts import rules as monaco_rules


def _die(rng: random.Random) -> int:
    r = monaco_rules().rating
    return rng.randint(r.min, r.max)


def dice_field(data: dict, seed: int) -> tuple[dict, list[str]]:
    """Every driver's skill and every car's tech diced afresh ("dicing gives lots of interesting random")."""
    rng = random.Random(seed)
    out = copy.deepcopy(data)
    log = []
    for team in out["teams"]:
        for d in team["drivers"]:
            stats = dict(d.get("monaco") or {})
            stats["skill"] = _die(rng)
            stats["tech"] = _die(rng)
            d["monaco"] = _ordered(stats)
            log.append(f"{d['name']} ({team['name']}): skill {stats['skill']}, tech {stats['tech']}")
    return out, log


def _ordered(stats: dict) -> dict:
    return {k: stats[k] for k in ("skill", "tech", "car") if k in stats}


class _Race(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    winner: str = Field(min_length=1)


class Results(BaseModel):
    """A season's results: the races in order, each with its winner (full name as in the teams file)."""

    model_config = ConfigDict(extra="forbid")
    races: list[_Race] = Field(default_factory=list)


def load_results(path: str | Path, field: TeamField) -> list[str]:
    """The winners of the season's races, checked against the field."""
    data, lines = load_yaml(path)
    results = validate(Results, data, path, lines)
    names = {d.name for _, d in field.drivers}
    for i, race in enumerate(results.races):
        if race.winner not in names:
            raise located(
                InputError(
                    f"'{race.winner}' is not a driver of {field.name}",
                    hint="write the winner's full name exactly as in the teams file",
                ),
                path,
                lines,
                ("races", i, "winner"),
            )
    return [r.winner for r in results.races]


def next_season(data: dict, winners: list[str], seed: int) -> tuple[dict, list[str]]:
    """The field for the next season (see the module's docstring for the rules and their order)."""
    rules = monaco_rules()
    top = rules.rating.max
    bonus = rules.race_win_rating_bonus
    rng = random.Random(seed)
    out = copy.deepcopy(data)
    teams = out["teams"]
    log: list[str] = []
    by_name = {d["name"]: d for t in teams for d in t["drivers"]}
    for w in winners:
        stats = by_name[w]["monaco"]
        before = stats["skill"]
        stats["skill"] = min(top, before + bonus)
        log.append(f"race win: {w} skill {before} → {stats['skill']}")
    # Seats keep their cars; drivers leave them.
    seats: list[list[dict | None]] = [list(t["drivers"]) for t in teams]
    movers: list[tuple[int, dict]] = []
    for ti, team in enumerate(teams):
        ranked = sorted(range(len(seats[ti])), key=lambda i, ti=ti: -seats[ti][i]["monaco"]["skill"])
        best = ranked[0]
        log.append(f"{seats[ti][best]['name']} ({team['name']}) retires")
        seats[ti][best] = _empty(seats[ti][best])
        if len(ranked) > 1:
            second = ranked[1]
            movers.append((ti, seats[ti][second]))
            seats[ti][second] = _empty(seats[ti][second])
    for ti, driver in movers:
        free = [tj for tj in range(len(teams)) if tj != ti and any(_is_free(s) for s in seats[tj])]
        dest = rng.choice(free) if free else ti
        seat = next(i for i, s in enumerate(seats[dest]) if _is_free(s))
        seats[dest][seat] = _seat(driver, seats[dest][seat])
        if dest != ti:
            log.append(f"{driver['name']} moves from {teams[ti]['name']} to {teams[dest]['name']}")
        else:
            log.append(f"{driver['name']} stays at {teams[ti]['name']}: no other squad has a free seat")
    taken = {d["name"] for row in seats for d in row if not _is_free(d)}
    counter = 1
    for ti, team in enumerate(teams):
        for i, s in enumerate(seats[ti]):
            if _is_free(s):
                while f"Rookie {counter}" in taken:
                    counter += 1
                name = f"Rookie {counter}"
                taken.add(name)
                skill = _die(rng)
                recruit = {"name": name, "monaco": {"skill": skill}}
                seats[ti][i] = _seat(recruit, s)
                log.append(f"{name} joins {team['name']} with skill {skill}")
    for ti, team in enumerate(teams):
        techs = [s["monaco"]["tech"] for s in seats[ti]]
        best = max(range(len(techs)), key=lambda i: (techs[i], -i))
        worst = min(range(len(techs)), key=lambda i: (techs[i], -i))
        for i in dict.fromkeys((best, worst)):
            before = seats[ti][i]["monaco"]["tech"]
            seats[ti][i]["monaco"]["tech"] = _die(rng)
            car = seats[ti][i]["monaco"].get("car", "car")
            log.append(
                f"{team['name']}: {car} of {seats[ti][i]['name']} re-diced, tech {before} → "
                f"{seats[ti][i]['monaco']['tech']}"
            )
        team["drivers"] = seats[ti]
    return out, log


_FREE = "__free__"


def _empty(driver: dict) -> dict:
    """A seat left by ``driver``: only the car stays."""
    car = {k: v for k, v in driver["monaco"].items() if k in ("tech", "car")}
    return {_FREE: True, "monaco": car}


def _is_free(seat: dict) -> bool:
    return bool(seat.get(_FREE))


def _seat(driver: dict, seat: dict) -> dict:
    """``driver`` in the car of ``seat``."""
    new = {k: v for k, v in driver.items() if k != "monaco"}
    stats = {"skill": driver["monaco"]["skill"], **{k: v for k, v in seat["monaco"].items() if k != "skill"}}
    new["monaco"] = _ordered(stats)
    return new


def season_file(data: dict, header: str, path_for_errors: str | Path = "<new season>") -> bytes:
    """The YAML of a new teams file (checked like any teams file before it is written)."""
    import yaml

    parse_field(data, path_for_errors, LineMap())
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)
    head = "".join(f"# {line}\n" for line in header.splitlines())
    return (head + text).encode("utf-8")


def require_monaco(field: TeamField, path: str | Path) -> None:
    missing = [d.name for _, d in field.drivers if d.monaco is None]
    if missing:
        raise InputError(
            f"{len(missing)} driver(s) have no Monaco! ratings (first: {missing[0]})",
            file=path,
            hint="dice them first with 'paddock season dice'",
        )
