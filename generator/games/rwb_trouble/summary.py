"""The RWB TROUBLE rule summary's numbers and tables (the contract in DEVELOPERS.md, "Rule summaries").

``templates/rwb-trouble/summary.yaml`` holds the words; :func:`values` fills its ``{placeholders}`` and
:func:`tables` gives its tables, both computed from the same facts the TROUBLE sheets print — the tables sheet draws
its chip and track tables from :func:`tables` too.
"""

from __future__ import annotations

from typing import Any

from . import facts


def values(**_race: object) -> dict[str, str]:
    """Every ``{placeholder}`` of summary.yaml, from the facts: never a number typed in the YAML. The summary is the
    same for every race (the race's own numbers are on its chip card), so what a pack passes is not used."""
    v = dict(facts.values())
    rule = facts.chip_rule()
    turns = facts.rules().chips.example_turns
    example = facts.chip_plan(turns, next(iter(facts.tracks())))
    v |= {
        "dice_cap": v["dice"][0].upper() + v["dice"][1:],
        "sides": str(facts.dice()[1]),
        "spaces": str(len(facts.form_keys())),
        "example_turns": str(turns),
        "example_extras": str(example.extras),
        "example_total": str(example.total),
        "start_total": str(rule.per_space * len(facts.form_keys())),
        "credit": facts.credit(),
    }
    for n, ex in enumerate(facts.accident_examples(), 1):
        div = facts.divisor(ex.group)
        v |= {
            f"ex{n}_group": facts.group_name(ex.group),
            f"ex{n}_a": str(ex.dice[0]),
            f"ex{n}_b": str(ex.dice[1]),
            f"ex{n}_total": str(ex.total),
            f"ex{n}_exact": facts.exact_quotient(ex.total, div),
            f"ex{n}_drivers": str(ex.drivers),
            f"ex{n}_first": str(ex.first),
            f"ex{n}_named": facts.named_drivers(ex),
        }
    reading = facts.sheets().readings
    v |= {
        "reading_pick": f"**{reading.pick.question}** Draw a chip blind. {' '.join(reading.pick.steps)} On a "
        f"{example.turns}-turn {example.track_name} ({_chips_words(example)}) the first TROUBLE is "
        f"{_first_words(example)}. {reading.why} {reading.pick.why}",
        "reading_share": f"**{reading.share.question}** {reading.share.text} {reading.why} {reading.share.why}",
        "reading_short": f"{reading.short_track.text} {reading.why} {reading.short_track.why}",
        "groups_note": reading.groups,
        "reading_crash": f"**{reading.crash_places.heading}.** {reading.crash_places.text} {reading.why} "
        f"{reading.crash_places.why}",
    }
    crash = facts.crash_example()
    v |= {
        "crash_group": facts.group_name(crash.group),
        "crash_failed_first": str(crash.failed_first),
        "crash_failed_second": str(crash.failed_second),
        "crash_dropped": facts.join_words([f"#{d.driver}" for d in crash.dropped]),
        "crash_drops": "; ".join(facts.crash_drops()),
        "crash_into_group": facts.group_name(crash.into_group),
    }
    return v


def _chips_words(plan: facts.ChipPlan) -> str:
    """``3 ACCIDENT chips, 1 CRASH and 1 WRECK``."""
    parts = [f"{n} {facts.form(k).name}" for k, n in facts.first_draw(plan)]
    return facts.join_words([parts[0] + " chips", *parts[1:]])


def _first_words(plan: facts.ChipPlan) -> str:
    """``an ACCIDENT 3 times in 5``: the likeliest form of the race's first TROUBLE, drawn blind."""
    key, n = max(facts.first_draw(plan), key=lambda kn: kn[1])
    name = facts.form(key).name
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} {n} times in {plan.total}"


def tables() -> dict[str, dict[str, Any]]:
    """Each table of the summary as ``{"columns": [...], "rows": [[...], ...]}``."""
    words = facts.sheets().tables
    keys = facts.group_keys()
    accident = {
        "columns": [words.total_column, words.chance_column, *(facts.group_column(k) for k in keys)],
        "rows": [
            [str(total), facts.chance_text(ways), *(str(drivers[k]) for k in keys)]
            for total, ways, drivers in facts.accident_table()
        ],
        "whole": True,  # an odds table read across: never broken over two columns or pages (issue 42)
    }
    by_group = {k: facts.driver_chances(k) for k in keys}
    counts = sorted({n for c in by_group.values() for n in c})
    chances = {
        "columns": [words.drivers_column, *(facts.group_name(k) for k in keys)],
        "rows": [[str(n), *(facts.chance_text(by_group[k].get(n, 0)) for k in keys)] for n in counts],
        "whole": True,
    }
    lengths = facts.chips_by_length(words.chips_columns)
    chips = {
        "columns": [words.turns_row, *(t for t, _, _ in lengths)],
        "rows": [
            [words.extras_row, *(str(e) for _, e, _ in lengths)],
            [words.total_row, *(str(n) for _, _, n in lengths)],
        ],
    }
    reading = facts.sheets().readings
    rows = []
    for key, t in facts.tracks().items():
        on, read = facts.extras_space(key)
        said = words.extras_free if t.extras_on is None else facts.form(t.extras_on).plural
        share = words.share_even if on is None else words.share_on.format(space=facts.form(on).plural)
        rows.append([t.name, said, reading.short_track.table.format(space=share) if read else share])
    tracks = {"columns": [words.track_column, words.extras_column, words.share_column], "rows": rows}
    return {
        "accident_drivers": accident,
        "drivers_chance": chances,
        "chips_by_length": chips,
        "extras_by_track": tracks,
    }
