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


#: The random part of the names Paddock gives its temporaries and backups, fixed for these tests' journals.
TOKEN = "paddock-abcdef0123456789"


def ours(name: str, kind: str) -> str:
    """A temporary ('part') or backup ('old') of ``name`` (a path relative to --out) as Paddock names them."""
    folder, _, base = name.rpartition("/")
    return (folder + "/" if folder else "") + f".{base}.{TOKEN}.{kind}"


@pytest.fixture
def outside(tmp_path):
    """A folder beside --out holding files a hostile journal or manifest aims at."""
    o = tmp_path / "outside"
    o.mkdir()
    (o / "victim.txt").write_text("keep me", encoding="utf-8")
    (o / "other.txt").write_text("and me", encoding="utf-8")
    (o / ours("victim.txt", "part")).write_text("looks like a temporary, is not ours", encoding="utf-8")
    (o / ours("other.txt", "old")).write_text("looks like a backup, is not ours", encoding="utf-8")
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
    (out / ours("evil.txt", "old")).write_text("would replace the link", encoding="utf-8")
    (out / ours("calibration.png", "old")).symlink_to(outside / "secret")
    (out / "mine.txt").write_text("the user's own file", encoding="utf-8")
    v, o = "link/victim.txt", "link/other.txt"
    journal = {
        "files": [
            [v, ours(v, "part"), None, "0" * 32],  # delete outside
            [o, ours(o, "part"), ours(o, "old"), None],  # overwrite outside
            [o, ".x." + TOKEN + ".part", "calibration.pdf", None],  # a file inside moved out
            [str(outside / "victim.txt"), ours("a", "part"), None, None],  # absolute
            ["../outside/victim.txt", ours("b", "part"), None, None],  # up and out
            ["evil.txt", ours("evil.txt", "part"), ours("evil.txt", "old"), None],  # a link as the target
            ["calibration.png", ours("calibration.png", "part"), ours("calibration.png", "old"), None],  # a link
            ["mine.txt", ours("mine.txt", "part"), None, "0" * 32],  # not the file the run wrote: kept
            ["mine.txt", "mine.txt", "calibration.pdf", None],  # not names Paddock gives its temporaries
            ["mine.txt", ".mine.txt.abcdefgh.part", None, None],  # nor these (Paddock's names before)
            "nonsense",
        ],
        "stale": [[v, ours(v, "old")], ["calibration.pdf", "mine.txt"]],
    }
    (out / outputs.JOURNAL).write_text(json.dumps(journal), encoding="utf-8")
    before = tree(outside)
    code, err = run(capsys, "calibrate", "-o", out, "-f", "pdf")
    assert code == 0, err
    assert tree(outside) == before
    assert "named 13 file(s) outside the folder or not Paddock's own; they were left alone" in err
    assert (out / "mine.txt").read_text(encoding="utf-8") == "the user's own file"
    assert (out / "calibration.pdf").read_bytes() == pdf
    assert os.readlink(out / "evil.txt") == str(outside / "secret")
    assert not (out / outputs.JOURNAL).exists()


def test_a_killed_run_is_still_rolled_back(capsys, tmp_path):
    """What the journal is for still works: a killed run's new file (its keyed digest in the journal) is removed,
    an old file moved aside is put back, a temporary is cleared."""
    out = tmp_path / "out"
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "36", "-q")[0] == 0
    pdf, png = out / "calibration.pdf", out / "calibration.png"
    old_pdf = pdf.read_bytes()
    aside = out / ours("calibration.pdf", "old")
    os.replace(pdf, aside)
    pdf.write_bytes(b"%PDF- the killed run's new file")
    new = out / "new.pdf"
    new.write_bytes(b"a new file the killed run moved into place")
    tmp_png = out / ours("calibration.png", "part")
    tmp_png.write_bytes(b"never moved in")
    (out / outputs.JOURNAL).write_text(
        json.dumps(
            {
                "files": [
                    ["calibration.pdf", ours("calibration.pdf", "part"), aside.name, "1" * 32],
                    ["new.pdf", ours("new.pdf", "part"), None, outputs.digest(new.read_bytes())],
                    ["calibration.png", tmp_png.name, None, "2" * 32],
                ],
                "stale": [],
            }
        ),
        encoding="utf-8",
    )
    outputs.recover(out)
    assert pdf.read_bytes() == old_pdf and png.exists()
    assert sorted(p.name for p in out.iterdir()) == sorted([outputs.MANIFEST, pdf.name, png.name])


def test_a_run_killed_past_its_commit_point_is_finished(capsys, tmp_path):
    """Killed after its mark (every new file in place, some backups not yet removed): the next run keeps the new
    set and removes the backups its journal named — only those."""
    out = tmp_path / "out"
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    pdf = out / "calibration.pdf"
    new = pdf.read_bytes()
    backup = out / ours("calibration.pdf", "old")
    backup.write_bytes(b"%PDF- the old file, moved aside")
    planted = out / ".calibration.pdf.paddock-0123456789abcdef.old"
    planted.write_bytes(b"a user's file named as Paddock names its backups; no journal names it")
    (out / outputs.JOURNAL).write_text(
        json.dumps({"files": [["calibration.pdf", ours("calibration.pdf", "part"), backup.name, None]], "stale": []})
    )
    (out / outputs.DONE).write_bytes(b"")
    outputs.recover(out)
    assert pdf.read_bytes() == new and not backup.exists() and planted.exists()
    assert not (out / outputs.JOURNAL).exists() and not (out / outputs.DONE).exists()


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
        ours("calibration.pdf", "old"),
        ours("calibration.pdf", "part"),
        "evil",
        ours("evil", "old"),
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
    (out / ours("calibration.pdf", "old")).write_bytes(b"%PDF- old")
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
    digest = outputs.digest((outside / "victim.txt").read_bytes())
    listed = {"link/victim.txt": digest, "../outside/victim.txt": digest, str(outside / "victim.txt"): digest}
    (out / outputs.MANIFEST).write_text(json.dumps({"paddock": 2, "jobs": {"calibrate: calibration": listed}}))
    before = tree(outside)
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    assert tree(outside) == before


def test_a_manifest_forged_with_a_user_files_digest_removes_nothing(capsys, tmp_path):
    """The issue's lower risk: a manifest listing a user's own files in --out under a job, with the files' own
    digests (SHA-256 as Paddock wrote them before, and keyed with another key): the job's next run, which does
    not write them, removes none. Only a digest made with this user's key (Paddock's own record) counts."""
    import hashlib
    import hmac

    out = tmp_path / "out"
    (out / "formula-d").mkdir(parents=True)
    mine = {
        "calibration-old.pdf": b"%PDF- my own copy of an old sheet",
        "notes.txt": b"my notes",
        "formula-d/my-board.pdf": b"%PDF- a board I drew",
    }
    for rel, data in mine.items():
        (out / rel).write_bytes(data)
    forged = {}
    for i, (rel, data) in enumerate(mine.items()):
        plain = hashlib.sha256(data).hexdigest()
        forged[rel] = [plain[:16], plain[:32], hmac.new(b"another key", data, "sha256").hexdigest()[:32]][i]
    jobs = {"calibrate: calibration": forged, "pack formula-d: formula-d/formula-d-print": forged}
    (out / outputs.MANIFEST).write_text(json.dumps({"paddock": 2, "jobs": jobs}), encoding="utf-8")
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    assert {rel: (out / rel).read_bytes() for rel in mine} == mine
    # the same job's own stale file (its keyed digest recorded) still goes
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "36", "-q")[0] == 0
    assert run(capsys, "calibrate", "-o", out, "-f", "pdf", "-q")[0] == 0
    assert not (out / "calibration.png").exists() and {rel: (out / rel).read_bytes() for rel in mine} == mine


# ------------------------------------------------------------------------ files named like Paddock's temporaries

#: A user's files whose names look like a temporary or backup of Paddock's — of today's names and of before.
LOOKALIKES = {
    ".notes.txt.20240101.old": b"my notes, as of New Year",
    ".config.yaml.abcd1234.part": b"half a config",
    ".thesis.tex.draft_v2.part": b"\\documentclass{book}",
    ".calibration.pdf.abcdefgh.old": b"%PDF- named as Paddock named its backups before",
    ".calibration.pdf.paddock-0123456789abcdef.part": b"named as Paddock names its temporaries",
    ".calibration.png.paddock-fedcba9876543210.old": b"named as Paddock names its backups",
    ".paddock-manifest.json.paddock-00000000aaaaaaaa.part": b"{}",
}

#: Where a run of ``calibrate`` is killed (kill -9): the n-th call of each step of a commit, and half-way
#: through writing a temporary.
KILLS = [
    *(("write", n) for n in (1, 2, 3)),
    ("half-write", 2),
    ("journal", 1),
    *(("replace", n) for n in (1, 2, 3, 4, 5, 6)),
    ("mark", 1),
    *(("discard", n) for n in (1, 2, 3)),
]

KILLED_RUNS = """
import json, os, signal, sys
from pathlib import Path
from generator.cli import main
from generator.outputs import files, journal

out, kills = sys.argv[1], json.loads(sys.argv[2])
hooks = {"write": (files, "write_new"), "half-write": (files, "write_new"), "journal": (journal, "write"),
         "replace": (os, "replace"), "mark": (journal, "mark_done"), "discard": (files, "discard")}


def run(args, kill=None):
    pid = os.fork()
    if pid == 0:  # the run, killed at its step
        os.environ.pop("PADDOCK_DEBUG", None)
        if kill:
            step, n = kill
            module, name = hooks[step]
            real, calls = getattr(module, name), []

            def hooked(*a, **k):
                calls.append(1)
                if len(calls) == n:
                    if step == "half-write":
                        Path(a[0]).write_bytes(a[1][: len(a[1]) // 2])
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(*a, **k)

            setattr(module, name, hooked)
        try:
            main(args)
        except SystemExit as e:
            os._exit(e.code or 0)
        os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


base = ["calibrate", "-o", out, "-f", "pdf,png", "-q"]
warm = os.path.join(os.path.dirname(out), "warm-up")
try:  # every library loaded once, here, not again in each forked run
    main(["calibrate", "-o", warm, "-f", "pdf,png", "--dpi", "36", "-q"])
except SystemExit:
    pass
for step, n in kills:
    killed = run([*base, "--dpi", "40"], (step, n))
    again = run([*base, "--dpi", "36"])
    print(json.dumps({"kill": [step, n], "killed": killed, "again": again,
                      "files": sorted(os.listdir(out))}), flush=True)
"""


@pytest.mark.parametrize("linked", [False, True], ids=["in --out", "behind a symlinked --out"])
def test_files_named_like_temporaries_survive_every_kill(tmp_path, linked):
    """The issue's first case: a user's files named like Paddock's temporaries, in --out (or in the folder a
    symlinked --out leads to), outlive every run — ``calibrate`` killed (kill -9) at each step of its commit and
    run again — byte for byte; and each rerun leaves a complete set, nothing of Paddock's stray."""
    from fresh_process import run_lines

    real = tmp_path / "real"
    real.mkdir()
    for name, data in LOOKALIKES.items():
        (real / name).write_bytes(data)
    out = real
    if linked:
        out = tmp_path / "out"
        out.symlink_to(real, target_is_directory=True)
    reports = run_lines(KILLED_RUNS, out, json.dumps(KILLS))
    assert [tuple(r["kill"]) for r in reports] == KILLS
    for report in reports:
        assert report["killed"] == -9 and report["again"] == 0, report
        assert {n: (real / n).read_bytes() for n in LOOKALIKES} == LOOKALIKES, report
        ours_now = sorted(set(report["files"]) - set(LOOKALIKES))
        assert ours_now == [outputs.MANIFEST, "calibration.pdf", "calibration.png"], report


@pytest.mark.parametrize("entries, folders", [(27_000, 50), (4_900, 4_900)], ids=["2.7 MB", "5,000 folders"])
def test_a_planted_journal_of_megabytes_is_bounded(tmp_path, entries, folders):
    """The issue's 2.7 MB journal cost 14 s on the next run. A journal is read only up to its limits (bytes and
    entries); within them each folder it names is resolved once. The next run answers within the time budget
    (the subprocess's CPU limit) and keeps every file the journal names but did not make."""
    from test_hostile import bounded

    out = tmp_path / "out"
    planted = {}
    plan = []
    for i in range(entries):
        rel = f"d{i % folders}/f{i}.pdf"
        plan.append([rel, ours(rel, "part"), ours(rel, "old"), "0" * 32])
        if i % 97 == 0:
            planted[ours(rel, "part")] = b"a user's file, named as a temporary the journal names"
    for rel, data in planted.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    (out / outputs.JOURNAL).write_text(json.dumps({"files": plan, "stale": []}), encoding="utf-8")
    code, err, _, _ = bounded(["calibrate", "-o", "out", "-f", "pdf"], tmp_path)
    assert code == 0, err
    assert not (out / outputs.JOURNAL).exists()
    if entries > outputs.journal.MAX_ENTRIES:  # past the limits: nothing of it is done
        assert {rel: (out / rel).read_bytes() for rel in planted} == planted
