"""A progress bar for long runs: one line on stderr, redrawn in place, only on a terminal and never when quiet."""

from __future__ import annotations

import sys
import time

WIDTH = 30
#: Runs shorter than this (seconds, estimated after the first batches) draw no bar at all.
QUIET_BELOW = 1.0


class Progress:
    """``Progress(total, "races")``; call it with the number of items just done; :meth:`close` clears the line.
    Draws nothing unless ``stream`` is a terminal (or ``force``)."""

    def __init__(self, total: int, what: str = "races", stream=None, enabled: bool = True, force: bool = False):
        self.stream = stream or sys.stderr
        self.total = max(1, total)
        self.what = what
        self.done = 0
        self.start = time.monotonic()
        self.enabled = enabled and (force or _is_tty(self.stream))
        self.force = force
        self.drawn = False

    def __call__(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        # a run that will be over in a moment keeps the terminal still
        soon = elapsed <= 0 or elapsed * self.total / self.done < QUIET_BELOW
        if not self.force and not self.drawn and self.done < self.total and soon:
            return
        self.draw(elapsed)

    def draw(self, elapsed: float) -> None:
        part = self.done / self.total
        bar = "#" * round(part * WIDTH)
        left = ""
        if 0 < self.done < self.total and elapsed > 0:
            left = f", about {max(1, round(elapsed * (self.total - self.done) / self.done))} s left"
        line = f"\r\x1b[Ksimulating: [{bar:<{WIDTH}}] {self.done}/{self.total} {self.what}{left}"
        self.stream.write(line)
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
