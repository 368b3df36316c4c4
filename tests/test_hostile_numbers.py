"""Numbers of any size in every numeric field of every file a user gives Paddock (issue 45): a 400-digit integer
(either sign) in a spec, teams, players or course file was an OverflowError — an internal error — in 27 fields.
Every numeric field of a complete, valid file of each kind is found by walking it, given the integer in turn,
and the file run: a located error (file, line, field) or the value accepted, never an internal error.

The files are refused while they are read (before any model is built), so every case costs milliseconds.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from test_hostile import LINE_MAX, refused, run

ROOT = Path(__file__).parents[1]
HUGE = 10**400 - 1  # 400 digits

SPEC = {
    "name": "Every Field",
    "game": "formula-d",
    "lanes": 2,
    "lane_width": 20,
    "unit": 20,
    "action_every": 5,
    "paper": "a2",
    "segments": [
        {"straight": 300},
        {"arc": {"radius": 80, "angle": 180, "turn": "left", "transition": 5, "stops": 1}},
        {"straight": 300},
        {"arc": {"radius": 80, "angle": 180, "turn": "left"}},
    ],
    "start": {"at": 2},
    "grid": 4,
    "pit": {"from": 3, "to": 8, "garages": 4, "min_roll": 2},
    "kerbs": [{"from": 20, "to": 22, "side": "left"}],
    "corners": [{"from": 40, "to": 50, "stops": 2}],
    "danger": [{"unit": 5, "lane": 1}],
    "police_line": 30,
    "howling": [{"from": 5, "to": 9}],
}
POINTS = {"name": "Points", "points": [[0, 0], [500, 0], [500, 300], [0, 300]], "fit": 40, "smoothing": 20}
TEAMS = {
    "name": "Field",
    "game": "monaco",
    "teams": [
        {
            "name": name,
            "colours": {"primary": colour},
            "qualifying": {"q1": 1, "q2": 0, "q3": -1},
            "drivers": [
                {"name": f"{name} One", "number": 2 * i + 1, "monaco": {"skill": 3, "tech": 2}},
                {"name": f"{name} Two", "number": 2 * i + 2, "monaco": {"skill": 4, "tech": 2}},
            ],
        }
        for i, (name, colour) in enumerate([("Alpha", "red"), ("Beta", "blue")])
    ],
}
PLAYERS = {
    "players": [
        {"name": "Ann", "wp": {"tires": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3, "handling": 2}},
        {"name": "Bob"},
    ]
}
COURSES = ROOT / "templates" / "motox" / "courses"


def course(name: str) -> dict:
    """A shipped course, with the seed `paddock motox course` writes."""
    return {**yaml.safe_load((COURSES / name).read_text(encoding="utf-8")), "seed": 7}


#: (what the file is, its data, the command that reads it: FILE is the file)
KINDS = [
    ("circuit spec", SPEC, ["check", "FILE"]),
    ("circuit spec of points", POINTS, ["check", "FILE"]),
    ("teams file", TEAMS, ["cars", "FILE", "-f", "pdf", "-q", "-o", "OUT"]),
    ("players file", PLAYERS, ["pack", "formula-d", "--players-file", "FILE", "-f", "pdf", "-q", "-o", "OUT"]),
    ("course (path)", course("twisty.yaml"), ["motox", "check", "FILE"]),
    ("course (tiles)", course("big-jumps.yaml"), ["motox", "check", "FILE"]),
]


def numeric_fields(data, path=()):
    """The key path of every numeric field in ``data`` (true/false are not numbers), each field once: of a list's
    items only the first that holds it (``tiles[0][1]`` for every tile's y)."""
    seen = set()
    for found in _numbers(data, path):
        field = (*(0 if isinstance(p, int) else p for p in found[:-1]), found[-1])
        if field not in seen:
            seen.add(field)
            yield found


def _numbers(data, path):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _numbers(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _numbers(v, (*path, i))
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield path


def with_value(data, path, value):
    data = copy.deepcopy(data)
    here = data
    for part in path[:-1]:
        here = here[part]
    here[path[-1]] = value
    return data


def field_name(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def args(command, file, tmp_path) -> list:
    return [file if a == "FILE" else tmp_path / "out" if a == "OUT" else a for a in command]


CASES = [
    pytest.param(kind, data, command, path, id=f"{kind}: {field_name(path)}")
    for kind, data, command in KINDS
    for path in numeric_fields(data)
]


def test_the_files_are_valid_and_every_field_is_found(capsys, tmp_path):
    """Each base file runs as it is (so a case's only fault is its number), and the walk finds the issue's 27
    fields and more."""
    for kind, data, command in KINDS:
        path = tmp_path / "file.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        code, _, err = run(capsys, *args(command, path, tmp_path))
        assert code == 0 or (kind.startswith("course") and code == 3), f"{kind}: {err}"
    assert len(CASES) >= 27


@pytest.mark.parametrize("kind, data, command, path", CASES)
@pytest.mark.parametrize("sign", [1, -1], ids=["+", "-"])
def test_a_400_digit_integer_in_any_numeric_field(capsys, tmp_path, kind, data, command, path, sign):
    spec = tmp_path / "file.yaml"
    spec.write_text(yaml.safe_dump(with_value(data, path, sign * HUGE), sort_keys=False), encoding="utf-8")
    code, _, err = run(capsys, *args(command, spec, tmp_path))
    line = refused(code, err)
    assert len(line) <= LINE_MAX and "file.yaml:" in line, line
    assert f"field '{field_name(path)}'" in line and "a number of 400 digits" in line, line


@pytest.mark.parametrize("text", ["9" * 400, "-" + "9" * 400, "1e400", ".inf", ".nan", "1e300"])
def test_a_huge_number_written_otherwise(capsys, tmp_path, text):
    """The same number as text (which YAML reads as a string), or as a float: said as written, never an error
    of Python's."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(SPEC, sort_keys=False).replace("lanes: 2", f"lanes: {text}"), encoding="utf-8")
    code, _, err = run(capsys, "check", spec)
    line = refused(code, err)
    assert "spec.yaml:3: field 'lanes'" in line and len(line) <= LINE_MAX, line


@pytest.mark.parametrize(
    "option, value",
    [
        ("--lanes", "9" * 400),
        ("--grid", "-" + "9" * 400),
        ("--fit", "9" * 400),
        ("--smoothing", "9" * 400),
        ("--start", "9" * 400),
        ("--start", "nan"),
        ("--start", "-inf"),
        ("--edge", "9" * 400),
    ],
)
def test_a_huge_number_as_an_option(capsys, tmp_path, option, value):
    csv = tmp_path / "c.csv"
    csv.write_text("0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    code, _, err = run(capsys, "check", csv, f"{option}={value}")
    line = refused(code, err)
    assert option in line and "a mapping" not in line and "9" * 30 not in line, line
