"""What a board loses of a real circuit's character is said on it (issue 32): real bends merged into one, smoothed
away or swung out into a loop, each named by where it is on the board (units) and on the real circuit (km), in the
legend and in ``paddock check`` — checked against circuits whose bends are known because they were drawn by hand or
generated, and never said of a straight."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import pdf_text
from synthetic_circuits import drawn, generated_set

from generator.cli import main
from generator.track import CircuitSpec, analyse, character
from generator.track.centerline import Line, arc_lengths

LANE = 10.0  # f1-dice: a 20 mm track
#: a 1.5 km rectangle; a chicane (40° left, 80° right, 40° left, of 20 m radius) on its first side; a street step
RECT = [(90, 100), ("S", 500), (90, 100), ("S", 1500), (90, 100), ("S", 500), (90, 100)]
CHICANE = [("S", 700), (40, 20), ("S=", 10), (-80, 20), ("S=", 10), (40, 20), ("S", 700)]
STEP = [("S", 1500), (90, 60), ("S", 500), (90, 60), ("S", 1500)]
STEP += [(90, 12), ("S=", 60), (-90, 12), ("S=", 60), (90, 12), ("S", 500), (90, 60)]


def _csv(tmp_path: Path, name: str, xy: np.ndarray) -> Path:
    path = tmp_path / f"{name}.csv"
    path.write_text("x_m,y_m\n" + "\n".join(f"{x:.3f},{y:.3f}" for x, y in xy) + "\n", encoding="utf-8")
    return path


def _lines(done) -> list[str]:
    """What the board says it lost: the lines naming the real line's km."""
    return [str(c) for c in done.changes if re.search(r"real line.* \([^()]* km\)", str(c))]


def _km(line: str) -> list[float]:
    """The places a line names on the real line, in metres."""
    inside = re.search(r"\(([^()]*) km\)", line)
    return [float(v) * 1000 for v in re.findall(r"\d+\.\d+", inside.group(1))] if inside else []


def _line(xy: np.ndarray) -> Line:
    """A closed :class:`Line` through the points ``xy``."""
    Q = np.vstack((xy, xy[:1]))
    seg = np.diff(Q, axis=0)
    th = np.unwrap(np.arctan2(seg[:, 1], seg[:, 0]))
    th = np.append(th, th[0] + 2 * np.pi * round((th[-1] - th[0]) / (2 * np.pi)))
    return Line(arc_lengths(Q), Q, th, np.zeros(len(Q)))


def _built(tmp_path, name, parts):
    xy, mids = drawn(parts)
    csv = _csv(tmp_path, name, xy)
    return analyse(CircuitSpec(name=name, csv=str(csv), lane_width=LANE), csv), mids, csv


def test_a_street_step_too_tight_for_the_board_is_said_where_it_is(tmp_path):
    done, mids, _ = _built(tmp_path, "street", STEP)
    assert done.buildable
    step = [mids[5], mids[7], mids[9]]  # left, right, left: 90° each, 60 m apart
    said = _lines(done)
    assert said, done.changes
    named = [m for line in said for m in _km(line)]
    assert named  # the step's right turn, between its two lefts, is flattened
    assert all(min(abs(m - s) for s in step) < 30 for m in named), (named, step)
    assert all(re.match(r"units? \d+(–\d+)?: ", line) for line in said)
    assert done.circuit.notes[-len(said) :] == tuple(said)  # in the legend too


def test_a_chicane_shorter_than_a_unit_is_said_smoothed(tmp_path):
    done, mids, _ = _built(tmp_path, "chicane", [*CHICANE, *RECT])
    said = _lines(done)
    assert len(said) == 1 and "3 bends of the real line (" in said[0] and "° left at " in said[0], said
    named = _km(said[0])
    assert len(named) == 3 and all(min(abs(m - mids[i]) for i in (1, 3, 5)) < 30 for m in named)


def test_wide_bends_lose_nothing(tmp_path):
    oval = [("S", 1500), (90, 250), ("S", 300), (90, 250), ("S", 1500), (90, 250), ("S", 300), (90, 250)]
    done, _, _ = _built(tmp_path, "oval", oval)
    assert done.buildable and _lines(done) == []


def test_a_hairpin_the_board_swings_out_is_a_loop():
    # the same lap twice (mm, as on the page): the real one with a hairpin of 8 mm radius at the end of a finger,
    # the board's with it swung out into a bulb (45° out, 270° round, 45° back)
    common_a = [("S", 600), (90, 40), ("S", 300), (90, 40), ("S=", 200), (90, 30), ("S=", 100)]
    common_b = [("S=", 100), (90, 30), ("S", 200), (90, 40), ("S", 300), (90, 40)]
    real, rm = drawn([*common_a, ("S=", 1), (-180, 8), ("S=", 1), *common_b], spacing_m=1.0)
    board_xy, bm = drawn([*common_a, (45, 20), (-270, 20), (45, 20), *common_b], spacing_m=1.0)
    board = _line(board_xy)
    ru, bs = np.array(rm), np.array(bm)
    found = character.lost(real, board, ru, bs, 20.0, 20.0, 1.0)
    assert [x.kind for x in found] == ["loop"], found
    assert abs(abs(found[0].real_turns[0]) - 180) < 15 and abs(found[0].board_turn) > 225
    assert abs(found[0].real_m[0] - rm[8]) < 15


def test_no_straight_of_a_generated_circuit_is_named():
    """Every bend a board is said to lose lies where the generated circuit really has a bend (its own record of
    its features), never on one of its straights."""
    import tempfile

    seen = 0
    with tempfile.TemporaryDirectory() as tmp:
        for syn in generated_set(6):
            csv = syn.write(Path(tmp) / f"{syn.name}.csv")
            done = analyse(CircuitSpec(name=syn.name, csv=str(csv), lane_width=LANE), csv)
            bends = [f for f in syn.features if f.kind != "straight"]
            for line in _lines(done):
                for m in _km(line):
                    seen += 1
                    assert any(f.s0 - 40 <= m <= f.s1 + 40 for f in bends), (syn.name, line)
    assert seen >= 6  # the generated set has street sections, infields and chicanes the board cannot keep


def test_the_legend_names_a_few_and_counts_the_rest(monkeypatch, tmp_path):
    both = [*CHICANE, *STEP[1:]]  # the chicane on the first side of the lap with the street step
    done, _, _ = _built(tmp_path, "both", both)
    full = _lines(done)
    assert len(full) >= 2
    assert done.circuit.notes[-len(full) :] == tuple(full)  # few enough: all in the legend
    for most in range(1, len(full)):
        monkeypatch.setattr(character, "LEGEND_MAX", most)
        done, _, _ = _built(tmp_path, "both", both)
        assert _lines(done) == full  # check lists every one
        legend = done.circuit.notes[-most:]
        assert legend[:-1] == tuple(full[: most - 1])  # the first few named, the rest counted
        counted = f"{len(full) - most + 1} more bends of the real line not kept as they are (paddock check lists them)"
        assert legend[-1] == (f"and {counted}" if most > 1 else counted)


def _run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err


def test_the_board_prints_what_it_lost(capsys, tmp_path):
    xy, _ = drawn([*CHICANE, *RECT])
    csv = _csv(tmp_path, "chicane", xy)
    code, _, err = _run(capsys, "track", csv, "-o", tmp_path / "out", "-f", "pdf")
    assert code == 0, err
    assert "too tight for the board" in err  # said as the board is made
    text = " ".join(pdf_text(tmp_path / "out" / "chicane.pdf").split())
    assert "3 bends of the real line" in text and "too tight for the board" in text
    code, out, _ = _run(capsys, "check", csv)
    assert code == 0 and "too tight for the board" in out


def test_bends_are_measured_alike_on_both_lines():
    """A line's bends: a 90° bend of 60 mm radius on a square lap is one bend of 90°; a lap of wide bends none."""
    xy, _ = drawn(
        [("S", 400), (90, 60), ("S", 400), (90, 60), ("S", 400), (90, 60), ("S", 400), (90, 60)], spacing_m=1.0
    )
    found = character.bends(xy, 20.0, 20.0)
    assert len(found) == 4 and all(abs(abs(b.turn_deg) - 90) < 6 for b in found)
    wide, _ = drawn(
        [("S", 400), (90, 300), ("S", 400), (90, 300), ("S", 400), (90, 300), ("S", 400), (90, 300)], spacing_m=1.0
    )
    assert character.bends(wide, 20.0, 20.0) == []
    assert arc_lengths(xy)[-1] > 0


SHIPPED = Path(__file__).resolve().parents[1] / "track_specs"  # the real circuits the docs use ship there


def test_the_docs_examples_are_what_check_says(capsys):
    text = (Path(__file__).resolve().parents[1] / "docs" / "circuits.md").read_text(encoding="utf-8")
    block = text.split("**What the board could not keep.**")[1].split("```text")[1].split("```")[0]
    said: dict[str, list[str]] = {}
    for line in block.strip().splitlines():
        if line.startswith("$ paddock check "):
            name = line.split()[3]
            said[name] = []
        else:
            said[name].append(line.strip())
    assert said
    for name, lines in said.items():
        code, out, _ = _run(capsys, "check", SHIPPED / name)
        assert code == 0
        for line in lines:
            assert f"  {line}\n" in out, (name, line)
