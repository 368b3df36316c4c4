"""A second core's help (generator/forked.py): a run's sheets drawn by a forked child as well as by the command
give the same files as the command alone — whether the child helps, dies or hangs — and no child is left behind.

Each case runs in a fresh process (see fresh_process.py): the test runner's own never forks.
"""

from __future__ import annotations

import textwrap

import pytest
from fresh_process import CHILDREN_LEFT, FORKS, run, run_lines

pytestmark = pytest.mark.skipif(not FORKS, reason="a child is forked only on Linux with two cores")

PACK = (
    """
import hashlib, json, os, sys, time
from pathlib import Path
from generator import forked, writers
import generator.pipeline as pl
"""
    + CHILDREN_LEFT
    + """
mode, out, game = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
from_child = []
real_results = pl._Helper.results
def results(self):
    got = real_results(self)
    from_child.append(len(got))
    return got
pl._Helper.results = results
parent = os.getpid()
if mode == "one-core":
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
elif mode == "ctrl-c-at-fork":  # a Ctrl-C reaching the child just as the fork returns
    import signal
    real_fork = os.fork
    def fork():
        pid = real_fork()
        if pid == 0:
            os.kill(os.getpid(), signal.SIGINT)
        return pid
    os.fork = fork
elif mode == "many-files":  # a command holding over a thousand descriptors (poll, not select, waits on the child)
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
elif mode in ("child-dies", "child-hangs", "child-sleeps"):
    real = writers.render_all
    drawn = [0]
    def render_all(*a, **k):
        if os.getpid() != parent:
            drawn[0] += 1
            if drawn[0] == 2:  # the child's second sheet
                if mode == "child-dies":
                    os._exit(9)
                time.sleep(600)
        return real(*a, **k)
    writers.render_all = render_all
    pl._Helper.PATIENCE = 2.0 if mode == "child-hangs" else 600
from generator.cli import main
started = time.monotonic()
try:
    main(["pack", game, "--out", str(out), "-f", "pdf,svg,png", "-q"])
except SystemExit as end:
    code = end.code
files = {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
         for p in sorted(out.rglob("*")) if p.is_file()}
print(json.dumps({"code": code, "files": files, "from_child": from_child, "left": children_left(), "pid": os.getpid(),
                  "live": len(forked._LIVE), "seconds": time.monotonic() - started}))
"""
)


@pytest.mark.parametrize("game", ["f1-dice", "formula-d"])
def test_a_pack_drawn_on_two_cores_is_the_pack_drawn_on_one(tmp_path, game):
    """Every file of a pack (PDF, SVG, PNG, the merged PDF) is the same drawn by the command and a child as by
    the command alone (one core: the previews on worker threads), and the child drew some of the sheets."""
    two = run(PACK, "two-cores", tmp_path / "two", game)
    one = run(PACK, "one-core", tmp_path / "one", game)
    assert two["code"] == one["code"] == 0
    assert len(two["files"]) >= 20 and two["files"] == one["files"]
    assert two["from_child"][0] >= 2 and one["from_child"] == []
    assert not two["left"] and not one["left"] and two["live"] == one["live"] == 0


@pytest.mark.parametrize("mode", ["child-dies", "child-hangs"])
def test_a_child_that_fails_costs_only_time(tmp_path, mode):
    """A child that dies on a sheet, or hangs on one past the command's patience, gives nothing: the command draws
    every sheet it did not get itself — the same files — and the child is gone."""
    want = run(PACK, "one-core", tmp_path / "one", "f1-dice")
    got = run(PACK, mode, tmp_path / mode, "f1-dice")
    assert got["code"] == 0 and got["files"] == want["files"]
    assert all(n <= 1 for n in got["from_child"])  # at most the sheet it finished before it failed
    assert not got["left"] and got["live"] == 0
    if mode == "child-hangs":
        assert got["seconds"] < 60  # waited its patience (2 s here), not the child's 600 s


@pytest.mark.parametrize("mode", ["ctrl-c-at-fork", "many-files"])
def test_a_child_never_runs_the_callers_code_and_waits_on_any_descriptor(tmp_path, mode):
    """A Ctrl-C reaching the child as the fork returns ends the child, not a second copy of the caller (which
    printed twice, once from the child); a command with descriptors numbered past 1024 still waits on its child."""
    want = run(PACK, "one-core", tmp_path / "one", "f1-dice")
    out = run_lines(PACK, mode, tmp_path / mode, "f1-dice")
    assert len(out) == 1, out  # one caller: the command's
    got = out[0]
    assert got["code"] == 0 and got["files"] == want["files"]
    assert not got["left"] and got["live"] == 0
    if mode == "many-files":
        assert got["from_child"][0] >= 2


def test_a_child_answers_through_shared_memory_and_is_stopped_when_it_hangs():
    """The child's answer and what it wrote in shared memory reach the command; a child that does not answer in
    time is stopped; a process with a second thread forks none."""
    got = run(
        "import json, os, threading, time\nfrom generator import forked\n"
        + CHILDREN_LEFT
        + textwrap.dedent(
            """
            def work(shared):
                shared[:5] = b"hello"
                return 42
            child = forked.Child.start(work, 16)
            answer, said = child.answer(), bytes(child.shared[:5]).decode()
            forked.reap_all()
            slow = forked.Child.start(lambda shared: time.sleep(600) or 1, 16)
            t = time.monotonic()
            late = slow.answer(timeout=0.5)
            waited = time.monotonic() - t
            after_stop = children_left()
            hold = threading.Event()
            worker = threading.Thread(target=hold.wait)
            worker.start()
            with_thread = forked.Child.start(work, 16)
            hold.set()
            worker.join()
            print(json.dumps({"answer": answer, "said": said, "late": late, "waited": waited,
                              "left": after_stop, "with_thread": with_thread is None, "live": len(forked._LIVE)}))
            """
        )
    )
    assert got["answer"] == 42 and got["said"] == "hello"
    assert got["late"] is None and 0.4 < got["waited"] < 10
    assert not got["left"] and got["with_thread"] and got["live"] == 0


def _children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` (from /proc)."""
    import os

    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_a_child_ends_with_the_command(tmp_path):
    """A command killed outright (no chance to stop its helper) takes the helper with it: nothing keeps drawing,
    or holds the command's output open, for nobody — here a child that would otherwise sleep for ten minutes."""
    import os
    import subprocess
    import sys
    import time

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    argv = [sys.executable, "-c", PACK, "child-sleeps", str(tmp_path), "f1-dice"]
    command = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    deadline = time.monotonic() + 60
    while command.poll() is None and not kids and time.monotonic() < deadline:
        kids = _children(command.pid)
    assert kids, "no helper was seen at work"
    time.sleep(0.5)  # the child is asleep on its second sheet
    command.kill()
    command.wait()
    deadline = time.monotonic() + 20
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_alive(k) for k in kids)
