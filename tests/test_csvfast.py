"""A large centre-line CSV read ahead (generator/csvfast.py): the points are the ones the loader parses itself, a
file changed or another file read is never served from the child, and no child is left behind.

Each case runs in a fresh Python process: forking is only tried in a process of one thread, and the test runner's
own process may have others.
"""

from __future__ import annotations

import json
import os
import textwrap

import numpy as np
import pytest
from fresh_process import CHILDREN_LEFT, FORKS
from fresh_process import run as run_fresh

pytestmark = pytest.mark.skipif(not (FORKS and os.path.isdir("/proc/self/fd")), reason="needs Linux and two cores")

PRELUDE = """
import json, os, sys, time
import numpy as np
from generator import csvfast, forked
import importlib
load = importlib.import_module("generator.track.load")  # (generator.track.load is also a function)

taken = []
real_take = csvfast.take
def spy(info):
    P = real_take(info)
    taken.append(P is not None)
    return P
csvfast.take = spy
"""


def run(body: str, *args) -> dict:
    """Run ``body`` (after PRELUDE) in a fresh process; what it printed as JSON on its last line."""
    return run_fresh(PRELUDE + CHILDREN_LEFT + textwrap.dedent(body), *args)


def big_csv(path, scale: float = 1.0, head: str = "# x_m,y_m,w_tr_right_m,w_tr_left_m") -> None:
    t = np.linspace(0, 2 * np.pi, 60_000, endpoint=False)
    xs, ys = np.cos(t) * 900.25 * scale, np.sin(t) * 600.5 * scale
    rows = [f"{x:.4f},{y:.4f},6.0000,6.0000" for x, y in zip(xs, ys, strict=True)]
    path.write_text("\n".join([head, *rows]) + "\n", encoding="ascii")
    assert path.stat().st_size >= 1 << 20


@pytest.mark.parametrize("head", ["# x_m,y_m,w_tr_right_m,w_tr_left_m", "x_m,y_m,w_tr_right_m,w_tr_left_m"])
def test_points_read_ahead_are_the_points_the_loader_parses(tmp_path, head):
    """Read ahead, the loader gets exactly what it parses itself (same values, shape and type, read-only); a file
    the fast pass refuses (a header row) is read line by line as before."""
    csv = tmp_path / "big.csv"
    big_csv(csv, head=head)
    got = run(
        """
        path = sys.argv[1]
        started = csvfast.read_ahead(path)
        P = load.read_points(path)
        Q = load._read_points(open(path, "rb").read(), path)
        csvfast.cancel()
        forked.reap_all()
        print(json.dumps({"started": started, "taken": taken, "same": bool(np.array_equal(P, Q)),
                          "dtype": str(P.dtype), "shape": list(P.shape), "writeable": bool(P.flags.writeable),
                          "left": children_left()}))
        """,
        csv,
    )
    plain = head.startswith("#")
    assert got == {
        "started": True,
        "taken": [plain],  # a header row: the child answers "not for the fast pass"
        "same": True,
        "dtype": "float64",
        "shape": [60_000, 2],
        "writeable": False,
        "left": False,
    }


def test_a_file_edited_after_it_was_read_ahead_is_parsed_again(tmp_path):
    """Edited in place after the child parsed it (same size, new numbers): the loader reads the new numbers."""
    csv = tmp_path / "big.csv"
    big_csv(csv)
    text = csv.read_text(encoding="ascii").replace("6.0000,6.0000", "7.0000,7.0000").replace("0.", "1.")
    got = run(
        """
        path, new = sys.argv[1], sys.argv[2]
        started = csvfast.read_ahead(path)
        time.sleep(0.5)  # the child has parsed the old numbers
        with open(path, "r+", encoding="ascii") as f:
            f.write(open(new, encoding="ascii").read())
        P = load.read_points(path)
        Q = load._read_points(open(path, "rb").read(), path)
        csvfast.cancel()
        forked.reap_all()
        print(json.dumps({"started": started, "taken": taken, "same": bool(np.array_equal(P, Q)),
                          "left": children_left()}))
        """,
        csv,
        _write(tmp_path / "new.txt", text),
    )
    assert got == {"started": True, "taken": [False], "same": True, "left": False}


def test_another_file_read_stops_the_child(tmp_path):
    """The command line guessed one file and the loader reads another: the other's points, the child stopped."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    big_csv(a)
    big_csv(b, scale=2.0)
    got = run(
        """
        a, b = sys.argv[1], sys.argv[2]
        started = csvfast.read_ahead(a)
        P = load.read_points(b)
        Q = load._read_points(open(b, "rb").read(), b)
        print(json.dumps({"started": started, "taken": taken, "same": bool(np.array_equal(P, Q)),
                          "left": children_left()}))
        """,
        a,
        b,
    )
    assert got == {"started": True, "taken": [False], "same": True, "left": False}


def test_nothing_is_read_ahead_that_need_not_or_cannot_be(tmp_path):
    """A small CSV, a missing file, a folder, a FIFO, or a process with a second thread: no child, no error."""
    small = tmp_path / "small.csv"
    small.write_text("0,0\n1,0\n1,1\n0,1\n", encoding="ascii")
    big = tmp_path / "big.csv"
    big_csv(big)
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    got = run(
        """
        import threading
        small, missing, folder, fifo, big = sys.argv[1:6]
        answers = [csvfast.read_ahead(p) for p in (small, missing, folder, fifo)]
        hold = threading.Event()
        worker = threading.Thread(target=hold.wait)
        worker.start()
        answers.append(csvfast.read_ahead(big))
        hold.set()
        worker.join()
        print(json.dumps({"answers": answers, "left": children_left()}))
        """,
        small,
        tmp_path / "missing.csv",
        tmp_path,
        fifo,
        big,
    )
    assert got == {"answers": [False] * 5, "left": False}


def test_check_reads_ahead_and_says_the_same(tmp_path):
    """``paddock check BIG.csv --json`` says the same with the file read ahead as on one core (never read ahead),
    and a command that fails before reading the file leaves no child behind."""
    csv = tmp_path / "big.csv"
    big_csv(csv)
    body = """
        from generator.cli import main
        import contextlib, io
        if sys.argv[2] == "one-core":
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                main(["check", sys.argv[1], "--json", *sys.argv[3:]])
            except SystemExit as end:
                code = end.code
        print(json.dumps({"out": out.getvalue(), "code": code, "taken": taken, "left": children_left()}))
        """
    ahead = run(body, csv, "all-cores")
    alone = run(body, csv, "one-core")
    assert ahead["taken"] == [True] and alone["taken"] == [False]
    assert ahead["out"] == alone["out"] and ahead["code"] == alone["code"] == 0
    assert json.loads(ahead["out"])["buildable"] is True
    assert not ahead["left"] and not alone["left"]
    failed = run(body, csv, "all-cores", "--paper", "b7")
    assert failed["code"] != 0 and failed["taken"] == [] and not failed["left"]


def _write(path, text: str):
    path.write_text(text, encoding="ascii")
    return path
