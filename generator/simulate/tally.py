"""The counts a run of races leaves: whole numbers only, so they add up the same in any order.

A :class:`Tally` is a :class:`collections.Counter` keyed by tuples whose first item names the measure:
``("turns", 23)`` is a histogram bin (23 turns, counted once per race that took them), ``("dnf", "engine")`` a
count, ``("wp", 4, "tires")`` the tire WP lost in zone 4. Batches run in other processes return their tallies and
the runner adds them up; since every value is an integer, the sums — and every figure computed from them — are
identical whichever process ran which race and in which order they came back.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable


class Tally(Counter):
    """Counts keyed by ``(measure, *key)`` tuples (see the module's docstring)."""

    def add(self, *key: Hashable, n: int = 1) -> None:
        self[key] = self.get(key, 0) + n

    def count(self, *key: Hashable) -> int:
        return self.get(key, 0)

    def keys_of(self, measure: str) -> list[tuple]:
        """The rest of every key of ``measure`` (sorted), e.g. ``keys_of("dnf")`` → ``[("engine",), ...]``."""
        return sorted((k[1:] for k in self if k and k[0] == measure), key=repr)

    def hist(self, measure: str) -> dict:
        """``measure``'s one-value keys as a histogram ``{value: count}`` (sorted by value)."""
        return dict(sorted((k[1], v) for k, v in self.items() if len(k) == 2 and k[0] == measure))

    def by(self, measure: str) -> dict:
        """``measure``'s keys (without the measure) and counts: ``{("engine",): 3, ...}``."""
        return {k[1:]: v for k, v in self.items() if k and k[0] == measure}


def sample(tally: Counter, name: Hashable, value: int) -> None:
    """Count one race's whole-number ``value`` of ``name`` as its moments (``("n", name)``, ``("sum", name)``,
    ``("sq", name)``): what a mean's confidence interval is made of, adding up exactly across batches."""
    tally[("n", name)] += 1
    tally[("sum", name)] += value
    tally[("sq", name)] += value * value


def moments(tally: Counter, name: Hashable) -> tuple[int, float, float]:
    """``(races, mean, variance of one race's value)`` of a :func:`sample`d measure (variance with n − 1)."""
    n = tally.get(("n", name), 0)
    if not n:
        return 0, math.nan, math.nan
    s, q = tally.get(("sum", name), 0), tally.get(("sq", name), 0)
    mean = s / n
    var = (q - s * s / n) / (n - 1) if n > 1 else math.nan
    return n, mean, max(0.0, var) if var == var else var


def merged(parts: Iterable[Counter]) -> Tally:
    out = Tally()
    for part in parts:
        out.update(part)
    return out


def hist_total(hist: dict) -> int:
    return sum(hist.values())


def hist_mean(hist: dict) -> float:
    n = hist_total(hist)
    return sum(v * c for v, c in hist.items()) / n if n else math.nan


def percentile(hist: dict, q: float):
    """The ``q``-th percentile (0–100) of a histogram of whole numbers: the smallest value with at least ``q`` %
    of the counts at or below it (the nearest-rank method: always a value that occurred)."""
    n = hist_total(hist)
    if not n:
        return None
    rank = max(1, math.ceil(q / 100 * n))
    seen = 0
    for value, count in sorted(hist.items()):
        seen += count
        if seen >= rank:
            return value
    return max(hist)


def spearman_d2(grid: list[int], final: list[int]) -> int:
    """Σ d² between two rankings of the same cars (positions 1..n): what Spearman's ρ is made of, kept whole so
    that it sums exactly across races (ρ = 1 − 6 Σd² / (n (n² − 1)))."""
    return sum((a - b) ** 2 for a, b in zip(grid, final, strict=True))


def spearman_rho(sum_d2: int, races: int, n: int) -> float:
    """The mean Spearman ρ of ``races`` races of ``n`` cars whose Σd² add up to ``sum_d2``."""
    if races == 0 or n < 2:
        return math.nan
    return 1 - 6 * sum_d2 / (races * n * (n * n - 1))
