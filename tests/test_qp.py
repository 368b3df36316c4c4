"""The fit's QP solver (generator/track/qp.py) against scipy's constrained solvers on random small convex QPs with
bounds, equalities and inequalities, and on hand-worked cases."""

from __future__ import annotations

import numpy as np
import pytest

from generator.track.qp import solve_qp


def _optimize():
    """scipy's solvers, imported by the tests that use them (~0.6 CPU-s: not at collection, in every worker)."""
    return pytest.importorskip("scipy.optimize")


def random_qp(seed: int):
    """A feasible convex QP of 2–9 unknowns: P definite (or semi-definite, with every unknown bounded), 0–2
    equalities, 0–6 inequalities, some bounds infinite; built round a point x0 that meets every constraint."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 10))
    A = rng.normal(size=(n, n))
    semi = seed % 4 == 3
    P = A @ A.T + 0.1 * np.eye(n)
    if semi:  # rank n - 1: bounded by its bounds
        A[:, -1] = 0.0
        P = A @ A.T
    q = rng.normal(size=n) * 3
    x0 = rng.normal(size=n)
    k = int(rng.integers(0, 3))
    E = rng.normal(size=(k, n))
    e = E @ x0
    m = int(rng.integers(0, 7))
    G = rng.normal(size=(m, n))
    g = G @ x0 + rng.uniform(0.0, 1.0, m)
    lb = x0 - rng.uniform(0.1, 2.0, n)
    ub = x0 + rng.uniform(0.1, 2.0, n)
    if not semi:
        lb[rng.random(n) < 0.3] = -np.inf
        ub[rng.random(n) < 0.3] = np.inf
    return P, q, E, e, G, g, lb, ub


def objective(P, q, x) -> float:
    return float(0.5 * x @ P @ x + q @ x)


def scipy_solution(P, q, E, e, G, g, lb, ub, method: str) -> np.ndarray:
    optimize = _optimize()
    n = len(q)
    cons = []
    if len(e):
        cons.append(optimize.LinearConstraint(E, e, e))
    if len(g):
        cons.append(optimize.LinearConstraint(G, -np.inf, g))
    x_start = np.clip(np.zeros(n), lb, ub)
    if method == "SLSQP":
        kw = {"tol": 1e-12, "options": {"maxiter": 2000}}
    else:
        kw = {"options": {"gtol": 1e-12, "xtol": 1e-14}}
    res = optimize.minimize(
        lambda x: objective(P, q, x),
        x_start,
        jac=lambda x: P @ x + q,
        hess=(lambda x: P) if method == "trust-constr" else None,
        bounds=optimize.Bounds(lb, ub),
        constraints=cons,
        method=method,
        **kw,
    )
    return res.x


def violation(E, e, G, g, lb, ub, x) -> float:
    parts = [0.0]
    if len(e):
        parts.append(float(np.abs(E @ x - e).max()))
    if len(g):
        parts.append(float(np.maximum(G @ x - g, 0).max()))
    parts += [float(np.maximum(lb - x, 0).max()), float(np.maximum(x - ub, 0).max())]
    return max(parts)


@pytest.mark.parametrize("seed", range(40))
def test_matches_scipy_on_random_convex_qps(seed):
    """The same minimum as scipy's active-set SLSQP (the same point, where P is definite), and never worse than its
    interior-point trust-constr (which stops a little short of the minimum now and then: up to 4e-6 here)."""
    P, q, E, e, G, g, lb, ub = qp = random_qp(seed)
    x, ok = solve_qp(*qp)
    assert ok
    assert violation(E, e, G, g, lb, ub, x) < 1e-6
    f = objective(P, q, x)
    ref = scipy_solution(*qp, "SLSQP")
    assert violation(E, e, G, g, lb, ub, ref) < 1e-6
    assert f == pytest.approx(objective(P, q, ref), rel=1e-6, abs=1e-6)
    if seed % 4 != 3:  # a definite P: one minimiser
        assert np.allclose(x, ref, atol=1e-4), (x, ref)
    ref = scipy_solution(*qp, "trust-constr")
    assert violation(E, e, G, g, lb, ub, ref) < 1e-6
    f_ref = objective(P, q, ref)
    assert f <= f_ref + 1e-6 * (1 + abs(f)) and f == pytest.approx(f_ref, rel=1e-4, abs=1e-4), (f, f_ref)


def test_hand_worked_equality():
    """min ½|x|² − x₁ − x₂ with x₁ + x₂ = 1: by symmetry x = (½, ½)."""
    x, ok = solve_qp(np.eye(2), -np.ones(2), np.ones((1, 2)), np.array([1.0]), np.zeros((0, 2)), np.zeros(0),
                     np.full(2, -np.inf), np.full(2, np.inf))  # fmt: skip
    assert ok and np.allclose(x, [0.5, 0.5], atol=1e-7)


def test_hand_worked_active_bound_and_row():
    """min ½(x₁ − 3)² + ½(x₂ + 2)² with x₁ ≤ 1 (a bound) and −x₂ ≤ 1 (a row): both bind, x = (1, −1)."""
    x, ok = solve_qp(np.eye(2), np.array([-3.0, 2.0]), np.zeros((0, 2)), np.zeros(0), np.array([[0.0, -1.0]]),
                     np.array([1.0]), np.full(2, -np.inf), np.array([1.0, np.inf]))  # fmt: skip
    assert ok and np.allclose(x, [1.0, -1.0], atol=1e-6)


def test_repeated_equality_rows_still_solve():
    """An equality given twice makes the KKT matrix singular: any solution of it will do."""
    E = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    x, ok = solve_qp(np.eye(3), np.zeros(3), E, np.array([2.0, 2.0]), np.zeros((0, 3)), np.zeros(0),
                     np.full(3, -np.inf), np.full(3, np.inf))  # fmt: skip
    assert np.allclose(x, [1.0, 1.0, 0.0], atol=1e-6)


def test_contradicting_constraints_do_not_converge():
    """x ≤ 0 and x ≥ 1 cannot both hold: the solver says so rather than returning an answer as if it were one."""
    G = np.array([[1.0], [-1.0]])
    _, ok = solve_qp(np.eye(1), np.zeros(1), np.zeros((0, 1)), np.zeros(0), G, np.array([0.0, -1.0]),
                     np.full(1, -np.inf), np.full(1, np.inf))  # fmt: skip
    assert not ok
