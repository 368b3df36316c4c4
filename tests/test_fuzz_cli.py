"""Fuzzing the command line (issues 28 and 45): spec, CSV, team, players and course files, paths and the numeric
options, drawn by hypothesis (fixed seed, bounded examples). Whatever the input: exit 0, 2 or 3; an error said in
one line, or a first line and one line per problem as ``paddock check`` lists them; no traceback; every line at
most LINE_MAX (300) characters; an error about a file names it; a user's files in --out named like Paddock's
temporaries left as they were.

The commands run in this process (fast). The heaviest inputs — the most a spec's lists may hold, and degenerate
centre lines (random polygons, zig-zags, rosettes, spirals at 1 mm, random walks, coordinates up to 10^9) through
every command that builds a board — run as a subprocess whose budget is the kernel's: 10 s of CPU time
(RLIMIT_CPU) and 1 GB of address space (RLIMIT_AS), its peak RSS measured too (``test_hostile.bounded``).

``PADDOCK_FUZZ=N`` multiplies every test's examples by N (to explore; the suite runs with 1).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import resource
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_hostile import LINE_MAX, RSS_BYTES, bounded
from test_output_ownership import LOOKALIKES

from generator.cli import main

SCALE = int(os.environ.get("PADDOCK_FUZZ", "1"))


def examples(n: int) -> int:
    return n * SCALE


FUZZ = settings(
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


def cli(capsys, *args) -> tuple[int, str, str]:
    """``paddock ARGS`` in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err


def well_formed(code: int, err: str, what: str, out: str = "", file: Path | None = None) -> None:
    """Exit 0, 2 or 3; on an error, one 'paddock: error:' line, alone or followed by its problems a line each
    (``check`` lists a circuit's problems on stdout, ``out``, and exits 3); no traceback, no literal '\\n', every
    line at most LINE_MAX characters; an error about ``file`` (not about an option) names it."""
    assert code in (0, 2, 3), f"{what}: exit {code}\n{err}"
    assert "Traceback" not in err and "internal error" not in err, f"{what}\n{err}"
    if code == 3 and "paddock: error:" not in err and out:
        assert re.search(r"^  \S", out, re.M), f"{what}\n{out}\n{err}"
        return
    lines = [line for line in err.splitlines() if line.strip()]
    assert all(len(line) <= LINE_MAX for line in lines), f"{what}\n{err}"
    assert "problems:\\n" not in err, f"{what}\n{err}"  # a list is a line per problem, never joined by '\\n'

    errors = [i for i, line in enumerate(lines) if line.startswith("paddock: error: ")]
    if code:
        assert len(errors) == 1, f"{what}\n{err}"
        first = errors[0]
        after = [line for line in lines[first + 1 :] if not line.startswith("paddock: warning: ")]
        if after:  # a list: the first line says how many, each problem is an indented line
            assert re.search(r"\d+ problems:$", lines[first]), f"{what}\n{err}"
            assert all(line.startswith("  ") for line in after), f"{what}\n{err}"
        if file is not None and "--" not in lines[first]:
            assert file.name in err, f"{what}: the error does not name {file.name}\n{err}"
    else:
        assert not errors, f"{what}\n{err}"


def planted(out: Path) -> Path:
    """``out`` holding a user's files named like Paddock's temporaries and backups (test_output_ownership)."""
    out.mkdir(parents=True, exist_ok=True)
    for name, data in LOOKALIKES.items():
        (out / name).write_bytes(data)
    return out


def intact(out: Path, what: str) -> None:
    """Every planted file still there, byte for byte."""
    assert {n: (out / n).read_bytes() for n in LOOKALIKES} == LOOKALIKES, what


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
#: Integers of any size: 400 digits either sign (an OverflowError in 27 fields, issue 45), and every size between.
HUGE = st.one_of(
    st.integers(10**399, 10**400 - 1),
    st.integers(-(10**400) + 1, -(10**399)),
    st.integers(2**53, 10**30),
    st.integers(-(10**30), -(2**53)),
)
NUMBER = st.one_of(
    st.integers(-5, 60),
    st.integers(-(10**6), 10**6),
    st.sampled_from([0, -1, 10**100, -(10**100), 2**63, 1e308, -1e308, 1e-300]),
    HUGE,
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


ROOT = Path(__file__).parents[1]
OVAL = ROOT / "track_specs" / "oval.yaml"

# ------------------------------------------------------------------------------------------------ the fuzzing


@settings(FUZZ, max_examples=examples(150))
@given(data=CIRCUIT, cut=CUT, as_json=st.booleans())
def test_any_circuit_spec(capsys, tmp_path, data, cut, as_json):
    spec = tmp_path / "spec.yaml"
    spec.write_text(as_yaml(data, cut), encoding="utf-8")
    code, out, err = cli(capsys, "check", spec, *(["--json"] if as_json else []))
    if as_json:  # --json answers on stdout whatever happened, and says nothing on stderr
        answer = json.loads(out)
        assert answer["buildable"] == (code == 0) and code in (0, 2, 3) and "Traceback" not in err
    else:
        well_formed(code, err, f"check {data!r}", out, file=spec)


#: Every command that reads a circuit spec (or a centre-line CSV), as it is typed after the file; OUT is --out.
SPEC_COMMANDS = [
    ["check"],
    ["check", "--json"],
    ["check", "--game", "formula-d"],
    ["corners"],
    ["corners", "--json"],
    ["track", "-q", "-o", "OUT", "-f", "pdf,svg"],
    ["road", "-q", "-o", "OUT", "-f", "pdf"],
    ["simulate", "--races", "2", "--json"],
    ["pack", "f1-dice", "-q", "-o", "OUT", "-f", "pdf", "--track"],
    ["pack", "formula-d", "-q", "-o", "OUT", "-f", "pdf", "--track"],
    ["pack", "monaco", "-q", "-o", "OUT", "-f", "pdf", "--track"],
]


def spec_command(command: list[str], spec: Path, out: Path) -> list:
    """The command line: the spec where it goes (after --track, or first), OUT as --out."""
    args = [out if a == "OUT" else a for a in command]
    return [*args, spec] if args[-1] == "--track" else [args[0], spec, *args[1:]]


@settings(FUZZ, max_examples=examples(40))
@given(data=CIRCUIT.filter(lambda d: "segments" in d or "points" in d), command=st.sampled_from(SPEC_COMMANDS))
def test_any_circuit_through_any_command(capsys, tmp_path, data, command):
    """Every command that builds a board, on any spec: well formed, and the user's files in --out untouched."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(as_yaml(data, None), encoding="utf-8")
    out = planted(tmp_path / "out")
    code, stdout, err = cli(capsys, *spec_command(command, spec, out))
    what = f"{' '.join(command)} {data!r}"
    if "--json" in command and command[0] in ("check", "corners"):  # they answer in JSON, error or not
        json.loads(stdout)
        assert code in (0, 2, 3) and "Traceback" not in err, f"{what}\n{err}"
    else:
        well_formed(code, err, what, stdout, file=spec)
    intact(out, what)


@settings(FUZZ, max_examples=examples(40))
@given(data=FIELD, cut=CUT)
def test_any_teams_file(capsys, tmp_path, data, cut):
    teams = tmp_path / "teams.yaml"
    teams.write_text(as_yaml(data, cut), encoding="utf-8")
    code, _, err = cli(capsys, "cars", teams, "-o", planted(tmp_path / "out"), "-f", "pdf,svg", "-q")
    well_formed(code, err, f"cars {data!r}", file=teams)
    intact(tmp_path / "out", f"cars {data!r}")


@settings(FUZZ, max_examples=examples(25))
@given(data=PLAYERS, cut=CUT)
def test_any_players_file(capsys, tmp_path, data, cut):
    players = tmp_path / "players.yaml"
    players.write_text(as_yaml(data, cut), encoding="utf-8")
    code, _, err = cli(
        capsys, "pack", "formula-d", "--players-file", players, "-o", tmp_path / "out", "-f", "pdf", "-q"
    )
    well_formed(code, err, f"players {data!r}", file=players)


@settings(FUZZ, max_examples=examples(80))
@given(data=COURSE, cut=CUT)
def test_any_course_file(capsys, tmp_path, data, cut):
    course = tmp_path / "course.yaml"
    course.write_text(as_yaml(data, cut), encoding="utf-8")
    code, out, err = cli(capsys, "motox", "check", course)
    well_formed(code, err, f"motox check {data!r}", out, file=course)


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
            "9" * 400,
            "-" + "9" * 400,
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
    HUGE.map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
)
#: (the command before the option, the option): every numeric option a user may type, on a command that costs
#: little to run (the drawing ones on a small sheet, PDF only); an option taking a length or a list gets the value
#: as its number (``--lap 12ft`` → ``--lap {value}ft``, ``--extras 1={value}``)
OPTIONS = [
    (["check", OVAL], "--edge"),
    (["check", OVAL], "--lanes"),
    (["check", OVAL], "--grid"),
    (["check", OVAL], "--start"),
    (["check", "CSV"], "--lanes"),
    (["check", "CSV"], "--smoothing"),
    (["check", "CSV"], "--fit"),
    (["check", "CSV"], "--start"),
    (["calibrate", "-f", "pdf,png"], "--dpi"),
    (["calibrate", "-f", "pdf"], "--edge"),
    (["cars", "TEAMS", "-f", "pdf"], "--unit"),
    (["cars", "TEAMS", "-f", "pdf"], "--blank-rows"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--races"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--cars"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--laps"),
    (["pack", "f1-dice", "--teams", "TEAMS", "-f", "pdf"], "--start"),
    (["pack", "formula-d", "--players", "Ann,Bob", "-f", "pdf"], "--wp"),
    (["pack", "formula-d", "--players", "Ann,Bob", "-f", "pdf"], "--pit-roll"),
    (["pack", "formula-d", "--players", "Ann,Bob", "-f", "pdf"], "--laps"),
    (["pack", "monaco", "-f", "pdf"], "--races"),
    (["pack", "monaco", "-f", "pdf"], "--laps"),
    (["pack", "monaco", "-f", "pdf"], "--lap"),
    (["pack", "monaco", "-f", "pdf"], "--lane-width"),
    (["pack", "rwb-trouble", "-f", "pdf"], "--turns"),
    (["pack", "rwb-trouble", "-f", "pdf"], "--extras"),
    (["road", "-f", "pdf"], "--car-length"),
    (["road", "-f", "pdf"], "--grid"),
    (["piecepack", "-f", "pdf"], "--tile-size"),
    (["simulate", OVAL, "--races", "2", "--json"], "--seed"),
    (["simulate", OVAL, "--json"], "--races"),
    (["simulate", OVAL, "--races", "2", "--json"], "--cars"),
    (["simulate", OVAL, "--races", "2", "--json"], "--laps"),
    (["motox", "course", "-q"], "--players"),
    (["motox", "course", "-q"], "--seed"),
    (["pack", "motox", "-f", "pdf"], "--players"),
    (["pack", "motox", "-f", "pdf"], "--seed"),
    (["season", "dice", "monaco-example", "-q"], "--seed"),
]
UNITS = {"--lap": "ft", "--lane-width": "mm", "--car-length": "mm", "--tile-size": "mm"}


@settings(FUZZ, max_examples=examples(80))
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
    value = {"--wp": f"tires={value}", "--extras": f"1={value}"}.get(flag, value + UNITS.get(flag, ""))
    out = tmp_path / ("c.yaml" if before[0] in ("motox", "season") else "out")
    where = [] if before[0] in ("check",) or "--json" in before else ["-o", out]
    code, stdout, err = cli(capsys, *before, *where, f"{flag}={value}")
    well_formed(code, err, f"{before} {flag}={value!r}", stdout)


# ----------------------------------------------------------------------------------------------- long paths


@settings(FUZZ, max_examples=examples(20))
@given(
    length=st.integers(1, 4096),
    part=st.sampled_from([40, 200, 255, 256, 300]),
    exists=st.booleans(),
    command=st.sampled_from(["check", "track", "cars", "calibrate", "players", "course"]),
)
def test_paths_up_to_4096_characters(capsys, tmp_path, length, part, exists, command):
    """A spec, teams, players or course file, or --out, at a path of up to 4,096 characters (its folders' names
    up to ``part`` characters each: past 255 no file system takes them): written or read, or refused in one line
    naming the path (ENAMETOOLONG was an internal error)."""
    names, room = [], length - len(str(tmp_path)) - 1
    while room > 0:
        names.append("d" * max(1, min(part, room - 1)))
        room -= len(names[-1]) + 1
    deep = tmp_path.joinpath(*names) if names else tmp_path
    made = False
    if exists:
        try:
            deep.mkdir(parents=True, exist_ok=True)
            made = True
        except OSError:
            pass
    source = {"check": OVAL, "track": OVAL, "cars": None, "players": None, "course": None, "calibrate": None}[command]
    kinds = {
        "players": "players: [{name: Ann}, {name: Bob}]\n",
        "cars": "name: T\nteams:\n  - {name: A, colours: {primary: red}, drivers: [{name: Ann Bee}]}\n",
        "course": (ROOT / "templates" / "motox" / "courses" / "twisty.yaml").read_text(encoding="utf-8"),
    }
    file = deep / "f.yaml"
    if made:
        with contextlib.suppress(OSError):
            file.write_text(source.read_text(encoding="utf-8") if source else kinds.get(command, ""), encoding="utf-8")
    out = deep / "out"
    args = {
        "check": ["check", file],
        "track": ["track", file, "-o", out, "-f", "pdf", "-q"],
        "cars": ["cars", file, "-o", out, "-f", "pdf", "-q"],
        "calibrate": ["calibrate", "-o", out, "-f", "pdf"],
        "players": ["pack", "formula-d", "--players-file", file, "-o", out, "-f", "pdf", "-q"],
        "course": ["motox", "check", file],
    }[command]
    code, stdout, err = cli(capsys, *args)
    assert code in (0, 2, 3), f"{command} at {len(str(file))} characters: exit {code}\n{err}"
    well_formed(code, err, f"{command} at {len(str(file))} characters", stdout)


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
    """The most a spec's lists may hold (or half of it), drawn in every format: a subprocess answers within the
    time budget and 1 GB."""
    key, make, most = heavy
    spec = tmp_path / "big.yaml"
    spec.write_text(yaml.safe_dump(make(int(most * share)), default_flow_style=True, width=10**6), encoding="utf-8")
    code, err, _, rss = bounded(["track", spec.name, "-o", "out", "-f", "pdf,svg,png", "-q"], tmp_path)
    well_formed(code, err, f"{key} x {int(most * share)}", file=spec)
    assert rss < RSS_BYTES, f"{key}: {rss / 2**20:.0f} MB"


def degenerate(kind: str, n: int, size: float, seed: int) -> np.ndarray:
    """A centre line no circuit is like, ``size`` across (any unit): ``n`` random points in turn (a random
    polygon), a zig-zag, a rosette of ``n`` petals, a spiral of 1 mm turns, a random walk, a circle."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, max(n, 8) * 10, endpoint=False)
    if kind == "polygon":
        P = rng.uniform(-1, 1, (n, 2))
    elif kind == "zigzag":
        P = np.column_stack((np.arange(n) / n, np.where(np.arange(n) % 2, 0.05, -0.05)))
    elif kind == "rosette":
        r = np.cos(n * t)
        P = np.column_stack((r * np.cos(t), r * np.sin(t)))
    elif kind == "spiral":  # turns 1 mm apart, whatever the size asked
        t = np.linspace(0, n * 2 * np.pi, n * 40)
        P = np.column_stack((t * np.cos(t), t * np.sin(t))) * (0.001 / (2 * np.pi))
        return P
    elif kind == "walk":
        P = np.cumsum(rng.normal(size=(n, 2)), axis=0)
    else:
        P = np.column_stack((np.cos(t), np.sin(t)))
    return P / max(float(np.abs(P).max()), 1e-12) * size


#: Every command that builds a board from a centre line, as typed after the CSV; OUT is --out.
LINE_COMMANDS = [
    ["check"],
    ["check", "--json"],
    ["corners"],
    ["corners", "--json"],
    ["track", "-o", "OUT", "-f", "pdf"],
    ["road", "-o", "OUT", "-f", "pdf"],
    ["simulate", "--races", "2", "-o", "OUT", "-f", "pdf"],
    ["pack", "formula-d", "-o", "OUT", "-f", "pdf", "--track"],
    ["pack", "f1-dice", "-o", "OUT", "-f", "pdf", "--track"],
]
KINDS = ["polygon", "zigzag", "rosette", "spiral", "walk", "circle"]


@settings(FUZZ, max_examples=examples(6))
@given(
    kind=st.sampled_from(KINDS),
    n=st.integers(4, 120),
    size=st.sampled_from([1e-3, 1.0, 1e3, 1e6, 1e9]),
    seed=st.integers(0, 3),
    command=st.sampled_from(LINE_COMMANDS),
)
@example(kind="walk", n=100, size=1e3, seed=0, command=["corners", "--json"])  # the issue's: killed at 60 s
@example(kind="zigzag", n=500, size=1e3, seed=0, command=["check"])  # 47 s of CPU
@example(kind="rosette", n=4, size=1e3, seed=0, command=["track", "-o", "OUT", "-f", "pdf"])  # past 60 s
@example(kind="polygon", n=6, size=1e3, seed=0, command=["pack", "formula-d", "-o", "OUT", "-f", "pdf", "--track"])
@example(kind="spiral", n=12, size=1.0, seed=0, command=["corners"])
@example(kind="circle", n=20, size=1e6, seed=0, command=["corners"])  # a circuit in mm: past 60 s
@example(kind="circle", n=20, size=9.9e8, seed=0, command=["corners", "--json"])  # asked for 9.27 GiB
@example(kind="circle", n=20, size=1e8, seed=0, command=["pack", "formula-d", "-o", "OUT", "-f", "pdf", "--track"])
def test_degenerate_lines_through_every_command(tmp_path, kind, n, size, seed, command):
    """A centre line no circuit is like, through a command that builds a board from it: refused (its limit
    said, the user's file named) or built, within 10 s of CPU and 1 GB of address space (the subprocess's limits),
    one line each message."""
    csv = tmp_path / f"{kind}.csv"
    np.savetxt(csv, degenerate(kind, n, size, seed), delimiter=",", fmt="%.9g")
    args = [str(a) for a in spec_command(command, csv.name, Path("out"))]
    code, err, _, rss = bounded([*args, "-q"] if "--json" not in args else args, tmp_path, memory=1 << 30)
    what = f"{kind} n={n} size={size:g} seed={seed}: {' '.join(command)}"
    if "--json" in command:  # the answer, error or not, is the JSON on stdout
        assert code in (0, 2, 3) and "Traceback" not in err, f"{what}: exit {code}\n{err}"
    else:
        well_formed(code, err, what, file=csv)
    assert rss < RSS_BYTES, f"{what}: {rss / 2**20:.0f} MB"
