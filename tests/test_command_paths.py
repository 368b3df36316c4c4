"""No two commands write the same path with different contents into one --out (issue 45: `paddock pack rwb-trouble`
and `paddock rwb chips --turns 80` both wrote rwb-trouble/chip-card.pdf, whichever ran second replacing the other's
and the pack's print PDF no longer matching its sheets).

Every command that writes into an output folder runs once with its defaults and, where its options change what it
writes, once more with other options — each into a folder of its own (same input, byte-identical output, so a
folder stands for what the command writes into any). Then every pair of runs of two different commands: a path
both write must hold the same bytes."""

from __future__ import annotations

import hashlib
from itertools import combinations
from pathlib import Path

import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]
SPEC = str(ROOT / "track_specs" / "monte-carlo.yaml")

#: (command, its runs: each a list of extra arguments). The command is what a user types before its options.
COMMANDS: list[tuple[str, list[list[str]]]] = [
    ("calibrate", [[]]),
    ("cars", [[]]),
    ("rules f1-dice", [[], ["--paper", "letter"]]),
    ("rules formula-d", [[], ["--paper", "letter"]]),
    ("rules monaco", [[]]),
    ("rules motox", [[], ["--paper", "letter"]]),
    ("rules rwb-trouble", [[], ["--paper", "letter"]]),
    ("track", [[SPEC]]),
    ("road", [[SPEC]]),  # its folder is named after the spec, as track's file is: only a rerun meets it
    ("piecepack", [[], ["--duplex", "short"]]),
    ("pack f1-dice", [[]]),
    ("pack formula-d", [[], ["--players", "Ann,Béla"]]),
    ("pack monaco", [[]]),
    ("pack motox", [[], ["--players", "3"]]),
    ("pack rwb-trouble", [[], ["--turns", "80"]]),
    ("motox draw", [["twisty"], ["three-riders"]]),
    ("rwb chips", [[], ["--turns", "80"], ["--turns", "50", "--track", "short"]]),
    ("simulate", [["--races", "5"]]),
]


def run(args: list[str]) -> None:
    try:
        main(args)
    except SystemExit as ex:
        assert not ex.code, f"paddock {' '.join(args)} exited {ex.code}"


def written(folder: Path) -> dict[str, str]:
    """Every file a run left in ``folder`` (Paddock's own bookkeeping aside): relative path -> digest."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for k, (command, variants) in enumerate(COMMANDS):
        for j, extra in enumerate(variants):
            folder = tmp_path_factory.mktemp(f"run{k}-{j}")
            run([*command.split(), *extra, "-o", str(folder), "-f", "pdf", "-q"])
            files = written(folder)
            assert files, command
            out.append((command, " ".join(extra), files))
    return out


def test_no_two_commands_write_one_path_with_different_contents(runs):
    clashes = []
    for (a, a_opts, a_files), (b, b_opts, b_files) in combinations(runs, 2):
        if a == b:
            continue  # one command run again replaces its own files: a rerun, not a clash
        for path in sorted(a_files.keys() & b_files.keys()):
            if a_files[path] != b_files[path]:
                clashes.append(f"{path}: `{a} {a_opts}` and `{b} {b_opts}`")
    assert not clashes, "\n".join(clashes)


def test_the_rwb_chips_of_another_race_sit_beside_the_pack(tmp_path):
    """The issue's own case, in one folder: the pack's chip card and the chips for an 80-turn race side by side,
    the pack's print PDF unchanged by the second command."""
    run(["pack", "rwb-trouble", "-o", str(tmp_path), "-f", "pdf", "-q"])
    before = written(tmp_path)
    run(["rwb", "chips", "--turns", "80", "-o", str(tmp_path), "-f", "pdf", "-q"])
    after = written(tmp_path)
    assert all(after[p] == d for p, d in before.items())  # nothing of the pack replaced or removed
    new = sorted(set(after) - set(before))
    assert new == [
        "rwb-trouble/chips-80-turns-road-backs.pdf",
        "rwb-trouble/chips-80-turns-road-print.pdf",
        "rwb-trouble/chips-80-turns-road.pdf",
    ]


def test_a_command_never_replaces_another_commands_file(tmp_path, capsys):
    """A circuit named "Calibration" would be drawn to calibration.pdf, the file `paddock calibrate` wrote into
    the same folder: the second command refuses (exit 2, naming the file and the command that wrote it) and the
    first one's file is untouched; each command run again replaces its own file as before."""
    spec = tmp_path / "mine.yaml"
    spec.write_text(Path(SPEC).read_text(encoding="utf-8").replace("name: ", "name: Calibration #", 1), "utf-8")
    out = tmp_path / "out"
    run(["calibrate", "-o", str(out), "-f", "pdf", "-q"])
    before = (out / "calibration.pdf").read_bytes()
    with pytest.raises(SystemExit) as ex:
        main(["track", str(spec), "-o", str(out), "-f", "pdf", "-q"])
    err = capsys.readouterr().err
    assert ex.value.code == 2 and "'calibration.pdf'" in err and "'paddock calibrate' wrote" in err
    assert (out / "calibration.pdf").read_bytes() == before
    run(["calibrate", "-o", str(out), "-f", "pdf", "-q"])
    assert (out / "calibration.pdf").read_bytes() == before
