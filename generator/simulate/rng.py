"""One random stream per race.

Race ``i`` of a run with seed ``s`` draws every die from ``race_random(s, i)``: a :class:`random.Random` seeded
with a string, which Python hashes with SHA-512 (not the per-process ``hash()``), so the stream is the same in
every process, on every platform and for any number of jobs — a batch of races can run anywhere.
"""

from __future__ import annotations

import random


def race_random(seed: int, index: int) -> random.Random:
    """The random stream of race ``index`` (0-based) of a run seeded with ``seed``."""
    return random.Random(f"paddock-race:{seed}:{index}")
