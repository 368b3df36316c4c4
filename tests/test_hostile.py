"""Hostile and careless input (issue 16): each is refused in bounded time and memory with one short line, or read
correctly, and an earlier output set in the same --out survives byte for byte.

Every input is generated here at test time (no bombs are checked in). Cases run in-process (fast); the ones whose
time and memory are the point run as a subprocess whose peak RSS is read with ``os.wait4``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from generator import outputs
from generator.cli import main
from generator.errors import OS_CAUSES

LINE_MAX = 300  # no line of a message is longer (generator.messages.LINE_MAX)
SECONDS = 10
RSS_BYTES = 1 << 30
SPEC = """name: Test Oval
paper: a3
segments:
  - straight: 150
  - arc: {radius: 70, angle: 180, turn: left}
  - straight: 150
  - arc: {radius: 70, angle: 180, turn: left}
"""


def alias_bomb(levels: int = 9, key: str = "name") -> str:
    """A ~1 kB 'billion laughs': each level is ten aliases of the one before (10^9 values if expanded)."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    lines.append(f"{key}: *a{levels}")
    return "\n".join(lines) + "\n"


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The CLI in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err


def refused(code: int, err: str, codes=(2, 3)) -> str:
    """One 'paddock: error:' line of at most LINE_MAX characters, no traceback, exit 2 or 3; returns the line."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert code in codes, err
    assert len(lines) == 1, err
    assert lines[0].startswith("paddock: error: ") and len(lines[0]) <= LINE_MAX, lines[0]
    assert "Traceback" not in err and "\x1b" not in err
    return lines[0]


def listed(code: int, err: str, codes=(2, 3)) -> list[str]:
    """An error as one line, or as ``paddock check`` lists problems: 'paddock: error: … N problems:', then N
    indented lines; every line of at most LINE_MAX characters, no literal '\\n', no traceback, exit 2 or 3."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert code in codes, err
    assert lines and lines[0].startswith("paddock: error: "), err
    assert "Traceback" not in err and "\x1b" not in err and "\\n" not in err, err
    assert all(len(line) <= LINE_MAX for line in lines), err
    if len(lines) > 1:
        n = re.search(r"(\d+) problems:$", lines[0])
        assert n, err
        assert all(line.startswith("  ") for line in lines[1:]), err
        assert len(lines) - 1 in (int(n.group(1)), int(n.group(1)) + 1) or lines[-1].startswith("  … and "), err
    return lines


def bounded(args: list[str], cwd: Path, memory: int = 4 << 30) -> tuple[int, str, float, int]:
    """``paddock ARGS`` as a subprocess: (exit code, stderr, CPU seconds, peak RSS in bytes). The time budget is
    the kernel's, not a timed assertion: the process may use :data:`SECONDS` of CPU time (user and system — the
    work it did, which other processes on a busy machine do not stretch the way they stretch the wall clock),
    past which ``RLIMIT_CPU`` kills it (SIGXCPU: exit -24, which no caller accepts); its address space is capped
    at ``memory`` (4 GB: a safety net; callers check the peak RSS, or pass 1 GB to have the cap enforce it). A
    process that hangs without working is killed after ten times the budget of wall time."""

    def limits() -> None:
        with contextlib.suppress(ValueError, OSError):  # not settable on macOS: the RSS check still holds
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS + 5))

    env = {k: v for k, v in os.environ.items() if k != "PADDOCK_DEBUG"}
    err_path = cwd / ".stderr"
    with open(err_path, "wb") as err_file:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "generator", *args],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            stdin=subprocess.DEVNULL,
            env=env,
            preexec_fn=limits,
        )
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > 10 * SECONDS:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        seconds = usage.ru_utime + usage.ru_stime
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return proc.returncode, err_path.read_text(encoding="utf-8", errors="replace"), seconds, rss


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder of generated hostile inputs, and an output folder holding an earlier good set."""
    w = tmp_path_factory.mktemp("hostile")
    (w / "ok.yaml").write_text(SPEC, encoding="utf-8")
    (w / "bomb.yaml").write_text(alias_bomb(), encoding="utf-8")
    (w / "deep.yaml").write_text("name: " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    (w / "loop.yaml").write_text("name: &a [x, *a]\n", encoding="utf-8")
    (w / "dup.yaml").write_text(SPEC + "name: Again\n", encoding="utf-8")
    (w / "tag.yaml").write_text("name: !!python/object/apply:os.system ['echo pwned']\n", encoding="utf-8")
    (w / "zero-csv.yaml").write_text("name: Zero\ncsv: /dev/zero\n", encoding="utf-8")
    (w / "folder.yaml").mkdir()
    os.mkfifo(w / "fifo.yaml")
    with open(w / "huge.csv", "wb") as f:  # sparse: 40 MB on paper, nothing on disk
        f.truncate(40 * 1024 * 1024)
    arcs = "".join("  - arc: {radius: 50, angle: 0.0036, turn: left}\n" for _ in range(100_000))
    (w / "arcs.yaml").write_text("name: Arcs\nsegments:\n" + arcs, encoding="utf-8")
    segments = "".join("  - {arc: {radius: 50, angle: 0.18, turn: left}}\n" for _ in range(2001))
    (w / "segments.yaml").write_text("name: Segments\nsegments:\n" + segments, encoding="utf-8")
    drivers = "".join(f"      - {{name: Driver {i}}}\n" for i in range(10_000))
    (w / "drivers.yaml").write_text(
        "name: Huge\nteams:\n  - name: Everyone\n    colours: {primary: red}\n    drivers:\n" + drivers,
        encoding="utf-8",
    )
    (w / "players-bomb.yaml").write_text(alias_bomb(key="players"), encoding="utf-8")
    (w / "teams-bomb.yaml").write_text(alias_bomb(key="teams"), encoding="utf-8")
    out = w / "out"
    main_ok = subprocess.run(
        [sys.executable, "-m", "generator", "calibrate", "-o", str(out), "-f", "pdf,png", "--dpi", "40", "-q"],
        capture_output=True,
    )
    assert main_ok.returncode == 0, main_ok.stderr
    return w, out, snapshot(out)


def unchanged(work) -> None:
    _, out, before = work
    assert snapshot(out) == before
    assert not [p for p in out.rglob("*") if p.name.endswith((".part", ".old")) or p.name == outputs.JOURNAL]


# ------------------------------------------------------------------------------ refused in bounded time/memory

BOUNDED = {
    "alias bomb (check)": (["check", "bomb.yaml"], "100,000 values"),
    "deep nesting (check)": (["check", "deep.yaml"], "nested deeper"),
    "/dev/zero as a spec": (["track", "/dev/zero", "-o", "out"], "not a regular file"),
    "a FIFO as a spec": (["check", "fifo.yaml"], "not a regular file"),
    "100,000 arcs": (["track", "arcs.yaml", "-o", "out"], "Paddock reads at most 2.0 MB"),
    "--dpi 1200 --paper a1": (["track", "ok.yaml", "--paper", "a1", "--dpi", "1200", "-o", "out"], "million pixels"),
}


@pytest.mark.parametrize("case", BOUNDED, ids=list(BOUNDED))
def test_refused_within_seconds_and_memory(work, case):
    w, _, _ = work
    args, needle = BOUNDED[case]
    code, err, seconds, rss = bounded(args, w)
    line = refused(code, err)
    assert needle in line
    assert rss < RSS_BYTES, f"{case}: {rss / 2**20:.0f} MB"
    unchanged(work)


# ------------------------------------------------------------------------------------ refused, in this process

REFUSED = {
    # YAML: every loader (circuit, teams, players) refuses the same way
    "alias bomb (track)": (["track", "bomb.yaml"], "100,000 values"),
    "alias bomb (cars)": (["cars", "teams-bomb.yaml"], "100,000 values"),
    "alias bomb (players file)": (["pack", "formula-d", "--players-file", "players-bomb.yaml"], "100,000 values"),
    "an alias loop": (["check", "loop.yaml"], "a loop"),
    "a key given twice": (["check", "dup.yaml"], "given twice (lines 1 and 8)"),
    "a python tag": (["check", "tag.yaml"], "remove the tag"),
    # inputs that are no regular file, or too large
    "csv: /dev/zero": (["check", "zero-csv.yaml"], "not a regular file"),
    "a folder as a spec": (["check", "folder.yaml"], "folder"),
    "a FIFO as a teams file": (["cars", "fifo.yaml"], "not a regular file"),
    "a 40 MB CSV": (["check", "huge.csv"], "at most 32.0 MB"),
    "a missing file": (["check", "nowhere.yaml"], "not found"),
    # bounded cost
    "10,000 drivers": (["cars", "drivers.yaml"], "at most 60"),
    "2,001 segments": (["check", "segments.yaml"], "at most 2000 items"),
    # nonsense on the command line
    '--players ""': (["pack", "formula-d", "--players", ""], "--players"),
    '--paper ""': (["calibrate", "--paper", ""], "--paper"),
    "--wp tires=8,tires=9": (["pack", "formula-d", "--wp", "tires=8,tires=9"], "given twice"),
    "--players, a 10,000-character name": (["pack", "formula-d", "--players", "Ann," + "B" * 10_000], "--players"),
    "--players, an ESC in a name": (["pack", "formula-d", "--players", "Ann,B\x1b[31mob"], "\\x1b"),
    # the parser's own errors: one line, no Usage block
    "--dpi out of range": (["calibrate", "--dpi", "5000"], "--dpi"),
    "--edge out of range": (["calibrate", "--edge", "99"], "--edge"),
    "--races out of range": (["pack", "--races", "99"], "--races"),
    "--unit out of range": (["cars", "--unit", "3"], "--unit"),
    "--unit not a number": (["cars", "--unit", "wide"], "--unit"),
    "an unknown game": (["pack", "nosuch"], "f1-dice, formula-d"),
    "an unknown option": (["calibrate", "--bogus"], "--bogus"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_refused_with_one_line(work, case, capsys, monkeypatch):
    w, out, _ = work
    monkeypatch.chdir(w)
    args, needle = REFUSED[case]
    if args[0] != "check":
        args = [*args, "-o", str(out)]
    code, _, err = run(capsys, *args)
    assert needle in refused(code, err)
    unchanged(work)


SPEC_CASES = {
    "lanes: true": ("lanes: true\n", "lanes", "not true/false"),
    "a 100,000-character title": ("title: " + "x" * 100_000 + "\n", "title", "100,000 characters"),
    "a 1 MB name": (None, "name", "1,000,000 characters"),
    "fit: abc": ("points: [[0, 0], [9, 0], [9, 5], [0, 5]]\nfit: abc\n", "fit", "'page' or a valid integer"),
    "an integer key": ("7: x\n", "7", ":8:"),
    "a null key": ("~: x\n", "null", ":8:"),
    "a danger lane beyond the track": ("danger:\n  - {unit: 3}\n  - {unit: 4, lane: 5}\n", "danger[1].lane", ":10:"),
    "coordinates of 1e300": ("points: [[0, 0], [1.0e+300, 0], [1, 1], [0, 1]]\n", "points", "1000000000"),
    "points spanning 1e-300": (
        "points: [[0, 0], [1.0e-300, 0], [1.0e-300, 1.0e-300], [0, 1.0e-300]]\n",
        "points",
        "span",
    ),
}


@pytest.mark.parametrize("case", SPEC_CASES, ids=list(SPEC_CASES))
def test_nonsense_in_a_spec_is_located(work, case, capsys, tmp_path):
    extra, field, needle = SPEC_CASES[case]
    if extra is None:
        text = SPEC.replace("name: Test Oval", "name: " + "n" * 1_000_000)
    elif extra.startswith("points"):
        text = SPEC.split("segments:")[0] + extra  # points instead of segments
    else:
        text = SPEC + extra
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "check", spec)
    line = refused(code, err)
    assert f"field '{field}" in line and needle in line
    assert "literal[" not in line and "constrained-" not in line


def test_deep_nesting_still_answers_check_json(work, capsys):
    w, _, _ = work
    code, out, _ = run(capsys, "check", w / "deep.yaml", "--json")
    assert code == 2
    problem = json.loads(out)["problems"][0]
    assert "nested deeper" in problem["message"] and problem["line"] == 1


def test_a_font_error_escapes_control_characters(capsys, tmp_path):
    teams = tmp_path / "teams.yaml"
    teams.write_text(
        'name: X\nteams:\n  - name: "Red\\e[5mBull"\n    colours: {primary: red}\n    drivers: [{name: Ann Bee}]\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "cars", teams, "-o", tmp_path / "out")
    line = refused(code, err)
    assert "\\x1b" in line and ":3:" in line


def test_a_long_path_keeps_the_message_and_its_fix(capsys, tmp_path):
    """A teams file deep in folders (a path of ~250 characters: the font error's line was cut just where its
    message began): the path loses its middle, the file name, line, field, message and fix stay."""
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 9)
    deep.mkdir(parents=True)
    teams = deep / "teams.yaml"
    teams.write_text(
        'name: X\nteams:\n  - name: "Red\\u2603Bull"\n    colours: {primary: red}\n    drivers: [{name: Ann}]\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "cars", teams, "-o", tmp_path / "out")
    line = refused(code, err)
    assert len(str(teams)) > 250 and "…" in line
    assert "teams.yaml:3: field 'teams[0].name'" in line and "'Red☃Bull'" in line
    assert line.endswith("— remove or replace them (Latin, Latin Extended-A, Greek and Cyrillic letters are fine)")


# --------------------------------------------------------------------------------------------- output locations


def test_out_that_is_a_file_or_a_device(work, capsys, tmp_path):
    w, _, _ = work
    for out in (w / "ok.yaml", Path("/dev/null")):
        code, _, err = run(capsys, "calibrate", "-o", out, "-f", "pdf")
        assert "is a file, not a folder" in refused(code, err)
    assert (w / "ok.yaml").read_text(encoding="utf-8") == SPEC


def test_out_in_proc_or_too_long(capsys, tmp_path):
    for out in (Path("/proc/paddock-test"), tmp_path / ("n" * 300)):
        code, _, err = run(capsys, "calibrate", "-o", out, "-f", "pdf")
        assert "cannot write" in refused(code, err)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "failure",
    [errno.ENOSPC, errno.EROFS, errno.EACCES],
    ids=["full disk", "read-only", "no permission"],
)
def test_a_disk_that_refuses_leaves_no_file_and_no_folder(capsys, tmp_path, monkeypatch, failure):
    real = outputs.files.write_new
    calls = []

    def flaky(path, data):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(failure, os.strerror(failure))
        return real(path, data)

    monkeypatch.setattr(outputs.files, "write_new", flaky)
    target = tmp_path / "new" / "deeper"
    code, _, err = run(capsys, "calibrate", "-o", target, "-f", "pdf,png", "--dpi", "36")
    line = refused(code, err)
    assert str(target) in line and OS_CAUSES[failure] in line
    assert not list(tmp_path.iterdir())  # not even the folders it made


def test_season_out_a_folder_or_a_pipe(capsys, tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    for out in (tmp_path, tmp_path / "pipe.yaml"):
        code, _, err = run(capsys, "season", "dice", "monaco-example", "--out", out, "-q")
        assert "cannot write" in refused(code, err)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.yaml"]


# ----------------------------------------------------------------------------------------- all or nothing


def test_a_rename_failing_half_way_puts_every_old_file_back(work, capsys, monkeypatch):
    _, out, before = work
    real = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if len(calls) == 3:  # the first target is aside and replaced, the second aside: then a failure
            raise OSError(errno.EPERM, "Operation not permitted")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    code, _, err = run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "40", "--edge", "5")
    assert "not permitted" in refused(code, err)
    assert len(calls) >= 3
    unchanged(work)


def test_a_killed_run_is_rolled_back_by_the_next(capsys, tmp_path):
    """What `kill -9` half-way through a commit leaves: one target replaced, one moved aside, a temporary and
    the journal. The next run puts the old files back first, then writes its own set; nothing stray survives."""
    out = tmp_path / "out"
    code, _, _ = run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "40")
    assert code == 0
    pdf, png = out / "calibration.pdf", out / "calibration.png"
    old_pdf, old_png = pdf.read_bytes(), png.read_bytes()
    name = outputs.files.temp_name
    aside_pdf, aside_png, tmp_png = name(pdf, "old"), name(png, "old"), name(png, "part")
    os.replace(pdf, aside_pdf)
    pdf.write_bytes(b"%PDF- half-written new file")
    os.replace(png, aside_png)
    tmp_png.write_bytes(b"new png, never moved in")
    (out / outputs.JOURNAL).write_text(
        json.dumps(
            {
                "files": [
                    ["calibration.pdf", name(pdf, "part").name, aside_pdf.name, None],
                    ["calibration.png", tmp_png.name, aside_png.name, None],
                ],
                "stale": [],
            }
        ),
        encoding="utf-8",
    )
    outputs.recover(out)
    assert pdf.read_bytes() == old_pdf and png.read_bytes() == old_png
    assert sorted(p.name for p in out.iterdir()) == sorted([outputs.MANIFEST, pdf.name, png.name])
    code, _, _ = run(capsys, "calibrate", "-o", out, "-f", "pdf,png", "--dpi", "40")
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted([outputs.MANIFEST, pdf.name, png.name])


# ------------------------------------------------------------------------------------------------- file names


def test_unicode_names_are_kept_and_clashing_outputs_refused(capsys, tmp_path):
    for name in ("Москва", "Київ"):
        spec = tmp_path / f"{name}.yaml"
        spec.write_text(SPEC.replace("Test Oval", name), encoding="utf-8")
        code, _, err = run(capsys, "track", spec, "-o", tmp_path / "out", "-f", "pdf", "-q")
        assert code == 0, err
    assert {"москва.pdf", "київ.pdf"} <= {p.name for p in (tmp_path / "out").iterdir()}
    clash = tmp_path / "clash.yaml"
    oval = Path(__file__).parents[1] / "track_specs" / "oval.yaml"  # a straight that holds the 2011 grid
    clash.write_text(oval.read_text(encoding="utf-8").replace("Oval", "Qualifying"), encoding="utf-8")  # qualifying.pdf
    code, _, err = run(capsys, "pack", "--track", clash, "-o", tmp_path / "pack", "-f", "pdf")
    msg = refused(code, err)
    assert "both be written to 'f1-dice/qualifying.pdf'" in msg
    assert "the sheet 'Qualifying' and the sheet 'Qualifying — F1 2011'" in msg  # the two sheets, not one path twice
    assert not (tmp_path / "pack").exists()


def test_a_rerun_removes_what_it_no_longer_writes_and_nothing_else(capsys, tmp_path):
    out = tmp_path / "out"
    eight = ",".join("ABCDEFGH")
    assert run(capsys, "pack", "formula-d", "--players", eight, "-o", out, "-f", "pdf")[0] == 0
    folder = out / "formula-d"
    assert (folder / "scorecards-2.pdf").exists()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    (folder / "dashboards-3.pdf").write_bytes(b"edited by hand since")  # no longer what Paddock wrote: kept
    assert run(capsys, "pack", "formula-d", "--players", "Ann,Bob", "-o", out, "-f", "pdf")[0] == 0
    names = {p.name for p in folder.iterdir()}
    assert {"scorecards.pdf", "dashboards.pdf", "board.pdf", "formula-d-print.pdf"} <= names  # this run's
    assert not {"scorecards-1.pdf", "scorecards-2.pdf", "dashboards-1.pdf", "dashboards-2.pdf"} & names  # stale
    assert {"notes.txt", "dashboards-3.pdf"} <= names  # never written by Paddock, or changed since: kept


def test_stale_tiles_are_removed(work, capsys, tmp_path):
    w, _, _ = work
    out = tmp_path / "out"
    assert run(capsys, "track", w / "ok.yaml", "--tile-onto", "a4", "-o", out, "-f", "png", "--dpi", "36")[0] == 0
    tiles = sorted(p.name for p in out.glob("*.png"))
    assert len(tiles) > 2
    assert run(capsys, "track", w / "ok.yaml", "-o", out, "-f", "png", "--dpi", "36")[0] == 0
    assert sorted(p.name for p in out.glob("*.png")) == ["test-oval.png"]


# ------------------------------------------------------------------------------------------- read correctly


def test_csv_with_a_byte_order_mark_or_decimal_commas(tmp_path):
    from generator.track.centerline import read_csv

    (tmp_path / "bom.csv").write_bytes("\ufeff0,0\n100,0\n100,50\n0,50\n".encode())
    assert read_csv(tmp_path / "bom.csv").tolist() == [[0, 0], [100, 0], [100, 50], [0, 50]]
    (tmp_path / "comma.csv").write_text("x;y\n0;0\n100,5;0\n100;50,25\n0;50\n", encoding="utf-8")
    assert read_csv(tmp_path / "comma.csv").tolist() == [[0, 0], [100.5, 0], [100, 50.25], [0, 50]]


def test_a_long_error_line_is_shortened_before_its_fix(capsys):
    """A long line loses the middle of its longest word (a path keeps its start, its file name and line), never
    its fix; a list of problems is a line each (issue 32: no literal '\\n', no list cut inside a problem)."""
    from generator.cli import say

    say("error", "/" + "very-long-folder/" * 30 + "x.csv: grid: too short — race a smaller field (--cars 10)")
    line = capsys.readouterr().err.strip()
    assert len(line) <= LINE_MAX and line.endswith("/x.csv: grid: too short — race a smaller field (--cars 10)")
    assert line.startswith("paddock: error: /very-long-folder/") and "…" in line
    say("error", "x" * 400)
    line = capsys.readouterr().err.strip()
    assert len(line) == LINE_MAX and "x…x" in line
    say("error", "2 problems:\n  first: " + "y" * 300 + " — fix it\n  second — fix that")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "paddock: error: 2 problems:" and lines[2] == "  second — fix that"
    assert len(lines) == 3 and len(lines[1]) <= LINE_MAX and lines[1].startswith("  first: yyy")
    assert lines[1].endswith("y — fix it") and "\\n" not in "".join(lines)
    # Paddock's own words too long for a line (issue 45: no line past LINE_MAX; issue 32: a problem never cut
    # inside): the fix goes on a line of its own under the problem; only a problem longer than a line loses its end
    words = "ten slots need more straight than this; " * 5
    prose = f"x.yaml:3: field 'grid': {words}only 3 — move the start line 2 units along its straight (--start 2)"
    say("error", prose)
    lines = capsys.readouterr().err.strip().splitlines()
    fix = "  — move the start line 2 units along its straight (--start 2)"
    assert lines == [f"paddock: error: x.yaml:3: field 'grid': {words}only 3", fix]
    say("error", f"x.yaml:3: field 'grid': {words * 2}only 3 — move the start (--start 2)")
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines[0]) == LINE_MAX and lines[0].startswith("paddock: error: x.yaml:3: field 'grid': ten slots")
    assert lines[0].endswith("…") and lines[1] == "  — move the start (--start 2)"
    say("error", "word " * 400)
    assert len(capsys.readouterr().err.strip()) == LINE_MAX


@pytest.mark.parametrize("rows", [None, 300_000], ids=["short", "survey-grade"])
def test_a_centre_line_that_turns_straight_back_names_the_point(tmp_path, rows):
    """A line doubling back on itself has no heading there: one located message with the point, in the CSV's own
    coordinates (y up), for a short CSV and for a survey-grade one alike (its turns are screened by sign first)."""
    from generator.errors import InputError
    from generator.track import check

    t = np.linspace(0, 2 * np.pi, rows or 40, endpoint=False)
    P = np.column_stack((np.cos(t), np.sin(t))) * 500.0
    k = len(P) // 3
    P[k + 1] = P[k] - (P[k] - P[k - 1]) * 0.5  # from P[k], back the way it came
    csv = tmp_path / "back.csv"
    np.savetxt(csv, P, delimiter=",", fmt="%.9f")  # exact enough that the turn back is one to within 1e-9
    with pytest.raises(InputError) as info:
        check(csv)
    msg = str(info.value)
    x, y = P[k]
    assert "turns straight back on itself" in msg and "back.csv" in msg
    assert f"({float(f'{x:.9f}'):g}, {float(f'{y:.9f}'):g})" in msg, msg


@pytest.mark.parametrize("c_parser", [True, False], ids=["libyaml", "pure Python"])
def test_both_yaml_parsers_give_the_same_data_lines_and_refusals(c_parser, monkeypatch):
    from generator import specs
    from generator.errors import InputError

    monkeypatch.setattr(specs, "_LOADER", specs._loader_class(c_parser=c_parser))
    data, lines = specs.parse_yaml(SPEC + "7: x\n~: y\ndanger:\n  - {unit: 4, lane: 5}\n", "s.yaml")
    assert data["segments"][1]["arc"]["radius"] == 70 and data[7] == "x" and data[None] == "y"
    assert lines.line(("segments", 1, "arc")) == 5 and lines.line(("7",)) == 8 and lines.line(("null",)) == 9
    assert lines.line(("danger", 0, "lane")) == 11
    for text, needle in [
        (alias_bomb(), "100,000 values"),
        ("a: " + "[" * 500 + "]" * 500, "nested deeper"),
        ("a: 1\nb: 2\na: 3\n", "given twice (lines 1 and 3)"),
        ("a: &x [*x]\n", "a loop"),
        ("a: [1, 2\nb: 3\n", "YAML syntax"),
    ]:
        with pytest.raises(InputError, match=re.escape(needle)):
            specs.parse_yaml(text, "s.yaml")


@pytest.mark.parametrize("where", ["drawing", "starting"])
def test_ctrl_c_is_one_line_and_writes_nothing(where, capsys, tmp_path, monkeypatch):
    """Ctrl-C while a pack is drawn (the parser turns it into an exit of 130) or while the command is still
    loading: one line saying nothing was written, exit 130, no file."""
    import generator.cli as cli
    import generator.pipeline as pipeline

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(
        pipeline if where == "drawing" else cli, "publish" if where == "drawing" else "_command", interrupt
    )
    code, out, err = run(capsys, "pack", "--out", str(tmp_path / "out"), "-f", "pdf")
    assert code == 130 and err.strip() == "paddock: error: interrupted; nothing was written"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", ["elsewhere", "the clone"])
def test_a_shipped_board_paddock_chose_is_named_as_its_own(tmp_path, capsys, monkeypatch, where):
    """A board the user did not name (the pack's default: on A3 the compact Formula D board, which needs A2) is
    named in the error as Paddock's own file, ``track_specs/formula-d-compact.yaml`` — from any folder, never by
    the installed package's absolute path."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(tmp_path if where == "elsewhere" else root)
    with pytest.raises(SystemExit) as ex:
        main(["pack", "formula-d", "--paper", "a3", "-o", str(tmp_path / "out"), "-f", "pdf", "-q"])
    err = capsys.readouterr().err
    assert ex.value.code == 3 and err.startswith("paddock: error: track_specs/formula-d-compact.yaml:"), err
    assert str(root) not in err and "--tile-onto a3" in err
