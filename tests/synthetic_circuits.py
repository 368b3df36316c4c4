"""Synthetic circuit centre lines for the adaptation's tests and benchmarks, deterministic for a given seed.

Two kinds:

- :func:`realistic` — a racing circuit as the racetrack-database gives one (metres, x east, y north, the first point
  on the start/finish line, in the race direction): 3–7 km, long straights beside twisty sections, hairpins of
  10–20 m radius, chicanes, 90° street corners, esses, now and then a self-crossing (a figure-eight over a bridge);
  real track widths, a point every ~5 m with survey noise (``x_m,y_m,w_tr_right_m,w_tr_left_m``), or a coarse line
  traced off a map (a point every 20–50 m, traced by hand: plain ``x,y``, no widths). It knows its own truth: where
  its straights are, each feature, where the real start line is, where it crosses itself.
- :func:`random_circuit` and :func:`figure_eight` — smooth random loops with fingers, wiggles and dents (older, kept
  for the tests written against them).

How a realistic circuit is made: a random polygon (its corners round a centre, some pushed out into a sharp spike
for a hairpin, some pulled in) gives the layout; each side becomes a straight — or a twisty section, a street
section of 90° corners, esses or a chicane in its middle — and each corner of the polygon a corner complex turning
by the polygon's own angle (a hairpin, a 90° street corner, a medium or fast bend, esses, a double-apex). The
curvature, with short clothoid-like easings, is integrated to a line; the straights' lengths are then corrected
(least squares) so the lap closes exactly. A layout whose parts come closer than ``SEPARATION_M`` (or cross,
unless it is a figure-eight crossing once, steeply) is thrown away and the next sub-seed tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: Two parts of a generated circuit that are not the same stretch stay this far apart (centre lines, metres).
SEPARATION_M = 45.0
STEP_M = 0.5  # the curvature is integrated this finely


@dataclass
class Feature:
    kind: str  # straight | hairpin | street | chicane | esses | infield | bend | fast
    s0: float  # metres along the true centre line from the start line
    s1: float
    turn_deg: float = 0.0  # net turn (left positive)


@dataclass
class Synthetic:
    """A generated circuit: its points as a CSV gives them and what is known about it."""

    name: str
    points: np.ndarray  # (n, 4) x, y, w_right, w_left — or (n, 2) for a traced line
    true_line: np.ndarray  # (m, 2) the noise-free centre line every STEP_M, from the start line
    lap_m: float
    features: list[Feature] = field(default_factory=list)
    crossings: int = 0  # how often the line crosses itself
    start_on_straight: float = 0.0  # metres of straight behind the start line
    traced: bool = False

    @property
    def xy(self) -> np.ndarray:
        return self.points[:, :2]

    def straights(self, min_m: float = 0.0) -> list[tuple[float, float]]:
        """The true straights (metres along the lap, s0 < s1; s1 past the lap when one runs over the line)."""
        return [(f.s0, f.s1) for f in self.features if f.kind == "straight" and f.s1 - f.s0 >= min_m]

    def write(self, path: Path) -> Path:
        """The CSV as the racetrack-database (or a map tracer) gives it."""
        if self.traced:
            rows = [f"{x:.2f},{y:.2f}" for x, y in self.points]
            text = "x,y\n" + "\n".join(rows) + "\n"
        else:
            rows = [f"{x:.6f},{y:.6f},{r:.3f},{w:.3f}" for x, y, r, w in self.points]
            text = "# x_m,y_m,w_tr_right_m,w_tr_left_m\n" + "\n".join(rows) + "\n"
        path.write_text(text, encoding="utf-8")
        return path


# ---------------------------------------------------------------------------------------------- the pieces


@dataclass
class _El:
    """One element of the line: a straight (k = 0) or an arc of curvature k (1/m, left positive) over ``length``."""

    length: float
    k: float = 0.0
    kind: str = "straight"
    group: int = -1  # the feature it belongs to
    adjustable: bool = False  # a straight whose length closes the lap


def _arc(R: float, deg: float, kind: str) -> _El:
    return _El(abs(math.radians(deg)) * R, math.copysign(1.0 / R, deg), kind)


def _complex(rng, turn: float, kind: str) -> list[_El]:
    """A corner complex turning by ``turn`` degrees (left positive) in the manner of ``kind``."""
    sg = 1.0 if turn >= 0 else -1.0
    a = abs(turn)
    if kind == "hairpin":
        return [_arc(rng.uniform(10, 20), turn, kind)]
    if kind == "street":  # 90° corners with short straights between, the rest of the turn in a last bend
        n = max(1, round(a / 90))
        out: list[_El] = []
        for i in range(n):
            out.append(_arc(rng.uniform(12, 25), sg * a / n, kind))
            if i < n - 1:
                out.append(_El(rng.uniform(60, 160), kind=kind))
        return out
    if kind == "esses":  # alternating bends, the net turn shared out
        n = int(rng.integers(3, 6))
        angs = rng.uniform(30, 70, n) * np.where(np.arange(n) % 2 == 0, 1, -1)
        angs += (turn - angs.sum()) / n
        return sum(([_arc(rng.uniform(60, 150), d, kind), _El(rng.uniform(5, 30), kind=kind)] for d in angs), [])[:-1]
    if kind == "infield":  # a twisty section: medium and slow corners, short straights, mixed directions
        n = int(rng.integers(4, 9))
        angs = rng.uniform(40, 150, n) * rng.choice([-1, 1], n)
        angs += (turn - angs.sum()) / n
        out = []
        for d in angs:
            out += [_arc(rng.uniform(15, 60), d, kind), _El(rng.uniform(30, 140), kind=kind)]
        return out[:-1]
    if kind == "double":  # a double-apex corner
        R = rng.uniform(30, 70)
        return [_arc(R, turn * 0.5, "bend"), _El(rng.uniform(15, 40), kind="bend"), _arc(R * 1.2, turn * 0.5, "bend")]
    if kind == "fast":
        return [_arc(rng.uniform(200, 450), turn, kind)]
    return [_arc(rng.uniform(35, 120) if a > 60 else rng.uniform(60, 200), turn, "bend")]


def _side(rng, length: float, kind: str) -> list[_El]:
    """A side of the layout: a straight, or a section with no net turn in its middle (chicane, street jog,
    esses, twisty infield), straights either side."""
    if kind == "straight":
        return [_El(length, adjustable=True)]
    if kind == "chicane":
        d = rng.uniform(25, 60) * rng.choice([-1, 1])
        mid = [
            _arc(rng.uniform(15, 40), d, kind),
            _El(rng.uniform(0, 20), kind=kind),
            _arc(rng.uniform(15, 40), -d, kind),
        ]
    elif kind == "street":  # a jog round a block: left, right (or right, left), each a 90° corner
        d = 90.0 * rng.choice([-1, 1])
        mid = [
            _arc(rng.uniform(12, 25), d, kind),
            _El(rng.uniform(60, 140), kind=kind),
            _arc(rng.uniform(12, 25), -d, kind),
        ]
    elif kind == "esses":
        mid = _complex(rng, 0.0, "esses")
    else:  # infield
        mid = _complex(rng, 0.0, "infield")
    used = sum(e.length for e in mid)
    rest = max(length - used, 160.0)
    f = rng.uniform(0.3, 0.7)
    return [_El(rest * f, adjustable=True), *mid, _El(rest * (1 - f), adjustable=True)]


def _layout(rng, eight: bool) -> tuple[np.ndarray, int | None]:
    """The polygon the circuit follows (metres, anticlockwise), and the index of its spiked vertex (a hairpin)."""
    if eight:  # a figure-eight: two lobes either side of a crossing
        n = int(rng.integers(3, 5))
        t = np.sort(rng.uniform(0, 2 * math.pi, 2 * n) % (2 * math.pi))
        t = np.linspace(0, 2 * math.pi, 2 * n, endpoint=False) + rng.uniform(-0.15, 0.15, 2 * n)
        a, b = rng.uniform(700, 1100), rng.uniform(350, 650)
        V = np.column_stack((a * np.sin(t), b * np.sin(t) * np.cos(t) * 2.2))
        V *= rng.uniform(0.85, 1.15, (len(V), 1))
        return V, None
    n = int(rng.integers(6, 11))
    t = np.sort(rng.uniform(0, 2 * math.pi, n))
    while np.min(np.diff(np.append(t, t[0] + 2 * math.pi))) < 0.3:  # keep the corners apart round the centre
        t = np.sort(rng.uniform(0, 2 * math.pi, n))
    r = rng.uniform(0.4, 1.0, n)
    spike = None
    if rng.random() < 0.7:  # a spike: a long finger with a hairpin at its tip
        spike = int(rng.integers(n))
        r[spike] = rng.uniform(1.8, 2.6)
        r[(spike - 1) % n] = min(r[(spike - 1) % n], 0.7)
        r[(spike + 1) % n] = min(r[(spike + 1) % n], 0.7)
    stretch = rng.uniform(1.0, 1.8)  # circuits are longer than wide
    V = np.column_stack((np.cos(t) * stretch, np.sin(t))) * 600.0 * r[:, None]
    return V, spike


def _integrate(els: list[_El], x0=(0.0, 0.0), th0: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The line of the elements every STEP_M, the curvature eased (a ~20 m moving average: clothoid-like entries
    and exits, never below half the arc's own radius). Returns (xy, s, element index of each point)."""
    k = np.concatenate([np.full(max(1, round(e.length / STEP_M)), e.k) for e in els])
    idx = np.concatenate([np.full(max(1, round(e.length / STEP_M)), i) for i, e in enumerate(els)])
    w = int(8 / STEP_M)
    ker = np.ones(2 * w + 1) / (2 * w + 1)
    k = np.convolve(np.concatenate((k[-w:], k, k[:w])), ker, mode="valid")
    th = th0 + np.concatenate(([0.0], np.cumsum(k[:-1]))) * STEP_M
    xy = np.asarray(x0) + np.column_stack((np.cos(th), np.sin(th))).cumsum(axis=0) * STEP_M
    xy = np.vstack((np.asarray(x0)[None, :], xy[:-1]))
    return xy, np.arange(len(xy)) * STEP_M, idx


def _close(els: list[_El]) -> bool:
    """Correct the adjustable straights' lengths (least squares, each in proportion to its length) so the line
    closes; False when that would leave a straight shorter than 60 m (or a third of what it was)."""
    xy, _, idx = _integrate(els)
    gap = xy[0] - (2 * xy[-1] - xy[-2])
    adj = [i for i, e in enumerate(els) if e.adjustable]
    if len(adj) < 2:
        return False
    th = np.arctan2(*np.diff(xy, axis=0).T[::-1])
    dirs = []
    for i in adj:
        j = int(np.flatnonzero(idx == i)[len(np.flatnonzero(idx == i)) // 2])
        j = min(j, len(th) - 1)
        dirs.append((math.cos(th[j]), math.sin(th[j])))
    U = np.array(dirs).T  # 2 × m
    W = np.diag([els[i].length ** 2 for i in adj])
    M = U @ W @ U.T
    if abs(np.linalg.det(M)) < 1e-9:
        return False
    d = W @ U.T @ np.linalg.solve(M, gap)
    for i, dd in zip(adj, d, strict=True):
        new = els[i].length + dd
        if new < max(60.0, els[i].length / 3):
            return False
        els[i].length = new
    return True


def _crossings(xy: np.ndarray) -> list[float]:
    """Angles (degrees) at which the closed line crosses itself."""
    import shapely

    C = np.vstack((xy, xy[:1]))[::4]
    segs = shapely.linestrings(np.stack((C[:-1], C[1:]), axis=1))
    a, b = shapely.STRtree(segs).query(segs, predicate="intersects")
    keep = (b > a + 1) & ~((a == 0) & (b == len(segs) - 1))
    out = []
    for i, j in zip(a[keep], b[keep], strict=True):
        u, v = C[i + 1] - C[i], C[j + 1] - C[j]
        out.append(math.degrees(math.acos(min(1.0, abs(u @ v) / (np.hypot(*u) * np.hypot(*v) + 1e-12)))))
    return out


def _separated(xy: np.ndarray, need: float, crossing_reach: float = 0.0) -> bool:
    """No two parts of the closed line (further than 3 × ``need`` apart along it) closer than ``need``, except
    within ``crossing_reach`` of where it crosses itself."""
    import shapely

    P = xy[::4]
    n = len(P)
    step = 4 * STEP_M
    a, b = shapely.STRtree(shapely.points(P)).query(shapely.points(P), predicate="dwithin", distance=need)
    ds = np.abs(a - b) * step
    far = np.minimum(ds, n * step - ds) > 3 * need
    if not far.any():
        return True
    if not crossing_reach:
        return False
    # at a crossing the two passes come close on purpose: allow pairs near a point where the line crosses
    C = np.vstack((P, P[:1]))
    segs = shapely.linestrings(np.stack((C[:-1], C[1:]), axis=1))
    i, j = shapely.STRtree(segs).query(segs, predicate="intersects")
    keep = (j > i + 1) & ~((i == 0) & (j == n - 1))
    pts = [P[k] for k in i[keep]]
    if not pts:
        return False
    d = np.min([np.hypot(*(P[a[far]] - p).T) for p in pts], axis=0)
    return bool((d < crossing_reach).all())


SIDE_KINDS = ("straight", "straight", "chicane", "street", "esses", "infield", "infield")
CORNER_KINDS = ("bend", "bend", "fast", "street", "double", "esses", "infield", "infield")


def realistic(seed: int, *, eight: bool | None = None, traced: bool | None = None, tries: int = 400) -> Synthetic:
    """A realistic circuit (see the module docstring) for ``seed``: about one in eight a figure-eight, one in four
    traced off a map, unless ``eight`` / ``traced`` say. Deterministic."""
    rng0 = np.random.default_rng(seed)
    if eight is None:
        eight = rng0.random() < 0.125
    if traced is None:
        traced = rng0.random() < 0.25
    for sub in range(tries):
        rng = np.random.default_rng([seed, sub])
        made = _attempt(rng, eight)
        if made is not None:
            return _finish(rng, f"synthetic {seed}", *made, traced)
    raise RuntimeError(f"no circuit for seed {seed} in {tries} tries")


def _attempt(rng, eight: bool):
    V, spike = _layout(rng, eight)
    n = len(V)
    E = np.roll(V, -1, axis=0) - V
    heading = np.arctan2(E[:, 1], E[:, 0])
    turn = np.degrees(np.angle(np.exp(1j * (heading - np.roll(heading, 1)))))  # at vertex i, into side i
    lengths = np.hypot(*E.T)
    main = int(np.argmax(lengths))  # the longest side is the main straight
    els: list[_El] = []
    groups: list[str] = []
    for i in range(n):
        if abs(turn[i]) > 1.0:
            if i == spike or abs(turn[i]) > 150:
                kind = "hairpin"
            elif 75 <= abs(turn[i]) <= 105 and rng.random() < 0.5:
                kind = "street"
            else:
                kind = str(rng.choice(CORNER_KINDS))
                if kind == "fast" and abs(turn[i]) > 70:
                    kind = "bend"
            cx = _complex(rng, float(turn[i]), kind)
            groups.append(kind)
            for e in cx:
                e.group = len(groups) - 1
            els += cx
        kind = "straight" if i == main else str(rng.choice(SIDE_KINDS))
        side = _side(rng, lengths[i] * 0.8, kind)
        groups.append(kind if kind != "straight" else "straight")
        for e in side:
            e.group = len(groups) - 1
        els += side
    total = sum(e.length for e in els)
    target = rng.uniform(3000, 7000)
    for e in els:
        if e.adjustable:
            e.length *= max(0.4, 1 + (target - total) / sum(x.length for x in els if x.adjustable))
    if not _close(els):
        return None
    xy, s, idx = _integrate(els, th0=float(heading[-1]) if False else 0.0)
    lap = len(xy) * STEP_M
    if not 3000 <= lap <= 7000:
        return None
    cr = _crossings(xy)
    if eight:
        if len(cr) != 1 or cr[0] < 45:
            return None
    elif cr:
        return None
    if not _separated(xy, SEPARATION_M, crossing_reach=250.0 if eight else 0.0):
        return None
    # the start line: on the main straight, mostly well along it (the grid behind), now and then near its start
    main_idx = [i for i, e in enumerate(els) if e.adjustable and e.group == groups.index("straight", 0)]
    longest = max(
        (i for i, e in enumerate(els) if e.kind == "straight" and e.group >= 0 and groups[e.group] == "straight"),
        key=lambda i: els[i].length,
    )
    del main_idx
    pts = np.flatnonzero(idx == longest)
    f = rng.uniform(0.55, 0.9) if rng.random() < 0.75 else rng.uniform(0.1, 0.3)
    i0 = int(pts[0] + f * (len(pts) - 1))
    return els, groups, xy, idx, i0, len(cr)


def _finish(rng, name, els, groups, xy, idx, i0, crossings, traced) -> Synthetic:
    """The circuit rolled to start at its start line, its features located, sampled as a CSV gives it."""
    m = len(xy)
    xy = np.roll(xy, -i0, axis=0)
    idx = np.roll(idx, -i0)
    np.arange(m) * STEP_M
    lap = m * STEP_M
    # features: runs of points of one element kind / group (a straight: consecutive straight elements of no
    # section, i.e. k = 0 and not inside a corner complex)
    feats: list[Feature] = []
    kind_of = np.array([("straight" if (els[i].k == 0 and els[i].adjustable) else els[i].kind) for i in idx])
    grp = np.array([els[i].group for i in idx])
    th = np.unwrap(np.arctan2(*np.diff(np.vstack((xy, xy[:1])), axis=0).T[::-1]))
    change = np.flatnonzero((kind_of != np.roll(kind_of, 1)) | (grp != np.roll(grp, 1)))
    if len(change) == 0:
        change = np.array([0])
    for a, b in zip(change, np.append(change[1:], change[0] + m), strict=True):
        ii = np.arange(a, b) % m
        turn = math.degrees(th[ii[-1]] - th[ii[0]]) if len(ii) > 1 else 0.0
        feats.append(Feature(str(kind_of[a]), float(a * STEP_M), float(b * STEP_M), turn))
    # the true straights are eased into by the curvature's moving average: trim 8 m off each end
    for f in feats:
        if f.kind == "straight":
            f.s0, f.s1 = f.s0 + 8.0, f.s1 - 8.0
    behind = next((lap - f.s0 for f in feats if f.kind == "straight" and f.s1 > lap), 0.0)
    if traced:
        gap = rng.uniform(20, 50)
        cum, P, noise = 0.0, [], rng.uniform(0.8, 2.0)
        while cum < lap - gap / 2:
            j = int(cum / STEP_M) % m
            P.append(xy[j] + rng.normal(0, noise, 2))
            cum += gap * rng.uniform(0.6, 1.4)
        pts = np.array(P)
    else:
        spacing = rng.uniform(4.6, 5.2)
        t = np.arange(0, lap, spacing) / STEP_M
        t = t + rng.uniform(-0.1, 0.1, len(t)) * spacing / STEP_M
        t[0] = 0.0
        x = np.interp(t, np.arange(m + 1), np.append(xy[:, 0], xy[0, 0]))
        y = np.interp(t, np.arange(m + 1), np.append(xy[:, 1], xy[0, 1]))
        pts = np.column_stack((x, y)) + rng.normal(0, rng.uniform(0.03, 0.25), (len(t), 2))
        base = rng.uniform(4.5, 7.5)
        wave = np.sin(np.linspace(0, 2 * math.pi * rng.integers(2, 6), len(t)) + rng.uniform(0, 6)) * 0.6
        pts = np.column_stack((pts, base + wave, base + 0.1 - wave))
    # a real place on the map: shift and turn it
    ang = rng.uniform(0, 2 * math.pi)
    R = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    off = rng.uniform(-2000, 2000, 2)
    pts[:, :2] = pts[:, :2] @ R.T + off
    true = xy @ R.T + off
    return Synthetic(name, pts, true, lap, feats, crossings, behind, traced)


def generated_set(n: int, first: int = 0, **kw) -> list[Synthetic]:
    """``n`` realistic circuits, seeds ``first`` … ``first + n − 1``."""
    return [realistic(seed, **kw) for seed in range(first, first + n)]


# ---------------------------------------------------------------------------------------------- older loops


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


# ---------------------------------------------------------------------------------------------- measuring a board


def board_s_of(circuit, real_page: np.ndarray, u: np.ndarray, window: float = 0.12) -> np.ndarray:
    """For points of the real line (``real_page``: on the page, closed, from the CSV's first point) at arc lengths
    ``u``, the arc length of the nearest point of the board's centre line, looked for within ``window`` of the lap
    of where it would be in proportion (so the other pass of a crossing, or a parallel stretch, is never taken)."""
    from generator.track.centerline import arc_lengths

    ur = arc_lengths(real_page)
    Lr = float(ur[-1])
    line = circuit.line
    Lb = line.length
    # where the real line's start is on the board (the start line may have moved)
    d0 = np.hypot(*(line.xy[:-1] - real_page[0]).T)
    near0 = float(line.s[int(np.argmin(d0))])
    Q = np.vstack((real_page, real_page[:1]))
    u = np.mod(np.asarray(u, dtype=float), Lr)
    pts = np.column_stack((np.interp(u, ur, Q[:, 0]), np.interp(u, ur, Q[:, 1])))
    xy, s = line.xy[:-1], line.s[:-1]
    out = np.empty(len(u))
    for k, (p, uu) in enumerate(zip(pts, u, strict=True)):
        expect = (near0 + uu * Lb / Lr) % Lb
        ds = np.abs(s - expect)
        ok = np.minimum(ds, Lb - ds) < window * Lb
        j = np.flatnonzero(ok)[np.argmin(np.hypot(*(xy[ok] - p).T))]
        out[k] = s[j]
    return out


def board_bend(circuit, real_page: np.ndarray, u0: float, u1: float) -> float:
    """Degrees the board's heading ranges over the stretch that is the real line's ``u0``–``u1`` (arc lengths,
    page mm): found by its middle's nearest point on the board and its length (in the proportion of the two laps),
    so a bulge at one end of the stretch counts and a stray nearest point does not."""
    from generator.track.centerline import arc_lengths
    from generator.track.straights import heading_range

    Lr = float(arc_lengths(real_page)[-1])
    line = circuit.line
    (mid,) = board_s_of(circuit, real_page, np.array([(u0 + u1) / 2]))
    half = (u1 - u0) / 2 * line.length / Lr
    return heading_range(line, (mid - half) % line.length, (mid + half) % line.length)


def measure(done, P: np.ndarray, best: bool = False) -> dict:
    """What a built board (an :class:`~generator.track.Analysis` of a CSV) keeps of its real line ``P`` (x east, y
    north): its deviation, each straight of the data (:func:`generator.track.straights.data_straights`) with its
    heading range on the board (over the part of it the board keeps straight, :func:`~generator.track.straights.
    held_parts`: less the room the bends at its ends need at the board's least radius), and how far the board's
    start line is from the real one (units)."""
    from generator.track.adapt import to_page
    from generator.track.straights import data_straights, held_parts

    c = done.circuit
    out = {"buildable": done.buildable, "paper": None, "max_pct": None, "mean_pct": None, "straights": []}
    if c is None or c.source_to_page is None:
        return out
    sc, rot, shift = c.source_to_page
    real = to_page(P, sc, rot, shift)
    out["paper"] = c.paper.label
    out["max_pct"] = c.fidelity.max_pct
    out["mean_pct"] = c.fidelity.mean_pct
    unit = c.unit
    min_r = c.half_width + 10.0
    for st in data_straights(real, unit):
        for a, b in held_parts(real, [st], unit, min_r):
            out["straights"].append((st.length / unit, st.range_deg, board_bend(c, real, a, b)))
    d = np.hypot(*(c.line.xy[0] - real[0]))
    out["start_off_units"] = float(d / unit)
    if best:  # the best-fit deviation (a search: ~0.5 s)
        out["best_pct"] = best_fit_pct(c.line.xy[:-1], real)
    return out


def best_fit_pct(board: np.ndarray, real: np.ndarray) -> float:
    """The best-fit deviation: the Hausdorff distance (as :func:`generator.track.fidelity.measure` measures it) of
    the board's line from the real line moved, turned and scaled to lie as close to it as it can (a similarity
    transform, searched from the board's own placement with Nelder–Mead over points 0.5 mm apart), as a % of the
    board's diagonal. The board's placement (its legend's figure) is one such transform, so this is never more than
    that figure."""
    from scipy.optimize import minimize
    from scipy.spatial import cKDTree

    from generator.track.fidelity import measure as fidelity
    from generator.track.fidelity import resample

    B = resample(board, 0.5)
    near_b = cKDTree(B)
    centre = real.mean(axis=0)
    q = resample(real, 0.5) - centre

    def moved(z, pts):
        s, a = math.exp(z[0]), z[1]
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return pts @ rot.T * s + centre + z[2:]

    def cost(z):
        Q = moved(z, q)
        return max(near_b.query(Q)[0].max(), cKDTree(Q).query(B)[0].max())

    first = np.zeros(4)
    opts = {"xatol": 1e-3, "fatol": 0.02, "maxfev": 300, "initial_simplex": _simplex()}
    res = minimize(cost, first, method="Nelder-Mead", options=opts)
    exact = [fidelity(board, moved(z, real - centre), step=0.5)[0].max_pct for z in (first, res.x)]
    return float(min(exact))


def _simplex() -> np.ndarray:
    """The search's first steps: 2 % in scale, 1.5° of turn, 5 mm each way."""
    base = np.zeros((5, 4))
    for i, d in enumerate((0.02, math.radians(1.5), 5.0, 5.0)):
        base[i + 1, i] = d
    return base


def drawn(parts, spacing_m: float = 5.0) -> tuple[np.ndarray, list[float]]:
    """A hand-made circuit: ``parts`` in the race direction, each ``("S", metres)`` for a straight (closing the lap:
    the straights' lengths are corrected to close it) or ``("S=", metres)`` for one kept as given, or
    ``(degrees, radius_m)`` for a bend (left positive). Returns its points every ``spacing_m`` from the first part
    (x east, y north) and the distance along the lap of each part's middle (metres)."""
    els = []
    for p in parts:
        if p[0] in ("S", "S="):
            els.append(_El(float(p[1]), adjustable=p[0] == "S"))
        else:
            els.append(_arc(float(p[1]), float(p[0]), "bend"))
    if not _close(els):
        raise ValueError("the parts do not close into a lap")
    xy, s, idx = _integrate(els)
    middles = []
    for i in range(len(els)):
        at = s[idx == i]
        middles.append(float(at[len(at) // 2]))
    lap = len(xy) * STEP_M
    keep = np.arange(0, lap, spacing_m) / STEP_M
    return xy[np.round(keep).astype(int) % len(xy)], middles
