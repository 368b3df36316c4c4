"""A small dense convex quadratic programme, solved by a primal-dual interior-point method — the step solver of
the shape-keeping fit (:mod:`.fit`): a few hundred unknowns, a few hundred rows, numpy only.

    minimise ½ xᵀPx + qᵀx   subject to   Ex = e,   Gx ≤ g,   lb ≤ x ≤ ub

``P`` is positive semi-definite (the fit's is definite: a Levenberg–Marquardt term). Tested against scipy's
solvers on random problems (``tests/test_qp.py``).
"""

from __future__ import annotations

import numpy as np


def solve_qp(P, q, E, e, G, g, lb, ub, tol=1e-6, iters=50, work=None) -> tuple[np.ndarray, bool]:
    """min ½ xᵀPx + qᵀx subject to Ex = e, Gx ≤ g and lb ≤ x ≤ ub (±inf: unbounded), by a dense primal-dual
    interior-point method with Mehrotra's predictor-corrector (Nocedal & Wright, Numerical Optimization, §16.6).
    Bounds are kept apart from G: they cost only a diagonal. Returns x and whether it converged (it does not
    when the constraints contradict each other). ``work`` (a :class:`~generator.track.fit.Work`) is charged
    each iteration's linear algebra."""
    n, k, mg = len(q), len(e), len(g)
    iu = np.flatnonzero(np.isfinite(ub))
    il = np.flatnonzero(np.isfinite(lb))
    # every inequality as a row a·x + s = b with slack s ≥ 0 and dual λ ≥ 0: G's rows, upper bounds, lower bounds
    m = mg + len(iu) + len(il)
    b = np.concatenate((g, ub[iu], -lb[il]))

    def rows(v):
        return np.concatenate((G @ v, v[iu], -v[il]))

    nu_, mu_ = mg + len(iu), m  # w's slices: G's rows [:mg], upper bounds [mg:nu_], lower bounds [nu_:]

    def rows_t(w):  # iu and il name each unknown once: plain indexed adds (np.add.at is ~10x slower)
        out = G.T @ w[:mg]
        out[iu] += w[mg:nu_]
        out[il] -= w[nu_:mu_]
        return out

    KKT = np.empty((n + k, n + k))  # [[H, Eᵀ], [E, −εI]]: only H changes from one iteration to the next
    KKT[:n, n:] = E.T
    KKT[n:, :n] = E
    KKT[n:, n:] = -1e-12 * np.eye(k)
    x, nu = np.zeros(n), np.zeros(k)
    sl = np.maximum(b - rows(x), 1.0)
    lam = np.ones(m)
    scale_q = 1 + np.abs(q).max()
    scale_b = 1 + (np.abs(b).max() if m else 0.0)
    scale_e = 1 + (np.abs(e).max() if k else 0.0)
    done = False
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # rows that contradict each other
        for _ in range(iters):
            if work is not None:  # an iteration: Gᵀ W G (n² rows) and two solves of the KKT system
                work.spend(n + k, mg)
            rd = P @ x + q + E.T @ nu + rows_t(lam)
            re = E @ x - e
            ri = rows(x) + sl - b
            mu = float(sl @ lam) / max(m, 1)
            if (
                np.abs(rd).max() < tol * scale_q
                and (k == 0 or np.abs(re).max() < tol * scale_e)
                and (m == 0 or (np.abs(ri).max() < tol * scale_b and mu < tol))
            ):
                done = True
                break
            w = lam / sl
            d = np.zeros(n)
            d[iu] += w[mg:nu_]
            d[il] += w[nu_:mu_]
            KKT[:n, :n] = P + (G.T * w[:mg]) @ G
            KKT.flat[: n * (n + k) : n + k + 1] += d  # H's diagonal
            if not np.all(np.isfinite(KKT)):
                break
            steps = []
            rc = -sl * lam  # predictor (affine) first, then Mehrotra's corrector
            for _pass in range(2):
                rhs = np.concatenate((-rd - rows_t((rc + lam * ri) / sl), -re))
                try:
                    sol = np.linalg.solve(KKT, rhs)
                except np.linalg.LinAlgError:  # a rule's rows repeat another's: any solution will do
                    sol = np.linalg.lstsq(KKT, rhs, rcond=None)[0]
                dx, dnu = sol[:n], sol[n:]
                ds = -ri - rows(dx)
                dl = (rc - lam * ds) / sl
                a = min(_longest(sl, ds), _longest(lam, dl))
                steps = (dx, dnu, ds, dl, a)
                mu_aff = float((sl + a * ds) @ (lam + a * dl)) / max(m, 1)
                rc = -sl * lam + min(1.0, mu_aff / max(mu, 1e-300)) ** 3 * mu - ds * dl
            dx, dnu, ds, dl, a = steps
            if not (np.all(np.isfinite(dx)) and np.all(np.isfinite(dl))):
                break
            a *= 0.99
            x += a * dx
            nu += a * dnu
            sl = np.maximum(sl + a * ds, 1e-14)
            lam = np.maximum(lam + a * dl, 1e-14)
    return x, done


def _longest(v: np.ndarray, dv: np.ndarray) -> float:
    """Largest step in [0, 1] keeping v + step·dv ≥ 0."""
    neg = dv < 0
    return min(1.0, float(np.min(-v[neg] / dv[neg]))) if neg.any() else 1.0
