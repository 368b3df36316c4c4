"""MotoX's and RWB TROUBLE's facts are typed: every YAML of their ``templates/`` folders is read into a model once,
and a misspelt key fails at load, naming the file and the line — never later, at print time."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data import templates_dir
from generator.errors import InputError
from generator.games.motox import models as motox_models
from generator.games.rwb_trouble import models as rwb_models
from generator.specs import load_yaml

FILES = [
    *((motox_models, "motox", name) for name in motox_models.FILES),
    *((rwb_models, "rwb-trouble", name) for name in rwb_models.FILES),
]
# Keys that are names, not fields: a track type or a card size is whatever the file calls it.
NAMES = {("rwb-trouble", "rules.yaml", "tracks"), ("rwb-trouble", "sheets.yaml", "cards")}


def _keys(game: str, name: str) -> list[tuple[tuple, int]]:
    _, lines = load_yaml(templates_dir() / game / name)
    out = []
    for path, line in lines.items():
        if not path or not isinstance(path[-1], str):
            continue
        if (game, name, path[0]) in NAMES and len(path) == 2:
            continue
        out.append((path, line))
    return sorted(out, key=lambda p: p[1])


CASES = [
    pytest.param(mod, game, name, path, line, id=f"{game}/{name}:{'.'.join(map(str, path))}")
    for mod, game, name in FILES
    for path, line in _keys(game, name)
]


def test_every_file_of_both_games_has_a_model():
    for game, mod in (("motox", motox_models), ("rwb-trouble", rwb_models)):
        shipped = {p.name for p in (templates_dir() / game).glob("*.yaml")} - {"summary.yaml"}
        assert shipped == set(mod.FILES), f"{game}: a YAML without a model (summary.yaml is compose's)"
        for name in mod.FILES:
            assert isinstance(mod.load(name), mod.FILES[name])


@pytest.mark.parametrize(("mod", "game", "name", "path", "line"), CASES)
def test_a_misspelt_key_fails_at_load_naming_file_and_line(tmp_path: Path, mod, game, name, path, line):
    lines = (templates_dir() / game / name).read_text(encoding="utf-8").splitlines(keepends=True)
    key = str(path[-1])
    text = lines[line - 1]
    at = text.find(f"{key}:") if f"{key}:" in text else text.find(f'"{key}":')
    assert at >= 0, f"{key} not on line {line}"
    quoted = text[at] == '"'
    start = at + 1 if quoted else at
    lines[line - 1] = text[:start] + key + "x" + text[start + len(key) :]  # e.g. max_ramp → max_rampx
    bad = tmp_path / name
    bad.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as err:
        mod.read(mod.FILES[name], bad)
    e = err.value
    assert e.file == str(bad)
    assert e.line == line, f"{e.message} at line {e.line}, the misspelt key is on {line}"


def test_a_wrong_type_fails_at_load(tmp_path: Path):
    text = (templates_dir() / "motox" / "rules.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "rules.yaml"
    bad.write_text(text.replace("max_ramp: 3", "max_ramp: three"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        motox_models.read(motox_models.Rules, bad)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.strip().startswith("max_ramp:"))
    assert (err.value.field, err.value.line) == ("building.max_ramp", line)


def test_a_divisor_for_an_unknown_group_fails_at_load(tmp_path: Path):
    text = (templates_dir() / "rwb-trouble" / "rules.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "rules.yaml"
    bad.write_text(text.replace("divisor: {top: 3", "divisor: {tpo: 3"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        rwb_models.read(rwb_models.Rules, bad)
    assert err.value.field == "accident.divisor" and err.value.line is not None
