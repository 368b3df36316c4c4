"""The Gauss–Newton fit of a board's centre line to a real one (see :mod:`.adapt` for the method and why): the board
as ``N`` corners ``h`` mm apart, each turning by ``δ_k``, moved step by step towards the real line, each step one
small QP (:mod:`.qp`) with the board's rules (:class:`~generator.track.rules.Rules`) as its constraints.
"""

from __future__ import annotations

import contextlib
import math
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from .centerline import arc_lengths, resample_loop
from .qp import solve_qp
from .rules import Rules

#: Margins the fit keeps beyond the rules, so the checks on the final 1 mm line pass.
RADIUS_MARGIN = 1.005  # a radius this much larger than the minimum
CLEAR_MARGIN = (0.5, 0.1)  # mm + × h beyond the clearance: the fit keeps corners (h apart) clear, the drawn line
#                            runs between them and rounds them off inside, up to ~0.07 h at the tightest bend
#: The fitted lap closes to within this (mm).
CLOSE_TOL = 0.05


class Work:
    """What an adaptation may spend, counted (never timed: the same input gives the same board on any machine) in
    the size of the linear systems it solves: ``n² (n + m)`` for each iteration of each QP of ``n`` unknowns and
    ``m`` rows. A fit stops where it stands once it is spent; :func:`generator.track.adapt.adapt` then tries
    nothing more. ``within``: a larger budget every spending here counts against too (all the adaptations of one
    analysis, :func:`run_budget`); the work is spent when either is."""

    def __init__(self, limit: float, within: Work | None = None) -> None:
        self.limit = float(limit)
        self.spent = 0.0
        self.within = within

    def spend(self, n: int, m: int) -> None:
        cost = float(n) * n * (n + m)
        self.spent += cost
        if self.within is not None:
            self.within.spent += cost

    @property
    def out(self) -> bool:
        return self.spent >= self.limit or (self.within is not None and self.within.out)

    @property
    def binding(self) -> Work:
        """The budget that is spent (this one, or the one it is within), to say which limit was met."""
        return self if self.spent >= self.limit or self.within is None else self.within


_RUN: ContextVar[Work | None] = ContextVar("paddock_run_work", default=None)


@contextlib.contextmanager
def run_budget(limit: float):
    """Every adaptation made inside (one analysis of a circuit: the papers, start lines and fixes it tries) also
    spends from one budget of ``limit``; inside another run's, from that one."""
    if _RUN.get() is not None:
        yield
        return
    token = _RUN.set(Work(limit))
    try:
        yield
    finally:
        _RUN.reset(token)


def run_work() -> Work | None:
    """The budget of the analysis being made, if any (:func:`run_budget`)."""
    return _RUN.get()


@dataclass
class FitState:
    """Where the fit ended: the corners, and which rules bind at each."""

    X: np.ndarray  # (N, 2) board corners
    sigma: np.ndarray  # (N,) each corner's nearest point on the dense real line (sample index, fractional)
    curv: np.ndarray  # (N,) bool: the radius rule binds at the corner
    push: np.ndarray  # (N,) bool: the clearance rule (nearly) binds
    paper: np.ndarray  # (N,) bool: the paper rule (nearly) binds
    partner: np.ndarray  # (N,) int: the corner it is kept apart from (-1: none)
    iterations: int
    gap: float = 0.0  # mm the lap failed to close by (spread over the corners)


class Fit:
    """The board as N corners h apart turning by δ_k, fitted to the real line (see the module docstring).

    Unknowns z = (δ_0 … δ_{N−1}, θ_0, x_0, y_0, h): corner i+1 is corner i plus h along heading θ_i, and
    θ_{i+1} = θ_i + δ_i; δ_{N−1} is the turn at corner 0 that closes the headings."""

    W_NORMAL = 1.0  # a corner's distance across the real line
    W_ALONG = 0.2  # and along it (keeps the corners where they belong on the lap)
    W_COVER = 1.5  # a real-line sample's distance to the board (no loop of the real line cut off)
    W_RULE = 30.0  # price per mm of a clearance or paper rule broken at the start of a step
    W_STRAIGHT = 400.0
    STRAIGHT_FROM = 0  # price (mm per radian) of a turn of the board where the real line runs straight
    WINDOW = 2.0  # × h: how far along the real line a corner's nearest point is looked for
    MAX_TURN_STEP = 0.5  # rad: the most one step may change a corner's turn (a trust region)
    MAX_H_STEP = 0.02  # and the spacing, as a fraction
    H_RANGE = (0.8, 1.1)  # the spacing stays within these fractions of the real line's: the board is not rescaled

    def __init__(
        self,
        R: np.ndarray,
        rules: Rules,
        box,
        h: float,
        exempt,
        winding: int,
        straights=(),
        work=None,
        w_straight: float | None = None,
    ):
        self.R = R
        self.work = work if work is not None else Work(math.inf)
        self.M = len(R)
        self.uR = arc_lengths(R)
        seg = np.roll(R, -1, axis=0) - R
        self.Rt = seg / np.maximum(np.hypot(seg[:, 0], seg[:, 1]), 1e-12)[:, None]
        self.rules = rules
        x0, y0, W, H = box
        self.lo = np.array([x0, y0]) + rules.margin
        self.hi = np.array([x0 + W, y0 + H]) - rules.margin
        L = self.uR[-1]
        self.N = N = max(24, round(L / h))
        self.exempt = exempt  # (u_a, u_b, reach) of each crossing of the real line, in its arc length
        self.winding = winding
        self.straights = np.array(straights, dtype=float).reshape(-1, 2)  # (u0, u1) of the real line's straights
        self.w_full = self.W_STRAIGHT if w_straight is None else w_straight
        self.w_straight = self.w_full
        X = resample_loop(R, N)
        E = np.roll(X, -1, axis=0) - X
        th = np.unwrap(np.arctan2(E[:, 1], E[:, 0]))
        close = th[0] + 2 * math.pi * winding - th[-1]
        self.z = np.concatenate((np.diff(th), [close, th[0], X[0, 0], X[0, 1], L / N]))
        self.h0 = L / N
        self.clearance = rules.clearance + CLEAR_MARGIN[0] + CLEAR_MARGIN[1] * self.h0
        self.sigma = np.arange(N) * self.M / N
        self.K = max(2, math.ceil(self.WINDOW * (L / N) / (L / self.M)))
        self.cover = np.arange(0, self.M, max(1, round(self.M / (2 * N))))  # real-line samples ~h/2 apart
        self.iterations = 0
        # the corners on a straight of the real line are held straight: those that start there, by their place
        # round the board (a corner's nearest point on the real line may slide off the straight as the board
        # changes round it — a bulge would then escape being held), and those whose nearest point is there now
        self.held = self.on_straight(self.sigma)

    # --- the corners and how they move
    def corners(self, z=None) -> np.ndarray:
        """Corners X_0 … X_N (X_N = X_0 when the lap closes)."""
        z = self.z if z is None else z
        N = self.N
        th = z[N] + np.concatenate(([0.0], np.cumsum(z[: N - 1])))
        steps = z[N + 3] * np.column_stack((np.cos(th), np.sin(th)))
        return np.vstack((z[N + 1 : N + 3], z[N + 1 : N + 3] + np.cumsum(steps, axis=0)))

    def jacobian(self, X: np.ndarray) -> np.ndarray:
        """dX_i/dz, shape (N+1, 2, N+4): turning corner k+1 by dδ_k swings the rest of the lap about it."""
        N = self.N
        D = (X[:, None, :] - X[None, 1:, :]) * (np.arange(N + 1)[:, None] >= np.arange(1, N + 1)[None, :])[..., None]
        J = np.zeros((N + 1, 2, N + 4))
        J[:, 0, :N] = -D[..., 1]
        J[:, 1, :N] = D[..., 0]
        J[:, 0, N] = -(X[:, 1] - X[0, 1])
        J[:, 1, N] = X[:, 0] - X[0, 0]
        J[:, 0, N + 1] = 1.0
        J[:, 1, N + 2] = 1.0
        J[:, :, N + 3] = (X - X[0]) / self.z[N + 3]
        return J

    # --- the real line
    def nearest(self, X: np.ndarray, K: int, sigma=None):
        """Each corner's nearest point on the real line, looked for within K samples of ``sigma`` (its last), the
        real line's direction there, and the new positions (sample index, fractional)."""
        R, M = self.R, self.M
        base = np.round(self.sigma if sigma is None else sigma).astype(int)
        idx = (base[:, None] + np.arange(-K, K + 1)[None, :]) % M
        A = R[idx]
        AB = R[(idx + 1) % M] - A
        AX = X[:, None, :] - A
        t = np.einsum("nkd,nkd->nk", AX, AB) / np.maximum(np.einsum("nkd,nkd->nk", AB, AB), 1e-18)
        t = np.clip(t, 0.0, 1.0)
        D = AX - AB * t[..., None]
        j = np.argmin(np.einsum("nkd,nkd->nk", D, D), axis=1)
        r = np.arange(len(X))
        return A[r, j] + AB[r, j] * t[r, j, None], self.Rt[idx[r, j]], np.mod(base - K + j + t[r, j], M)

    def covering(self, X: np.ndarray, sigma: np.ndarray):
        """Real-line samples ~h/2 apart and the corner nearest each (looked for among the corners whose own
        nearest points are round it)."""
        N = len(X)
        order = np.roll(np.arange(N), -int(np.argmin(sigma)))
        pos = np.searchsorted(np.maximum.accumulate(sigma[order]), self.cover)
        cand = order[(pos[:, None] + np.arange(-3, 4)[None, :]) % N]
        Rk = self.R[self.cover]
        d = ((X[cand] - Rk[:, None, :]) ** 2).sum(-1)
        return Rk, cand[np.arange(len(Rk)), np.argmin(d, axis=1)]

    def real_u(self) -> np.ndarray:
        """Arc length along the real line of each corner's nearest point."""
        return np.interp(self.sigma, np.arange(self.M + 1), self.uR)

    def pairs(self, X: np.ndarray, reach: float):
        """Corner pairs (i < j) closer than ``reach`` that are different parts of the track. Closer than
        ``chord_bound`` along the lap, two points of a line whose radius is never under R_min are at least the
        chord 2R sin(s/2R) apart (Schur's comparison theorem): nothing to ask of them. Pairs either side of a
        crossing of the real line are exempt."""
        N = len(X)
        D2 = (X[:, None, 0] - X[None, :, 0]) ** 2 + (X[:, None, 1] - X[None, :, 1]) ** 2
        i, j = np.nonzero(np.triu(reach * reach > D2, 1))
        di = np.minimum(j - i, N - (j - i)) * self.z[N + 3]
        far = di > max(self.rules.chord_bound, self.rules.same_part)
        i, j = i[far], j[far]
        if self.exempt and len(i):
            L = self.uR[-1]
            su = self.real_u()

            def near(s, u, r):
                d = np.abs(s - u)
                return np.minimum(d, L - d) < r

            for ua, ub, r in self.exempt:
                cross = (near(su[i], ua, r) & near(su[j], ub, r)) | (near(su[i], ub, r) & near(su[j], ua, r))
                i, j = i[~cross], j[~cross]
        return i, j

    @staticmethod
    def _nearest_pairs(Xc: np.ndarray, pairs):
        """Of the close pairs, each corner's nearest partner on its left and on its right (one constraint row
        each: the others are implied to first order), without repeats."""
        i, j = pairs
        if not len(i):
            return i, j
        a = np.concatenate((i, j))
        b = np.concatenate((j, i))
        t = np.roll(Xc, -1, axis=0)[a] - np.roll(Xc, 1, axis=0)[a]
        v = Xc[b] - Xc[a]
        side = (t[:, 0] * v[:, 1] - t[:, 1] * v[:, 0]) > 0
        d = np.hypot(v[:, 0], v[:, 1])
        order = np.lexsort((d, side, a))
        a, b, side = a[order], b[order], side[order]
        first = np.concatenate(([True], (a[1:] != a[:-1]) | (side[1:] != side[:-1])))
        a, b = a[first], b[first]
        key = np.sort(np.minimum(a, b) * len(Xc) + np.maximum(a, b))
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]  # np.unique, without importing numpy.ma
        return key // len(Xc), key % len(Xc)

    # --- Gauss–Newton
    def residuals(self, z: np.ndarray, Xc: np.ndarray, sigma: np.ndarray, K: int):
        """The fit's residuals at corners Xc (of z): across and along the real line, and the real line's samples
        to the board. Also what the Jacobian rows need, and the corners' new nearest points."""
        F, T, sig = self.nearest(Xc, K, sigma)
        Nn = np.column_stack((-T[:, 1], T[:, 0]))
        diff = Xc - F
        Rk, near = self.covering(Xc, sig)
        tb = np.roll(Xc, -1, axis=0)[near] - np.roll(Xc, 1, axis=0)[near]
        nb = np.column_stack((-tb[:, 1], tb[:, 0])) / np.maximum(np.hypot(*tb.T), 1e-12)[:, None]
        flat = (self.held >= 0) | (self.on_straight(sig) >= 0)
        r = np.concatenate(
            (
                self.W_NORMAL * (Nn * diff).sum(1),
                self.W_ALONG * (T * diff).sum(1),
                self.W_COVER * (nb * (Xc[near] - Rk)).sum(1),
                self.w_straight * z[: self.N][flat],
            )
        )
        return r, (Nn, T, near, nb, flat), sig

    def on_straight(self, sig: np.ndarray) -> np.ndarray:
        """The straight of the real line each turn δ_k (at corner k+1) lies on (-1: none): where the board keeps
        straight. A straight takes every corner from the first whose nearest point on the real line lies on it to
        the last, by their order round the board: a corner beside it that has slid towards the next bend (a bulge)
        is still held."""
        N = self.N
        out = np.full(N, -1)
        if not len(self.straights):
            return out
        L = self.uR[-1]
        u = np.interp(np.roll(sig, -1), np.arange(self.M + 1), self.uR)
        for k, (a, b) in enumerate(self.straights):
            idx = np.flatnonzero((u - a) % L <= b - a)
            if not len(idx):
                continue
            gaps = np.diff(np.append(idx, idx[0] + N))
            g = int(np.argmax(gaps))  # the run is the lap less its largest gap
            first, span = idx[(g + 1) % len(idx)], N - int(gaps[g])
            if span + 1 > 2 * len(idx) + 2:
                continue  # the corners are scattered: not one stretch of the board
            out[(first + np.arange(span + 1)) % N] = k
        return out

    def merit(self, z: np.ndarray) -> float:
        """The fit plus a heavy price on each rule broken (the radius rule always holds: it bounds δ)."""
        N = self.N
        X = self.corners(z)
        Xc = X[:N]
        r, _, _ = self.residuals(z, Xc, self.sigma, self.K)
        C = self.clearance
        pi, pj = self.pairs(Xc, C)
        short = C - np.hypot(*(Xc[pi] - Xc[pj]).T)
        over = np.maximum(0, np.maximum(self.lo - Xc, Xc - self.hi))
        return (
            float(r @ r)
            + 100.0 * float(np.sum((X[N] - X[0]) ** 2))
            + self.W_RULE**2 * float(np.sum(short**2) + np.sum(over**2))
        )

    def linearise(self, K: int, ramp_c: float = np.inf):
        """The least-squares rows, the closure equalities and the clearance and paper inequalities, all to first
        order at the current z; and which corners the clearance and paper rules (nearly) bind."""
        N = self.N
        z = self.z
        h = z[N + 3]
        X = self.corners()
        Xc = X[:N]
        J = self.jacobian(X)
        for _settle in range(3):  # the corners' nearest points settled first: the rows are then those merit() sees
            _, _, sig = self.nearest(Xc, K, self.sigma)
            if np.abs(sig - self.sigma).max() < 0.5:
                break
            self.sigma = sig
        r, (Nn, T, near, nb, flat), self.sigma = self.residuals(z, Xc, self.sigma, K)
        Jr = np.vstack(
            (
                self.W_NORMAL * np.einsum("nd,ndk->nk", Nn, J[:N]),
                self.W_ALONG * np.einsum("nd,ndk->nk", T, J[:N]),
                self.W_COVER * np.einsum("nd,ndk->nk", nb, J[near]),
                self.w_straight * np.eye(N + 4)[np.flatnonzero(flat)],
            )
        )
        E = np.vstack((np.concatenate((np.ones(N), np.zeros(4)))[None, :], J[N] - J[0]))
        e = np.concatenate(([2 * math.pi * self.winding - z[:N].sum()], X[0] - X[N]))
        # The clearance and paper rules are constraints of the step. One broken now need only be mended by a
        # step's worth (ramp_c mm) this time, so that the step's constraints can all hold together.
        G_rows, g_rows = [np.zeros((0, N + 4))], [np.zeros(0)]
        C = self.clearance
        pi, pj = self._nearest_pairs(Xc, self.pairs(Xc, C + 2 * h))
        push = np.zeros(N, bool)
        partner = np.full(N, -1)
        if len(pi):
            u = Xc[pi] - Xc[pj]
            dist = np.hypot(u[:, 0], u[:, 1])
            u = u / np.maximum(dist, 1e-9)[:, None]
            G_rows.append(-np.einsum("nd,ndk->nk", u, J[pi] - J[pj]))  # new distance ≈ dist − row·dz
            g_rows.append(dist - np.minimum(C, dist + ramp_c))
            tight = dist < C + 0.25
            push[pi[tight]] = push[pj[tight]] = True
            partner[pi[tight]] = pj[tight]
            partner[pj[tight]] = pi[tight]
        for c in (0, 1):
            for sign, edge in ((1.0, self.hi[c]), (-1.0, self.lo[c])):
                room = sign * (edge - Xc[:, c])  # ≥ 0 on the paper
                near = room < 2 * h
                G_rows.append(sign * J[:N][near, c, :])
                g_rows.append(np.maximum(room[near], -ramp_c))
        paper = np.any((Xc < self.lo + 0.25) | (Xc > self.hi - 0.25), axis=1)
        return Jr, r, E, e, np.vstack(G_rows), np.concatenate(g_rows), (Xc, push, paper, partner)

    def solve(self, lin, dmax: float, mu: float, shrink: float | None = None) -> np.ndarray:
        """The step dz minimising |Jr dz + r|² + μ|dz|² (in unit-column scaling) with the rules to first order,
        |δ + dδ| ≤ dmax and |dδ| ≤ MAX_TURN_STEP; with ``shrink`` the spacing may shrink by at most that fraction."""
        N = self.N
        Jr, r, E, e, G, g, _ = lin
        n = N + 4
        D = 1.0 / np.sqrt(np.einsum("ij,ij->j", Jr, Jr) + 1e-9)
        lb = np.full(n, -np.inf)
        ub = np.full(n, np.inf)
        d = self.z[:N]
        # the trust region gives way where the bound itself asks for more (a real hairpin turning near 180°)
        down = np.maximum(self.MAX_TURN_STEP, d - dmax + 0.05)
        up = np.maximum(self.MAX_TURN_STEP, -dmax - d + 0.05)
        lb[:N] = np.maximum(-dmax - d, -down) / D[:N]
        ub[:N] = np.minimum(dmax - d, up) / D[:N]
        h = self.z[N + 3]
        lo_h = max(-(shrink if shrink is not None else self.MAX_H_STEP) * h, self.H_RANGE[0] * self.h0 - h)
        lb[N + 3] = min(lo_h, 0.0) / D[N + 3]
        ub[N + 3] = max(min(self.MAX_H_STEP * h, self.H_RANGE[1] * self.h0 - h), 0.0) / D[N + 3]
        Gs = G * D[None, :]
        nr = np.maximum(np.sqrt((Gs * Gs).sum(1)), 1e-12)
        Js = Jr * D[None, :]
        Ps = Js.T @ Js + mu * np.eye(n)
        qs = Js.T @ r
        Gs, g = Gs / nr[:, None], g / nr
        x, ok = solve_qp(Ps, qs, E * D[None, :], e, Gs, g, lb, ub, work=self.work)
        if not ok and len(g):
            # the rules that hold now cannot all keep holding (to first order): price them too for this step
            Gp, gp = self.W_RULE * Gs, self.W_RULE * np.minimum(g, 0.0)
            x, _ = solve_qp(Ps + Gp.T @ Gp, qs - Gp.T @ gp, E * D[None, :], e, Gs[:0], g[:0], lb, ub, work=self.work)
        return x * D

    def bound(self, f: float = 1.0) -> float:
        """The turning bound that is the radius rule at the current spacing (times f)."""
        return 2 * math.atan(f * self.z[self.N + 3] / (2 * self.rules.min_radius * RADIUS_MARGIN))

    def run(self, steps: int = 25, ramp: int = 4, tol: float = 0.3) -> FitState:
        """Gauss–Newton steps. The turning bound closes in from the real line's sharpest turn to the radius rule
        over the first ``ramp`` steps (a homotopy: each step changes the line a little, so its linearisation
        holds); then Levenberg–Marquardt steps, each kept only if it lowers the merit, until the corners move
        less than ``tol`` mm; then steps with the spacing held until the lap closes."""
        N = self.N
        start = max(float(np.abs(self.z[:N]).max()), self.bound())
        mu = 1e-3
        ramp_c = max(2 * self.h0, self.clearance / ramp)  # mm a broken rule mends per step
        for n in range(steps):
            if self.work.out:
                break
            f = min(1.0, (n + 1) / ramp)
            self.w_straight = self.w_full * min(1.0, (n + 1) / ramp)  # held a little more each step, to full
            dmax = math.exp(math.log(start) * (1 - f) + math.log(self.bound()) * f)
            lin = self.linearise(self.K, ramp_c)
            X0 = lin[-1][0]
            # the merit of where we stand, under this step's bound (clipped: the lap may then not close)
            before = self.merit(np.concatenate((np.clip(self.z[:N], -dmax, dmax), self.z[N:])))
            for _try in range(8):
                z = self.z + self.solve(lin, dmax, mu)
                z[:N] = np.clip(z[:N], -dmax, dmax)
                if self.merit(z) < before * (1 - 1e-9):  # a real gain, not floating-point noise
                    mu = max(mu / 3, 1e-6)
                    break
                mu *= 10
            else:
                if n >= ramp:
                    break  # no step lowers the merit: as good as it gets
                z = np.concatenate((np.clip(self.z[:N], -dmax, dmax), self.z[N:]))
            moved = float(np.abs(self.corners(z)[:N] - X0).max())
            self.z = z
            self.iterations += 1
            if n >= ramp:
                gain = (before - self.merit(z)) / max(before, 1e-9)
                if moved < tol or gain < 0.005:  # the lap is closed off below (polish)
                    break
        # polish until the lap closes, the spacing allowed to shrink by 0.1 % at most, the turns bounded for that:
        # the bound then stays exactly the radius rule whatever the step does
        shrink = 1e-3
        for _polish in range(6):
            if self.work.out:
                break
            lin = self.linearise(self.K, ramp_c)
            if float(np.hypot(*lin[3][1:])) < CLOSE_TOL / 5 and abs(lin[3][0]) < 1e-6:
                break
            target = self.bound(1 - shrink)
            self.z = self.z + self.solve(lin, target, mu, shrink)
            self.z[:N] = np.clip(self.z[:N], -target, target)
            self.iterations += 1
        X = self.corners()
        gap = float(np.hypot(*(X[0] - X[N])))
        Xc = X[:N] + (X[0] - X[N]) * (np.arange(N) / N)[:, None]  # spread the last hair of a gap
        _, _, self.sigma = self.nearest(Xc, self.K)
        _, push, paper, partner = self.linearise(2)[-1]
        curv = np.roll(np.abs(self.z[:N]) >= 0.98 * self.bound(), 1)  # δ_k turns corner k+1
        return FitState(Xc, self.sigma.copy(), curv, push, paper, partner, self.iterations, gap)
