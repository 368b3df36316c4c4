"""A large centre-line CSV read fast: its x, y columns parsed by numpy straight from the open file, and — when the
command line names one — parsed ahead, in a child process on another core, while the command is still starting.

``paddock check`` or ``track`` of a survey-grade line (300,000 points, 10 MB) spends ~30 ms parsing it and, before
that, ~80 ms importing typer, pydantic and the track modules, none of which the numbers depend on. The command line
calls :func:`read_ahead` with the file it names before it imports them; the track loader asks :func:`take` for
the points when it reads that file. What the child parsed is used only if the file is still the one it read (the
same device, inode, size and times when the child began and when the points are taken: any write in between
changes them): the points are the file as it was after the command began, exactly as the loader would have parsed
it (the same call, :func:`parse_file`).
Anything else — another file, a file changed meanwhile, a child that failed — and the loader parses the file
itself, as it always did.

This module imports numpy and nothing of Paddock's tracks (their package loads pydantic): the command line uses
it before those load. Linux only (numpy opens the checked file by its ``/proc/self/fd`` name); elsewhere every
centre line is read through its bytes, in the command's own process.
"""

from __future__ import annotations

import os

#: A CSV holds at most this many points (and, as every input, at most 32 MB).
MAX_CSV_POINTS = 1_000_000
#: A centre-line CSV this large (bytes; a survey-grade line) is parsed by numpy straight from the open file, in
#: large pieces: no copy of it in memory first, nor a Python object a line (a 10 MB file: 40 -> 28 ms). Smaller
#: ones parse in a few milliseconds: they are never read ahead.
BIG_CSV = 1 << 20
#: numpy opens a file by its name; /proc/self/fd names the file Paddock opened and checked (Linux), not whatever
#: the path names by then. Elsewhere every file is read through its bytes.
FD_PATHS = os.path.isdir("/proc/self/fd")
#: How the one numpy pass reads a centre-line CSV, from its bytes or straight from the file: the same either way.
FAST_PASS = {"delimiter": ",", "comments": "#", "ndmin": 2, "usecols": (0, 1)}


def identity(info: os.stat_result) -> tuple:
    """What names a file's content between two looks at it: device, inode, size and times."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def parse_file(fd: int, info: os.stat_result):
    """The x, y columns (a float array, n × 2) of the large regular file open as ``fd`` (checked by
    :func:`~generator.safeio.open_regular`; ``info`` its status then), or None when the fast pass does not take
    it as it is (a header, semicolons, a bad value, more than :data:`MAX_CSV_POINTS` rows read only up to one
    more) or the file changed size while it was read."""
    import warnings

    import numpy as np

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            P = np.loadtxt(
                f"/proc/self/fd/{fd}",
                **FAST_PASS,
                encoding="ascii",
                max_rows=MAX_CSV_POINTS + 1,  # a file growing meanwhile stops here (and is read again, bounded)
            )
        if os.fstat(fd).st_size != info.st_size:
            return None
    except (ValueError, IndexError, OSError):  # UnicodeDecodeError is a ValueError
        return None
    return P


class _Ahead:
    """A child parsing one file: its pid, the pipe it says how many rows on (or 0), the shared memory it puts
    them in, and the file's identity when the parse began."""

    def __init__(self, pid: int, status: int, shared, ident: tuple) -> None:
        self.pid, self.status, self.shared, self.ident = pid, status, shared, ident


_AHEAD: _Ahead | None = None


def read_ahead(path) -> bool:
    """Start parsing the centre-line CSV ``path`` in a child process, if it is a large regular file and this
    process can fork safely and gain by it (Linux, one thread, two cores or more); whether it started. Never
    raises: whatever goes wrong here, the loader reads the file itself. At most one file is read ahead; a second
    call first drops the first."""
    global _AHEAD

    cancel()
    if not FD_PATHS or not hasattr(os, "fork"):
        return False
    try:
        if len(os.sched_getaffinity(0)) < 2:  # one core: the child would only take turns with the command
            return False
        if len(os.listdir("/proc/self/task")) != 1:  # a thread (OpenBLAS's, the user's) could hold a lock forked
            return False
        from .safeio import open_regular

        with open_regular(path, what="centre-line CSV") as (fd, info):
            if info.st_size < BIG_CSV:
                return False
            import mmap

            import numpy as np

            # anonymous shared memory for the largest parse: only the pages the child writes are ever made
            shared = mmap.mmap(-1, (MAX_CSV_POINTS + 1) * 2 * 8)
            status, done = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: parse, put the rows in the shared memory, say how many, leave at once
                code = 1
                try:
                    os.close(status)
                    P = parse_file(fd, info)
                    n = 0
                    if P is not None and P.dtype == np.float64 and P.ndim == 2 and P.shape[1] == 2:
                        np.frombuffer(shared, dtype=np.float64, count=P.size).reshape(P.shape)[:] = P
                        n = len(P)
                    os.write(done, n.to_bytes(8, "little"))
                    code = 0
                finally:
                    os._exit(code)  # no cleanup of the parent's objects, no flush of its buffers
            os.close(done)
            _AHEAD = _Ahead(pid, status, shared, identity(info))
            return True
    except Exception:  # noqa: BLE001 — reading ahead is only ever a head start
        return False


def take(info: os.stat_result):
    """The points read ahead (read-only) if they are of the file ``info`` describes (the loader's own status of
    it) and it has not changed since the child began, else None; either way the child is done with."""
    global _AHEAD

    ahead, _AHEAD = _AHEAD, None
    if ahead is None:
        return None
    if ahead.ident != identity(info):  # another file: the child's work is not wanted
        _end(ahead, kill=True)
        return None
    import numpy as np

    try:
        head = b""
        while len(head) < 8:
            part = os.read(ahead.status, 8 - len(head))  # waits for the child, if it is still parsing
            if not part:
                return None  # the child ended without an answer
            head += part
        n = int.from_bytes(head, "little")
        if not 4 <= n <= MAX_CSV_POINTS + 1:
            return None
        P = np.frombuffer(ahead.shared, dtype=np.float64, count=2 * n).reshape(n, 2)
        P.flags.writeable = False
        return P
    except OSError:
        return None
    finally:
        _end(ahead, kill=False)


def cancel() -> None:
    """Stop a child whose points nobody took (the command failed first, or read another file) and reap every
    child read ahead: none is left behind in a long-lived process (the tests, a tool calling the command line).
    The command line calls this when a command ends."""
    global _AHEAD

    ahead, _AHEAD = _AHEAD, None
    if ahead is not None:
        _end(ahead, kill=True)
    while _UNREAPED:
        _reap(_UNREAPED.pop(), wait=True)


#: Children that answered but had not quite exited when their points were taken (reaped by :func:`cancel`).
_UNREAPED: list[int] = []


def _end(ahead: _Ahead, kill: bool) -> None:
    import contextlib
    import signal

    with contextlib.suppress(OSError):
        os.close(ahead.status)
    if kill:
        with contextlib.suppress(OSError):
            os.kill(ahead.pid, signal.SIGKILL)
    if not _reap(ahead.pid, wait=kill):  # an answered child is leaving: no need to wait for it here
        _UNREAPED.append(ahead.pid)


def _reap(pid: int, wait: bool) -> bool:
    """Whether the child ``pid`` is reaped (or was already)."""
    try:
        return os.waitpid(pid, 0 if wait else os.WNOHANG)[0] != 0
    except ChildProcessError:
        return True
    except OSError:
        return False
