"""The figures docs/reference.md states that come from the code, compared with the code (issue 43: a doc said 32
pages where the pack prints 31, and "4 bike standees" where the piecepack prints pawns). The page count and dpi of
`pack monaco`'s previews are compared in tests/test_hostile_inputs.py, where that pack is refused anyway."""

from __future__ import annotations

import importlib
import inspect
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _words(path: str) -> str:
    """A doc's text with its line breaks and runs of spaces as single spaces (a figure may wrap)."""
    return " ".join((ROOT / path).read_text(encoding="utf-8").split())


def _max_length(model, field: str) -> int:
    return next(m.max_length for m in model.model_fields[field].metadata if hasattr(m, "max_length"))


def test_reference_limits_are_the_codes():
    from generator import inputs, messages, specs
    from generator.cli import LISTED_MAX
    from generator.games.formula_d import builds
    from generator.games.formula_d import circuit as fd_circuit
    from generator.messages import LINE_MAX
    from generator.paper import PAPERS
    from generator.teams import models as teams
    from generator.track import centerline
    from generator.track import model as track
    from generator.writers import png

    a1 = PAPERS["a1"]
    a1_dpi = math.floor(math.sqrt(png.MAX_PIXELS / ((a1.short / 25.4) * (a1.long / 25.4))))
    quoted = inspect.signature(messages.quote).parameters["limit"].default
    text = _words("docs/reference.md")
    for figure in (
        f"YAML files of at most {specs.MAX_YAML_BYTES // 2**20} MB with at most {specs.MAX_YAML_NODES:,} values",
        f"nested at most {specs.MAX_YAML_DEPTH} deep",
        f"CSV files of at most {inputs.MAX_INPUT_BYTES // 2**20} MB and {centerline.MAX_CSV_POINTS:,} points",
        "coordinates within ±10⁹",
        f"A circuit has at most {track.MAX_SEGMENTS:,} segments adding up to at most {track.MAX_LAP_MM // 1000} m, "
        f"{track.MAX_POINTS:,} inline points, {track.MAX_ITEMS} corners",
        f"field at most {teams.MAX_TEAMS} teams and {teams.MAX_DRIVERS} drivers",
        f"No number in any file is larger than 10{str(specs.MAX_POWER).translate(SUPERSCRIPT)}",
        f"crosses itself at most {importlib.import_module('generator.track.load').MAX_CROSSINGS} times",
        f"a real circuit made into a Formula D board is at most {fd_circuit.MAX_REAL_LAP_M // 1000} km round",
        f"Formula D at most {builds.PLAYERS_MAX} players",
        f"a PNG page at most {png.MAX_PIXELS // 10**6} million pixels (A1 up to {a1_dpi} dpi)",
        f"the PNG previews of one run at most {png.MAX_RUN_PIXELS // 10**6} million pixels in all",
        f"a circuit's name {_max_length(track.CircuitSpec, 'name')} characters, "
        f"its title {_max_length(track.CircuitSpec, 'title')}, a player's name {builds.NAME_MAX}",
        f"at most {LISTED_MAX} of them",
        f"Every line of a message is at most {LINE_MAX} characters",
        f"it quotes at most about {quoted} characters of any value",
    ):
        assert figure in text, figure
    assert centerline.MAX_CSV_COORD == track.MAX_COORD == 1e9


def test_reference_says_what_the_piecepack_prints():
    """The piecepack's pieces as its command's help (from the code) says them: pawns, not bike standees."""
    from generator.cli import _command

    said = " ".join(_command().commands["piecepack"].help.split())
    text = _words("docs/reference.md")
    assert "4 pawns" in said and "bike standees" not in text
    row = text.split("| `paddock piecepack` |")[1].split("|")[0]
    for piece in ("24 tiles", "24 coins", "4 dice", "4 pawns"):
        assert piece in said and piece in row, piece


def test_preview_figures_are_the_codes():
    from generator.preview import web

    text = _words("docs/preview.md")
    assert f"closed after {web.IDLE_TIMEOUT:g} s; at most {web.MAX_LISTENERS} pages listen at once" in text
