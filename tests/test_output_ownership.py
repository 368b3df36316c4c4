"""Only Paddock's own files in --out are ever touched, and never another command's (issue 28).

A leftover commit journal is a plan anyone could have written: recovering from it may only touch regular files
inside --out that Paddock wrote, every path checked after resolving links. Each command owns the files it wrote
(its job in the folder's manifest): a later command never removes another's. Every case checks that the file
system outside --out is untouched, byte for byte.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import outputs
from generator.cli import main


def run(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    return ex.value.code, capsys.readouterr().err


def tree(folder: Path) -> dict:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder as None (links not followed)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(folder).as_posix()
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = None
            else:
                out[rel] = p.read_bytes()
    return out


@pytest.fixture
def outside(tmp_path):
    """A folder beside --out holding files a hostile journal or manifest aims at."""
    o = tmp_path / "outside"
    o.mkdir()
    (o / "victim.txt").write_text("keep me", encoding="utf-8")
    (o / "other.txt").write_text("and me", encoding="utf-8")
    (o / ".victim.txt.abcdefgh.part").write_text("looks like a temporary, is not ours", encoding="utf-8")
    (o / ".other.txt.abcdefgh.old").write_text("looks like a backup, is not ours", encoding="utf-8")
    (o / "secret").write_text("secret", encoding="utf-8")
    return o


# ------------------------------------------------------------------------------------------ the commit journal


def test_a_journal_with_links_touches_nothing_outside_out(capsys, tmp_path, outside):
    """The issue's case: a journal naming paths through a link out of --out (and other paths that are not
    Paddock's own) deleted a file outside and overwrote another. Now every such entry is left alone and said."""
    out = tmp_path / "out" / "x"
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    pdf = (out / "calibration.pdf").read_bytes()
    (out / "link").symlink_to(outside, target_is_directory=True)
    (out / "evil.txt").symlink_to(outside / "secret")
    (out / ".evil.txt.abcdefgh.old").write_text("would replace the link", encoding="utf-8")
    (out / ".calibration.png.zzzzzzzz.old").symlink_to(outside / "secret")
    (out / "mine.txt").write_text("the user's own file", encoding="utf-8")
    journal = {
        "files": [
            ["link/victim.txt", "link/.victim.txt.abcdefgh.part", None, "0" * 16],  # delete outside
            ["link/other.txt", "link/.other.txt.abcdefgh.part", "link/.other.txt.abcdefgh.old"],  # overwrite outside
            ["link/other.txt", ".x.abcdefgh.part", "calibration.pdf"],  # a file inside moved out
            [str(outside / "victim.txt"), ".a.abcdefgh.part", None],  # absolute
            ["../outside/victim.txt", ".b.abcdefgh.part", None],  # up and out
            ["evil.txt", ".evil.txt.abcdefgh.part", ".evil.txt.abcdefgh.old"],  # a link as the target
            ["calibration.png", ".calibration.png.abcdefgh.part", ".calibration.png.zzzzzzzz.old"],  # a link backup
            ["mine.txt", ".mine.txt.abcdefgh.part", None, "0" * 16],  # not the file the run wrote: kept
            ["mine.txt", "mine.txt", "calibration.pdf"],  # not names Paddock gives its temporaries
            "nonsense",
        ],
        "stale": [["link/victim.txt", "link/.victim.txt.abcdefgh.old"], ["calibration.pdf", "mine.txt"]],
    }
    (out / outputs.JOURNAL).write_text(json.dumps(journal), encoding="utf-8")
    before = tree(outside)
    code, err = run(capsys, "calibrate", "-o", out, "-f", "pdf")
    assert code == 0, err
    assert tree(outside) == before
    assert "named 12 file(s) outside the folder or not Paddock's own; they were left alone" in err
    assert (out / "mine.txt").read_text(encoding="utf-8") == "the user's own file"
    assert (out / "calibration.pdf").read_bytes() == pdf
    assert os.readlink(out / "evil.txt") == str(outside / "secret")
    assert not (out / outputs.JOURNAL).exists()


def test_a_killed_run_is_still_rolled_back(capsys, tmp_path):
    """What the journal is for still works: a killed run's new file (its digest in the journal) is removed, an
    old file moved aside is put back, a temporary is cleared."""
    out = tmp_path / "out"
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "36", "-q")[0] == 0
    pdf, png = out / "calibration.pdf", out / "calibration.png"
    old_pdf = pdf.read_bytes()
    aside = out / ".calibration.pdf.abcdefgh.old"
    os.replace(pdf, aside)
    pdf.write_bytes(b"%PDF- the killed run's new file")
    new = out / "new.pdf"
    new.write_bytes(b"a new file the killed run moved into place")
    tmp_png = out / ".calibration.png.ijklmnop.part"
    tmp_png.write_bytes(b"never moved in")
    digest = outputs._digest(new.read_bytes())
    (out / outputs.JOURNAL).write_text(
        json.dumps(
            {
                "files": [
                    ["calibration.pdf", ".calibration.pdf.qrstuvwx.part", aside.name, "1" * 16],
                    ["new.pdf", ".new.pdf.abcdefgh.part", None, digest],
                    ["calibration.png", tmp_png.name, None, "2" * 16],
                ],
                "stale": [],
            }
        ),
        encoding="utf-8",
    )
    outputs.recover(out)
    assert pdf.read_bytes() == old_pdf and png.exists()
    assert sorted(p.name for p in out.iterdir()) == sorted([outputs.MANIFEST, pdf.name, png.name])


PATHS = st.sampled_from(
    [
        "link/victim.txt",
        "link/.victim.txt.abcdefgh.part",
        "link/.other.txt.abcdefgh.old",
        "link/other.txt",
        "link",
        "../outside/victim.txt",
        "/etc/passwd",
        "",
        ".",
        "calibration.pdf",
        ".calibration.pdf.abcdefgh.old",
        ".calibration.pdf.abcdefgh.part",
        "evil",
        ".evil.abcdefgh.old",
        "sub/../link/victim.txt",
        "link/../link/other.txt",
    ]
)
ENTRY = st.one_of(st.none(), PATHS, st.integers(), st.text(max_size=5))


@settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    files=st.lists(st.lists(ENTRY, min_size=2, max_size=5), max_size=6),
    stale=st.lists(st.lists(ENTRY, min_size=1, max_size=3), max_size=4),
)
def test_no_journal_touches_anything_outside_out(tmp_path, outside, files, stale):
    """Any journal at all (entries drawn from paths through a link, up, absolute, and Paddock's own names):
    nothing outside the folder changes, and recovery never raises."""
    out = tmp_path / "x"
    out.mkdir(exist_ok=True)
    if not (out / "link").is_symlink():
        (out / "link").symlink_to(outside, target_is_directory=True)
        (out / "evil").symlink_to(outside / "secret")
    (out / "calibration.pdf").write_bytes(b"%PDF- ours")
    (out / ".calibration.pdf.abcdefgh.old").write_bytes(b"%PDF- old")
    before = tree(outside)
    (out / outputs.JOURNAL).write_text(json.dumps({"files": files, "stale": stale}), encoding="utf-8")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outputs.recover(out)
    assert tree(outside) == before
    assert not (out / outputs.JOURNAL).exists()


# ------------------------------------------------------------------------------------ each command owns its files

SEQUENCES = {
    "formula-d: pack, rules": [["pack", "formula-d"], ["rules", "formula-d"]],
    "f1-dice: pack, rules": [["pack", "f1-dice"], ["rules", "f1-dice"]],
    "motox: pack, rules, draw": [["pack", "motox"], ["rules", "motox"], ["motox", "draw", "COURSE"]],
    "rwb-trouble: pack, chips": [
        ["pack", "rwb-trouble", "--turns", "40", "--track", "oval"],
        ["rwb", "chips", "--turns", "40", "--track", "oval"],
    ],
}


@pytest.mark.parametrize("case", SEQUENCES, ids=list(SEQUENCES))
def test_a_later_command_never_removes_another_commands_files(case, capsys, tmp_path, outside):
    """The issue's cases: commands that write into one game folder each keep their own files, and a rerun of
    the first still removes only what it no longer writes."""
    out = tmp_path / "X"
    course = Path(__file__).parents[1] / "templates" / "motox" / "courses" / "twisty.yaml"
    before_outside = tree(outside)
    seen: dict = {}
    for args in SEQUENCES[case]:
        args = [str(course) if a == "COURSE" else a for a in args]
        code, err = run(capsys, *args, "-o", out, "-f", "pdf", "-q")
        assert code == 0, err
        now = tree(out)
        for rel in seen:  # every file an earlier command wrote is still there (maybe rewritten)
            assert rel in now, f"{' '.join(args)} removed {rel}"
        seen.update({k: v for k, v in now.items() if v is not None})
    assert tree(outside) == before_outside


def test_a_rerun_removes_only_its_own_stale_files(capsys, tmp_path):
    out = tmp_path / "X"
    assert run(capsys, "pack", "formula-d", "--players", "A,B,C,D,E,F,G,H", "-o", out, "-f", "pdf", "-q")[0] == 0
    assert run(capsys, "rules", "formula-d", "-o", out, "-f", "pdf", "-q")[0] == 0
    folder = out / "formula-d"
    rules = sorted(p.name for p in folder.glob("formula-d-rules*"))
    assert (folder / "scorecards-2.pdf").exists() and rules
    assert run(capsys, "pack", "formula-d", "--players", "Ann,Bob", "-o", out, "-f", "pdf", "-q")[0] == 0
    names = {p.name for p in folder.iterdir()}
    assert "scorecards-2.pdf" not in names and "scorecards.pdf" in names  # the pack's own stale file: gone
    assert set(rules) <= names  # the rules' files: kept


def test_a_hostile_manifest_removes_nothing_outside(capsys, tmp_path, outside):
    """A manifest naming files outside (through a link, '..', an absolute path) with their true digests: the
    job that 'wrote' them never removes them."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(outside, target_is_directory=True)
    digest = outputs._digest((outside / "victim.txt").read_bytes())
    listed = {"link/victim.txt": digest, "../outside/victim.txt": digest, str(outside / "victim.txt"): digest}
    (out / outputs.MANIFEST).write_text(json.dumps({"paddock": 1, "jobs": {"calibrate: calibration": listed}}))
    before = tree(outside)
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    assert tree(outside) == before
