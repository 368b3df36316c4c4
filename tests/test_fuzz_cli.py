"""Fuzzing the command line (issue 28): spec, team, players and course files, and the numeric options, drawn by
hypothesis (fixed seed, bounded examples). Whatever the input: exit 0, 2 or 3; an error said in one line, or a
first line and one line per problem as ``paddock check`` lists them; no traceback; every line under LINE_HARD;
bounded memory (no test asserts a time: speed is measured in benchmarks/).

The commands run in this process (fast); :func:`test_large_inputs_in_a_bounded_process` runs the heaviest
inputs a spec may hold as a subprocess with a memory cap, its peak RSS measured.

Left to the helpers who own them (their fixes land beside this): tile positions at inf/NaN or by the
thousand in a MotoX course, ``road --lap``/``--lane-width`` and the adaptation's budgets (spirals, combs,
random points): the strategies below keep to finite tiles and leave those options out.
"""

from __future__ import annotations

import json
import math
import re
import resource
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile import LINE_HARD, RSS_BYTES, bounded

from generator.cli import main

FUZZ = settings(
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


def cli(capsys, *args) -> tuple[int, str, str, float]:
    """``paddock ARGS`` in this process: (exit code, stdout, stderr, CPU seconds)."""
    t0 = time.process_time()
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    seconds = time.process_time() - t0
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err, seconds


def well_formed(code: int, err: str, seconds: float, what: str, out: str = "") -> None:
    """Exit 0, 2 or 3; on an error, one 'paddock: error:' line, alone or followed by its problems a line each
    (``check`` lists a circuit's problems on stdout, ``out``, and exits 3); no traceback, no literal '\\n', every
    line under LINE_HARD."""
    assert code in (0, 2, 3), f"{what}: exit {code}\n{err}"
    if code == 3 and "paddock: error:" not in err and out:
        assert re.search(r"^  \S", out, re.M) and "Traceback" not in err, f"{what}\n{out}\n{err}"
        return
    assert "Traceback" not in err and "internal error" not in err, f"{what}\n{err}"
    lines = [line for line in err.splitlines() if line.strip()]
    assert all(len(line) <= LINE_HARD for line in lines), f"{what}\n{err}"
    assert "problems:\\n" not in err, f"{what}\n{err}"  # a list is a line per problem, never joined by '\\n'

    errors = [i for i, line in enumerate(lines) if line.startswith("paddock: error: ")]
    if code:
        assert len(errors) == 1, f"{what}\n{err}"
        first = errors[0]
        after = [line for line in lines[first + 1 :] if not line.startswith("paddock: warning: ")]
        if after:  # a list: the first line says how many, each problem is an indented line
            assert re.search(r"\d+ problems:$", lines[first]), f"{what}\n{err}"
            assert all(line.startswith("  ") for line in after), f"{what}\n{err}"
    else:
        assert not errors, f"{what}\n{err}"


def peak_rss() -> int:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss * (1 if sys.platform == "darwin" else 1024)


@pytest.fixture(autouse=True)
def memory_bound():
    yield
    assert peak_rss() < RSS_BYTES, f"peak {peak_rss() / 2**20:.0f} MB"


# ------------------------------------------------------------------------------------------------ strategies

#: Text a user might type, or paste: letters of every script, marks, emoji, markup, control and invisible characters.
TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("AbcXyz 0123-_.,'&<>\"/\\:;#!?é")),
        st.sampled_from(list("ÉßøŁŒИванПётрΣΩλ日本ا")),
        st.sampled_from(["\u0301", "\u200b", "\u202e", "\ufeff", "\t", "\n", "\x00", "\x1b", "\x07", "\x7f", "😀"]),
    ),
    max_size=30,
)
NUMBER = st.one_of(
    st.integers(-5, 60),
    st.integers(-(10**6), 10**6),
    st.sampled_from([0, -1, 10**100, -(10**100), 2**63, 1e308, -1e308, 1e-300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
)
VALUE = st.one_of(NUMBER, TEXT, st.dates(), st.binary(max_size=8), st.lists(st.integers(0, 9), max_size=3))
SIDE = st.sampled_from(["left", "right", "up", 3, None])


def maybe(strategy):
    return st.one_of(strategy, VALUE)


SEGMENT = st.one_of(
    st.fixed_dictionaries({"straight": maybe(st.floats(1, 800))}),
    st.fixed_dictionaries(
        {
            "arc": st.fixed_dictionaries(
                {"radius": maybe(st.floats(5, 400)), "angle": maybe(st.floats(1, 360))},
                optional={"turn": SIDE, "transition": maybe(st.floats(0, 100))},
            )
        }
    ),
    st.dictionaries(TEXT, VALUE, max_size=2),
)
POINT = st.lists(maybe(st.floats(-2000, 2000)), min_size=0, max_size=3)
UNIT = maybe(st.integers(0, 80))

CIRCUIT = st.fixed_dictionaries(
    {},
    optional={
        "name": maybe(TEXT),
        "title": maybe(TEXT),
        "game": st.sampled_from(["f1-dice", "formula-d", "monaco", "nosuch"]),
        "paper": st.sampled_from(["a3", "a4", "a1", "letter", "A3", "b5", 3]),
        "orientation": st.sampled_from(["auto", "landscape", "portrait", "sideways"]),
        "lanes": maybe(st.integers(0, 8)),
        "lane_width": NUMBER,
        "segments": st.lists(SEGMENT, max_size=10),
        "points": st.lists(POINT, max_size=14),
        "fit": st.one_of(st.just("page"), maybe(st.integers(0, 2100))),
        "smoothing": NUMBER,
        "close": st.sampled_from(["strict", "auto", "loose"]),
        "start": st.fixed_dictionaries({}, optional={"at": UNIT, "reverse": VALUE}),
        "grid": maybe(st.integers(0, 41)),
        "pit": st.fixed_dictionaries({"from": UNIT, "to": UNIT}, optional={"side": SIDE, "garages": NUMBER}),
        "kerbs": st.one_of(
            st.sampled_from(["auto", "none"]),
            st.lists(st.fixed_dictionaries({"from": UNIT, "to": UNIT, "side": SIDE}), max_size=3),
        ),
        "corners": st.lists(
            st.fixed_dictionaries({"from": UNIT, "to": UNIT}, optional={"stops": NUMBER, "name": maybe(TEXT)}),
            max_size=3,
        ),
        "danger": st.lists(st.fixed_dictionaries({"unit": UNIT}, optional={"lane": NUMBER}), max_size=3),
        "crossings": st.lists(
            st.fixed_dictionaries({}, optional={"kind": st.sampled_from(["bridge", "x"])}), max_size=2
        ),
        "csv": st.sampled_from(["nowhere.csv", "/dev/zero", "", "."]),
    },
)
CIRCUIT = st.tuples(CIRCUIT, st.dictionaries(TEXT, VALUE, max_size=1)).map(lambda t: {**t[1], **t[0]})

TEAM = st.fixed_dictionaries(
    {
        "name": maybe(TEXT),
        "colours": st.one_of(
            st.fixed_dictionaries(
                {"primary": st.sampled_from(["red", "#1b2a59", "nope", "#12", 7])},
                optional={"secondary": st.sampled_from(["white", "#ffffff", ""])},
            ),
            VALUE,
        ),
        "drivers": st.lists(
            st.fixed_dictionaries(
                {"name": maybe(TEXT)},
                optional={
                    "short": maybe(TEXT),
                    "monogram": maybe(TEXT),
                    "number": maybe(st.integers(0, 12)),
                    "monaco": st.fixed_dictionaries({"skill": NUMBER, "tech": NUMBER}),
                },
            ),
            max_size=4,
        ),
    },
    optional={
        "livery": st.sampled_from(["plain", "stripe", "nose", "zebra"]),
        "tier": st.sampled_from(["front", "back", "middle"]),
        "qualifying": st.fixed_dictionaries({"q1": NUMBER, "q2": NUMBER, "q3": NUMBER}),
    },
)
FIELD = st.fixed_dictionaries(
    {"teams": st.one_of(st.lists(TEAM, max_size=4), VALUE)},
    optional={"name": maybe(TEXT), "game": st.sampled_from(["f1-dice", "monaco", "formula-d", "chess"])},
)

ZONES = ["tires", "brakes", "gearbox", "body", "engine", "handling", "wings"]
PLAYERS = st.fixed_dictionaries(
    {
        "players": st.one_of(
            st.lists(
                st.fixed_dictionaries(
                    {"name": maybe(TEXT)},
                    optional={
                        "colour": st.sampled_from(["red", "#1d4ed8", "plaid", 5]),
                        "wp": st.dictionaries(st.sampled_from(ZONES), NUMBER, max_size=7),
                        "driver": maybe(TEXT),
                    },
                ),
                max_size=11,
            ),
            VALUE,
        )
    },
    optional={"gt": VALUE, "weather": st.booleans(), "tyres": st.booleans()},
)

MOVE = st.one_of(
    st.sampled_from(["start", "left", "right", "straight", "straight 2", "straight 22", "straight -1", "up"]),
    st.builds(lambda n: f"straight {n}", st.integers(-3, 30)),
    TEXT,
)
COURSE = st.fixed_dictionaries(
    {"name": maybe(TEXT)},
    optional={
        "players": st.one_of(st.integers(0, 10), st.lists(maybe(TEXT), max_size=5)),
        "heading": st.sampled_from(["north", "east", "up"]),
        "path": st.lists(MOVE, max_size=30),
        "tiles": st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), max_size=30),  # finite: see above
        "ramps": st.lists(
            st.fixed_dictionaries(
                {"tile": maybe(st.integers(0, 30)), "height": maybe(st.integers(0, 5))},
                optional={"edge": st.sampled_from(["north", "west", "down"])},
            ),
            max_size=6,
        ),
        "notes": maybe(TEXT),
    },
)


def as_yaml(data, cut: int | None) -> str:
    """``data`` as YAML (every character escaped as YAML allows), or, with ``cut``, its first ``cut`` characters:
    broken YAML as an editor leaves it half-saved."""
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return text if cut is None else text[:cut]


CUT = st.one_of(st.none(), st.none(), st.none(), st.integers(0, 200))


# ------------------------------------------------------------------------------------------------ the fuzzing


@settings(FUZZ, max_examples=150)
@given(data=CIRCUIT, cut=CUT, as_json=st.booleans())
def test_any_circuit_spec(capsys, tmp_path, data, cut, as_json):
    spec = tmp_path / "spec.yaml"
    spec.write_text(as_yaml(data, cut), encoding="utf-8")
    code, out, err, seconds = cli(capsys, "check", spec, *(["--json"] if as_json else []))
    if as_json:  # --json answers on stdout whatever happened, and says nothing on stderr
        answer = json.loads(out)
        assert answer["buildable"] == (code == 0) and code in (0, 2, 3) and "Traceback" not in err
    else:
        well_formed(code, err, seconds, f"check {data!r}", out)


@settings(FUZZ, max_examples=25)
@given(data=CIRCUIT.filter(lambda d: "segments" in d or "points" in d))
def test_any_circuit_drawn(capsys, tmp_path, data):
    spec = tmp_path / "spec.yaml"
    spec.write_text(as_yaml(data, None), encoding="utf-8")
    code, _, err, seconds = cli(capsys, "track", spec, "-o", tmp_path / "out", "-f", "pdf,svg", "-q")
    well_formed(code, err, seconds, f"track {data!r}")


@settings(FUZZ, max_examples=40)
@given(data=FIELD, cut=CUT)
def test_any_teams_file(capsys, tmp_path, data, cut):
    teams = tmp_path / "teams.yaml"
    teams.write_text(as_yaml(data, cut), encoding="utf-8")
    code, _, err, seconds = cli(capsys, "cars", teams, "-o", tmp_path / "out", "-f", "pdf,svg", "-q")
    well_formed(code, err, seconds, f"cars {data!r}")


@settings(FUZZ, max_examples=25)
@given(data=PLAYERS, cut=CUT)
def test_any_players_file(capsys, tmp_path, data, cut):
    players = tmp_path / "players.yaml"
    players.write_text(as_yaml(data, cut), encoding="utf-8")
    code, _, err, seconds = cli(
        capsys, "pack", "formula-d", "--players-file", players, "-o", tmp_path / "out", "-f", "pdf", "-q"
    )
    well_formed(code, err, seconds, f"players {data!r}")


@settings(FUZZ, max_examples=80)
@given(data=COURSE, cut=CUT)
def test_any_course_file(capsys, tmp_path, data, cut):
    course = tmp_path / "course.yaml"
    course.write_text(as_yaml(data, cut), encoding="utf-8")
    code, out, err, seconds = cli(capsys, "motox", "check", course)
    well_formed(code, err, seconds, f"motox check {data!r}", out)


#: An option's value as typed: numbers in and out of range, huge, signed, not numbers at all.
TYPED = st.one_of(
    st.sampled_from(
        [
            "0",
            "-1",
            "1",
            "2",
            "7",
            "10",
            "96",
            "1e308",
            "1e400",
            "inf",
            "-inf",
            "nan",
            "9" * 100,
            "abc",
            "",
            " ",
            "1_000",
            "0x10",
            "3.5",
            "-0",
            "1,5",
            "page",
        ]
    ),
    st.integers(-(10**4), 10**4).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
)
OVAL = Path(__file__).parents[1] / "track_specs" / "oval.yaml"
#: (the command before the option, the option): every numeric option a user may type, on a command that costs
#: little to run (the drawing ones on a small sheet, PDF only)
OPTIONS = [
    (["check", OVAL], "--edge"),
    (["check", OVAL], "--lanes"),
    (["check", "CSV"], "--lanes"),
    (["check", "CSV"], "--smoothing"),
    (["check", "CSV"], "--fit"),
    (["calibrate", "-f", "pdf,png"], "--dpi"),
    (["calibrate", "-f", "pdf"], "--edge"),
    (["cars", "TEAMS", "-f", "pdf"], "--unit"),
    (["cars", "TEAMS", "-f", "pdf"], "--blank-rows"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--races"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--cars"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--laps"),
    (["pack", "formula-d", "--players", "Ann,Bob", "-f", "pdf"], "--wp"),
    (["pack", "monaco", "-f", "pdf"], "--races"),
    (["pack", "monaco", "-f", "pdf"], "--laps"),
    (["motox", "course", "-q"], "--players"),
    (["motox", "course", "-q"], "--seed"),
    (["pack", "motox", "-f", "pdf"], "--players"),
]


@settings(FUZZ, max_examples=60)
@given(option=st.sampled_from(OPTIONS), value=TYPED)
def test_any_numeric_option(capsys, tmp_path, option, value):
    csv = tmp_path / "c.csv"
    csv.write_text("0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    teams = tmp_path / "t.yaml"
    teams.write_text(
        "name: T\ngame: f1-dice\nteams:\n  - {name: A, colours: {primary: red}, qualifying: {q1: 1, q2: 1, q3: 0}, "
        "drivers: [{name: Ann Bee}, {name: Bob Cy}]}\n  - {name: B, colours: {primary: blue}, "
        "qualifying: {q1: 0, q2: 0, q3: 0}, drivers: [{name: Cleo Dee}, {name: Dan Eve}]}\n",
        encoding="utf-8",
    )
    before, flag = option
    before = [csv if a == "CSV" else teams if a == "TEAMS" else a for a in before]
    if flag == "--wp":
        value = f"tires={value}"
    where = (
        [] if before[0] in ("check",) else ["-o", tmp_path / ("c.yaml" if before[:2] == ["motox", "course"] else "out")]
    )
    code, out, err, seconds = cli(capsys, *before, *where, f"{flag}={value}")
    well_formed(code, err, seconds, f"{before} {flag}={value!r}", out)


# ------------------------------------------------------------------------------------ the heaviest, in a process

HEAVY = st.sampled_from(
    [
        (
            "points",
            lambda n: {
                "name": "P",
                "points": [
                    [round(math.cos(i / n * 6.2832) * 900, 3), round(math.sin(i / n * 6.2832) * 500, 3)]
                    for i in range(n)
                ],
            },
            10_000,
        ),
        (
            "segments",
            lambda n: {"name": "S", "segments": [{"arc": {"radius": 50, "angle": 0.18, "turn": "left"}}] * n},
            2000,
        ),
        (
            "corners",
            lambda n: {
                "name": "C",
                "segments": [{"straight": 300}, {"arc": {"radius": 60, "angle": 180, "turn": "left"}}] * 2,
                "corners": [{"from": i % 40 + 1, "to": i % 40 + 2} for i in range(n)],
            },
            200,
        ),
    ]
)


@settings(FUZZ, max_examples=3)
@given(heavy=HEAVY, share=st.sampled_from([0.5, 1.0]))
def test_large_inputs_in_a_bounded_process(tmp_path, heavy, share):
    """The most a spec's lists may hold (or half of it), drawn in every format: a subprocess answers (a hang is
    killed, see test_hostile.bounded) within 1 GB."""
    key, make, most = heavy
    spec = tmp_path / "big.yaml"
    spec.write_text(yaml.safe_dump(make(int(most * share)), default_flow_style=True, width=10**6), encoding="utf-8")
    code, err, seconds, rss = bounded(["track", spec.name, "-o", "out", "-f", "pdf,svg,png", "-q"], tmp_path)
    well_formed(code, err, seconds, f"{key} x {int(most * share)}")
    assert rss < RSS_BYTES, f"{key}: {rss / 2**20:.0f} MB"
