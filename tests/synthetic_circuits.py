"""Plausible circuit centre lines in the racetrack-database format (metres, x east, y north, ~5 m apart), for
the adaptation's tests and benchmark: smooth random loops with hairpins, chicanes, close parallel stretches, and
a figure-eight. Deterministic for a given seed."""

from __future__ import annotations

import math

import numpy as np


def _polar(r_of_theta, scale_m: float, spacing_m: float = 5.0) -> np.ndarray:
    """The closed curve r(θ)·scale, resampled ~spacing_m apart, anticlockwise from θ = 0."""
    th = np.linspace(0, 2 * math.pi, 4000, endpoint=False)
    r = r_of_theta(th)
    P = np.column_stack((r * np.cos(th), r * np.sin(th))) * scale_m
    return _respace(P, spacing_m)


def _respace(P: np.ndarray, spacing_m: float) -> np.ndarray:
    Q = np.vstack((P, P[:1]))
    seg = np.hypot(*np.diff(Q, axis=0).T)
    cum = np.concatenate(([0.0], np.cumsum(seg)))
    n = max(16, round(cum[-1] / spacing_m))
    s = np.arange(n) * cum[-1] / n
    return np.column_stack((np.interp(s, cum, Q[:, 0]), np.interp(s, cum, Q[:, 1])))


def _bump(th, centre, width):
    d = np.angle(np.exp(1j * (th - centre)))
    return np.exp(-0.5 * (d / width) ** 2)


def random_circuit(seed: int, hairpins: int = 1, chicanes: int = 1, notches: int = 1, size_m: float = 700.0):
    """A smooth random loop (a few harmonics), with ``hairpins`` long thin fingers (a hairpin at the tip, two
    close parallel legs), ``chicanes`` small quick wiggles, and ``notches`` deep dents (two parts of the lap run
    close together)."""
    rng = np.random.default_rng(seed)
    k = np.arange(2, 6)
    amp = rng.uniform(0, 0.12, len(k)) / k
    phase = rng.uniform(0, 2 * math.pi, len(k))
    centres = rng.permutation(np.linspace(0, 2 * math.pi, hairpins + chicanes + notches + 1, endpoint=False))
    centres = centres + rng.uniform(-0.2, 0.2, len(centres))
    fingers = [(centres[i], rng.uniform(0.4, 0.8), rng.uniform(0.035, 0.06)) for i in range(hairpins)]
    wiggles = [(centres[hairpins + i], rng.uniform(0.02, 0.04)) for i in range(chicanes)]
    dents = [(centres[hairpins + chicanes + i], rng.uniform(0.4, 0.6), rng.uniform(0.12, 0.2)) for i in range(notches)]

    def r(th):
        out = 1.0 + sum(a * np.cos(kk * th + p) for a, kk, p in zip(amp, k, phase, strict=True))
        for c, length, width in fingers:
            out = out + length * _bump(th, c, width)
        for c, a in wiggles:
            out = out + a * np.sin(40 * (th - c)) * _bump(th, c, 0.08)
        for c, depth, width in dents:
            out = out - depth * _bump(th, c, width)
        return out

    return _polar(r, size_m)


def figure_eight(size_m: float = 600.0, spacing_m: float = 5.0) -> np.ndarray:
    """A lemniscate of Gerono stretched into a circuit: the two passes cross at right angles at the middle
    (over a bridge, on a real circuit)."""
    t = np.linspace(0, 2 * math.pi, 4000, endpoint=False)
    P = np.column_stack((np.sin(t), np.sin(t) * np.cos(t) * 1.2)) * size_m
    return _respace(P, spacing_m)
