"""Running many races: in batches, in this process or over ``jobs`` worker processes.

A game gives a *batch* function, ``batch(setup, seed, first, count) -> Tally``, defined at the top level of its
module (worker processes import it by name), and a *setup*: everything a race needs (the board, the rules' numbers,
the drivers' tables), picklable, handed to each worker once. Race ``i`` draws its dice from
:func:`~.rng.race_random` ``(seed, i)``, so a race is the same race in any batch and any process; each batch
returns whole-number counts that are added up as they come back (:mod:`.tally`). The result is therefore the same
for any ``jobs``, and memory does not grow with the number of races: a batch's tally is merged and dropped.

Workers are started with the ``spawn`` method on every platform (what Windows and macOS use anyway): a worker is a
fresh interpreter that imports only what the batch needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .tally import Tally

Batch = Callable[[Any, int, int, int], Tally]

_WORKER: dict = {}


def batches(races: int, jobs: int, size: int | None = None) -> list[tuple[int, int]]:
    """``(first race, count)`` of each batch: small enough for a smooth progress bar and to keep every worker busy
    to the end, large enough that handing a batch over costs little."""
    if size is None:
        size = max(1, min(50, races // max(1, 8 * jobs)))
    return [(first, min(size, races - first)) for first in range(0, races, size)]


def run(
    batch: Batch,
    setup: Any,
    races: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    size: int | None = None,
) -> Tally:
    """Run ``races`` races (``batch`` over ``setup``) on ``jobs`` processes; ``progress(n)`` is told each time
    ``n`` more races are done. The tally of all of them."""
    total = Tally()
    work = batches(races, jobs, size)
    if jobs <= 1 or len(work) <= 1:
        for first, count in work:
            total.update(batch(setup, seed, first, count))
            if progress:
                progress(count)
        return total
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_start_worker, initargs=(batch, setup)
    ) as pool:
        pending: dict = {}
        queue = iter(work)
        try:
            # at most two batches in flight per worker: results are merged (and dropped) as they arrive
            for first, count in queue:
                pending[pool.submit(_run_batch, seed, first, count)] = count
                if len(pending) >= 2 * jobs:
                    break
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    count = pending.pop(future)
                    total.update(future.result())
                    if progress:
                        progress(count)
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(_run_batch, seed, *nxt)] = nxt[1]
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return total


def _start_worker(batch: Batch, setup: Any) -> None:
    _WORKER["batch"] = batch
    _WORKER["setup"] = setup


def _run_batch(seed: int, first: int, count: int) -> Tally:
    return _WORKER["batch"](_WORKER["setup"], seed, first, count)
