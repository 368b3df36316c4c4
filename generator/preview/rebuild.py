"""Rebuilding a board whenever its files change: the one code path of ``paddock track --watch`` (which writes the
files again) and ``paddock preview`` (which redraws a web page).

:class:`Sources` knows which files a spec's build reads (the spec, and the centre-line CSV it names) and gives a
stamp that changes when any of them does: polled, a ``stat`` of at most two files, which works the same on local
disks, network drives and containers. :func:`attempt` runs one build and turns whatever an edit did (an error
of the user's, a spec nested too deeply, even a bug) into a status line, so a design session never ends on a bad
save. :class:`Watcher` polls and rebuilds; a subclass says what a build is (:meth:`Watcher.build`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Seconds between two looks at the files: a save is seen within this.
POLL = 0.1


def _stat(f: Path | None) -> tuple | None:
    """What changes when a file is saved (in place, or written beside and renamed over it)."""
    try:
        st = f.stat() if f is not None else None
    except OSError:
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size, st.st_ino)


class Sources:
    """The files a build of ``spec`` reads: the spec and the centre-line CSV it names (re-read from the spec only
    when the spec itself changed)."""

    def __init__(self, spec: Path) -> None:
        self.spec = Path(spec)
        self._csv: tuple[tuple | None, Path | None] = (None, None)  # (spec stat it was read at, csv path)

    def csv(self, spec_stat: tuple | None) -> Path | None:
        if self._csv[0] != spec_stat or spec_stat is None:
            from ..errors import PaddockError
            from ..track import load_spec
            from ..track.load import csv_path

            csv = None
            try:
                s, _, _ = load_spec(self.spec)
                csv = csv_path(s, self.spec)
            except (PaddockError, RecursionError, MemoryError, ValueError, OSError):
                pass  # the build says what is wrong with the spec; here only the CSV to watch is wanted
            self._csv = (spec_stat, csv)
        return self._csv[1]

    def stamp(self) -> tuple:
        """Changes whenever the spec or its CSV does; never raises."""
        try:
            m = _stat(self.spec)
            csv = self.csv(m)
            return (m, str(csv), _stat(csv))
        except Exception as err:  # noqa: BLE001 — whatever an edit does, the watcher keeps watching
            return ("unreadable", type(err).__name__, str(err))


@dataclass
class Attempt:
    """One build's outcome: ``value`` (what the build returned) or ``error`` (the exception) and ``said``, the
    status line for it; ``notes``: the layout warnings the build gave (a game's notes on its board)."""

    value: Any = None
    error: BaseException | None = None
    said: str = ""
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


def attempt(build: Callable[[], Any], name: Callable[[Any], str] = str) -> Attempt:
    """Run ``build()``: its value, or the error whatever it was, worded as one status line (``name(value)`` names
    what was built). Layout warnings are caught and kept as ``notes``, in order. KeyboardInterrupt passes."""
    from ..errors import PaddockError
    from ..messages import quote
    from ..notices import LayoutWarning

    t0 = time.perf_counter()
    out = Attempt()
    with warnings.catch_warnings(record=True) as caught:  # this build's notices, said with it
        warnings.simplefilter("always")
        try:
            out.value = build()
        except PaddockError as err:
            out.error, out.said = err, f"paddock: error: {err}"
        except RecursionError as err:
            out.error, out.said = err, "paddock: error: the spec is nested too deeply to read"
        except Exception as err:  # a bug must not end a design session: report it and keep going
            out.error = err
            out.said = f"paddock: internal error ({type(err).__name__}: {quote(str(err), 60)})"
        else:
            out.said = f"paddock: built {name(out.value)} at {time.strftime('%H:%M:%S')}"
        finally:
            out.notes = [str(w.message) for w in caught if isinstance(w.message, LayoutWarning)]
    if out.error is not None:  # its traceback would hold the failed build's frames (its whole board) in a cycle
        out.error = out.error.with_traceback(None)
    out.seconds = time.perf_counter() - t0
    return out


class Watcher:
    """Rebuilds whenever the spec (or the centre-line CSV it names) changes: one :meth:`step` per poll.

    ``say`` receives each status line. A bad edit says its error and the watcher carries on; the next save that
    fixes it rebuilds. A subclass gives :meth:`build` (and, if it says more after a good build, :meth:`built`)."""

    def __init__(self, spec: Path, say: Callable[[str], None]) -> None:
        self.spec = Path(spec)
        self.sources = Sources(self.spec)
        self.say = say
        self.last: tuple | None = None
        self.builds = 0
        self.errors = 0

    def build(self) -> Any:  # pragma: no cover - every watcher says what it builds
        raise NotImplementedError

    def built(self, value: Any) -> None:
        """Said after a good build, before the 'built' line (what the build changed, say)."""

    def name(self, value: Any) -> str:
        return str(value)

    def stamp(self) -> tuple:
        return self.sources.stamp()

    def step(self) -> bool:
        """Rebuild if anything changed since the last step; True if a build (good or bad) was attempted."""
        now = self.stamp()
        if now == self.last:
            return False
        self.last = now
        done = attempt(self.build, self.name)
        if done.ok:
            self.built(done.value)
        for note in done.notes:
            self.say(f"paddock: warning: {note}")
        if done.ok:
            self.builds += 1
            self.say(done.said)
        else:
            from ..errors import PaddockError

            self.errors += 1
            if isinstance(done.error, PaddockError):
                self.say(done.said)
                self.say("paddock: still watching; save a fix to rebuild")
            else:
                self.say(f"{done.said}; still watching")
        return True

    def run(self, interval: float = POLL, max_steps: int | None = None, sleep=None) -> None:
        """Poll until Ctrl-C (or ``max_steps`` polls, for tests)."""
        sleep = sleep or time.sleep
        self.say(f"paddock: watching {self.spec} (Ctrl-C to stop)")
        n = 0
        try:
            while max_steps is None or n < max_steps:
                self.step()
                n += 1
                if max_steps is None or n < max_steps:
                    sleep(interval)
        except KeyboardInterrupt:
            self.say("paddock: stopped watching")
