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


_AHEAD = None  # (the child parsing, the file's identity when it began), while its points are not taken


def read_ahead(path) -> bool:
    """Start parsing the centre-line CSV ``path`` in a child process (:class:`~generator.forked.Child`), if it is
    a large regular file and a child can be forked; whether it started. Never raises: whatever goes wrong here,
    the loader reads the file itself. At most one file is read ahead; a second call first drops the first."""
    global _AHEAD

    cancel()
    if not FD_PATHS:
        return False
    try:
        from .forked import Child, can_fork
        from .safeio import open_regular

        if not can_fork():
            return False
        with open_regular(path, what="centre-line CSV") as (fd, info):
            if info.st_size < BIG_CSV:
                return False
            import numpy as np  # here, before the fork: the child uses the parent's

            def work(shared) -> int:  # in the child: the rows into the shared memory, their number the answer
                P = parse_file(fd, info)
                if P is None or P.dtype != np.float64 or P.ndim != 2 or P.shape[1] != 2:
                    return 0
                np.frombuffer(shared, dtype=np.float64, count=P.size).reshape(P.shape)[:] = P
                return len(P)

            child = Child.start(work, (MAX_CSV_POINTS + 1) * 2 * 8)
            if child is None:
                return False
            _AHEAD = (child, identity(info))
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
    child, ident = ahead
    if ident != identity(info):  # another file, or this one written since: the child's work is not wanted
        child.stop()
        return None
    n = child.answer()  # waits for the child, if it is still parsing
    if n is None or not 4 <= n <= MAX_CSV_POINTS + 1:
        return None
    import numpy as np

    P = np.frombuffer(child.shared, dtype=np.float64, count=2 * n).reshape(n, 2)
    P.flags.writeable = False
    return P


def cancel() -> None:
    """Stop a child whose points nobody took (the command failed first, or read another file)."""
    global _AHEAD

    ahead, _AHEAD = _AHEAD, None
    if ahead is not None:
        ahead[0].stop()
