"""Running many races: in batches, in this process or over ``jobs`` processes.

A game gives a *batch* function, ``batch(setup, seed, first, count) -> Tally``, defined at the top level of its
module (worker processes import it by name), and a *setup*: everything a race needs (the board, the rules' numbers,
the drivers' tables), picklable, handed to each worker once. Race ``i`` draws its dice from
:func:`~.rng.race_random` ``(seed, i)``, so a race is the same race in any batch and any process; each batch
returns whole-number counts that are added up as they come back (:mod:`.tally`). The result is therefore the same
for any ``jobs``, and memory does not grow with the number of races: a batch's tally is merged and dropped.

``jobs`` processes race: this one and ``jobs - 1`` workers, started with the ``spawn`` method on every platform
(what Windows and macOS use anyway: a fresh interpreter that imports only what the batch needs) while this one
already races, each fed over a pipe of its own (no shared locks: nothing to leak). A worker ignores Ctrl-C (its
terminal's group sends it to every process; this one answers it) and ends when its pipe closes, so a run stopped
at any point — Ctrl-C, SIGTERM turned into an exception by the command, a ``cancel`` — leaves no process behind:
the workers are ended before :func:`run` lets the exception through.
"""

from __future__ import annotations

import contextlib
import signal
from collections import deque
from collections.abc import Callable
from typing import Any

from .tally import Tally

Batch = Callable[[Any, int, int, int], Tally]

#: Batches in flight per worker: one racing, one waiting, so a worker never idles between two.
IN_FLIGHT = 2


def batches(races: int, jobs: int, size: int | None = None) -> list[tuple[int, int]]:
    """``(first race, count)`` of each batch: small enough for a smooth progress bar and to keep every process
    busy to the end, large enough that handing a batch over costs little; on several processes the last few
    batches smaller, so that they all finish together."""
    if size is None:
        size = max(1, min(50, races // max(1, 8 * jobs)))
    out = []
    first = 0
    tail = races - 2 * jobs * size if jobs > 1 else races  # the last races, in quarter batches
    while first < races:
        step = size if first < tail else max(1, size // 4)
        out.append((first, min(step, races - first)))
        first += step
    return out


def run(
    batch: Batch,
    setup: Any,
    races: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    size: int | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Tally:
    """Run ``races`` races (``batch`` over ``setup``) on ``jobs`` processes; ``progress(n)`` is told each time
    ``n`` more races are done; ``cancel()``, asked before each batch, stops the run with
    :class:`~generator.simulate.Cancelled` when it answers true. The tally of all of them."""
    from . import Cancelled

    total = Tally()
    work = deque(batches(races, jobs, size))
    if jobs <= 1 or len(work) <= 1:
        for first, count in work:
            if cancel is not None and cancel():
                raise Cancelled
            total.update(batch(setup, seed, first, count))
            if progress:
                progress(count)
        return total
    workers = _start(batch, setup, min(jobs, len(work)) - 1)
    clean = False
    try:
        _share(workers, work, batch, setup, seed, total, progress, cancel)
        clean = True
    finally:
        _stop(workers, clean)
    return total


class _Worker:
    __slots__ = ("process", "conn", "counts")

    def __init__(self, process, conn) -> None:
        self.process, self.conn, self.counts = process, conn, deque()


def _start(batch: Batch, setup: Any, n: int) -> list[_Worker]:
    """``n`` workers started, then each sent the setup over its own pipe (not with the process: a worker that dies
    before reading a large setup would leave ``start`` waiting on it for ever)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    workers: list[_Worker] = []
    try:
        with _held_signals() as came, _quiet_children():
            for _ in range(n):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, batch), daemon=True)
                process.start()
                theirs.close()
                workers.append(_Worker(process, mine))
        if came:
            raise KeyboardInterrupt
        for w in workers:
            try:
                w.conn.send(setup)
            except OSError:
                raise RuntimeError("a simulation worker ended as it started") from None
    except BaseException:
        _stop(workers, False)
        raise
    return workers


#: The signals held back while workers start.
HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))


@contextlib.contextmanager
def _held_signals():
    """Ctrl-C and SIGTERM held back while the workers start: one that comes meanwhile is noted (the list yielded),
    not raised in the middle of starting a process; the caller raises it once they have all started. In the main
    thread only (signals are not another thread's to handle)."""
    import threading

    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return
    before = {sig: signal.signal(sig, lambda signum, frame: came.append(signum)) for sig in HELD}
    try:
        yield came
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def _quiet_children():
    """Workers start with their standard error on the null device: a terminal's Ctrl-C reaches every process of
    its group, and a worker it catches still starting would print a traceback (a worker says its errors to this
    process over its pipe). ``PADDOCK_DEBUG`` in the environment leaves them their stderr."""
    import os
    import sys

    if "PADDOCK_DEBUG" in os.environ:
        yield
        return
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    null = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(2)
    os.dup2(null, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _share(workers, work, batch, setup, seed, total, progress, cancel) -> None:
    """Hand the batches out, race one here whenever every worker has enough to do, merge the tallies as they come
    back (in any order: the sums are the same)."""
    from multiprocessing.connection import wait

    from . import Cancelled

    busy = {w.conn: w for w in workers}
    while work or any(w.counts for w in workers):
        if cancel is not None and cancel():
            raise Cancelled
        for w in workers:
            while work and len(w.counts) < IN_FLIGHT:
                first, count = work.popleft()
                w.conn.send((seed, first, count))
                w.counts.append(count)
        waiting = [w.conn for w in workers if w.counts]
        for conn in wait(waiting, timeout=0 if work else None) if waiting else ():
            _collect(busy[conn], total, progress)
        if work:  # this process races too
            first, count = work.popleft()
            total.update(batch(setup, seed, first, count))
            if progress:
                progress(count)


def _collect(worker: _Worker, total: Tally, progress) -> None:
    try:
        answer = worker.conn.recv()
    except EOFError:
        raise RuntimeError("a simulation worker ended unexpectedly") from None
    if isinstance(answer, BaseException):
        raise answer
    count = worker.counts.popleft()
    total.update(answer)
    if progress:
        progress(count)


def _stop(workers: list[_Worker], clean: bool) -> None:
    """End every worker: told to stop after a clean run, terminated at once otherwise; waited for either way."""
    for w in workers:
        if clean:
            with contextlib.suppress(OSError):
                w.conn.send(None)
        w.conn.close()
        if not clean and w.process.is_alive():
            w.process.terminate()
    for w in workers:
        w.process.join(timeout=None if clean else 5)
        if w.process.is_alive():  # a worker deaf to SIGTERM: ended for sure
            w.process.kill()
            w.process.join()


def _serve(conn, batch: Batch) -> None:
    """A worker: take the setup, then race each batch asked for and send its tally back, until told to stop or the
    pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
    try:
        setup = conn.recv()
        while True:
            job = conn.recv()
            if job is None:
                break
            try:
                answer = batch(setup, *job)
            except Exception as err:  # a bug: reported by the parent
                answer = err
            conn.send(answer)
    except (EOFError, OSError):
        pass  # the parent has gone: nothing to answer to
    finally:
        conn.close()
