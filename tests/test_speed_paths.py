"""The shortcuts taken for speed give exactly what the plain way gives: a centre line parsed in one numpy pass,
Paddock's own YAML composed by libyaml, a one-command app, the cycle collector's thresholds."""

from __future__ import annotations

import importlib

import numpy as np
import pytest


def test_one_analysis_reads_its_centre_line_once(tmp_path, monkeypatch):
    """A bare centre line is built twice when its start moves for the grid (and again for each fix tried): the
    file is read once for all of them, and the result is the one a fresh read gives."""
    from generator import inputs
    from generator.track import check

    csv = tmp_path / "loop.csv"
    t = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    r = 300 + 60 * np.cos(3 * t)
    np.savetxt(csv, np.column_stack((r * np.cos(t), r * np.sin(t))), delimiter=",")
    reads = []
    real = inputs.open_regular
    monkeypatch.setattr(inputs, "open_regular", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    done = check(csv)
    assert any("start line moved" in str(c) for c in done.changes), done.changes  # two builds were made
    assert reads == [csv]


def _big_loop(n: int = 60_000) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack((np.cos(t) * 900.123456, np.sin(t) * 600.654321, np.full(n, 6.0), np.full(n, 6.0)))


@pytest.mark.parametrize(
    "variant", ["plain", "crlf", "semicolon-in-header", "non-ascii-comment", "header-row", "bad-value", "one-column"]
)
def test_a_centre_line_parsed_in_one_pass_is_what_the_line_reader_gives(variant, tmp_path):
    """A centre-line CSV is parsed by numpy in one pass where it can be; whatever the file holds, the points (or
    the error) are the ones the line-by-line reader gives."""
    from generator.errors import InputError

    load = importlib.import_module("generator.track.load")
    lines = [f"{x:.4f},{y:.4f},{a:g},{b:g}" for x, y, a, b in _big_loop()]
    head = "# x_m,y_m,w_tr_right_m,w_tr_left_m"
    if variant == "semicolon-in-header":
        head = "# x;y;right;left"
    elif variant == "non-ascii-comment":
        head = "# Circuit de Spa-Francorchamps — relevé"
    elif variant == "header-row":
        head = "x_m,y_m,w_tr_right_m,w_tr_left_m"
    elif variant == "bad-value":
        lines[30_000] = "12.5,abc,6,6"
    elif variant == "one-column":
        lines = [ln.split(",")[0] for ln in lines]
    text = "\n".join([head, *lines]) + "\n"
    if variant == "crlf":
        text = text.replace("\n", "\r\n")
    csv = tmp_path / "big.csv"
    csv.write_bytes(text.encode("utf-8"))

    def outcome(fn):
        try:
            return fn()
        except InputError as err:
            return str(err)

    from generator.track.centerline import read_csv

    got = outcome(lambda: load.read_points(csv))
    want = outcome(lambda: read_csv(csv))
    if isinstance(want, str):
        assert got == want
    else:
        assert isinstance(got, np.ndarray) and np.array_equal(got, want) and not got.flags.writeable


def test_a_board_is_measured_against_a_survey_grade_line_thinned_as_the_adaptation_thins_it():
    """Measuring a smoothed board against every point of a 300,000-point line took seconds; against the line
    thinned (as the adaptation thins it) the deviation is the same to the hundredth of a millimetre."""
    adapt = importlib.import_module("generator.track.adapt")
    fidelity = importlib.import_module("generator.track.fidelity")
    t = np.linspace(0, 2 * np.pi, 2000, endpoint=False)
    curve = np.column_stack((300 * np.cos(t), 200 * np.sin(t) + 15 * np.sin(7 * t)))
    real = fidelity.resample(curve, 0.13)  # evenly spaced, as a survey is: just dense enough to be thinned
    assert 8 * adapt.THIN < len(real) < 16 * adapt.THIN
    board = np.column_stack((303 * np.cos(t[::8]), 202 * np.sin(t[::8])))  # smoothed, a few mm off
    few = real[:: len(real) // 1000]
    assert adapt.thinned(few) is few  # a line of ordinary density is measured as it is
    thin = adapt.thinned(real)
    assert len(thin) < len(real) / 2
    full, _ = fidelity.measure(board, real)
    fast, _ = fidelity.measure(board, thin)
    assert abs(full.max_mm - fast.max_mm) < 0.01 and abs(full.mean_mm - fast.mean_mm) < 0.01


def test_nearest_points_of_a_survey_grade_line_are_argmins_own():
    """Formula D measures each corner of a real circuit on the real line near it: for a 300,000-point line the
    nearest point is found through a tree, and must be exactly the point np.argmin finds (ties: the lowest index)."""
    real = importlib.import_module("generator.track.centerline")
    rng = np.random.default_rng(3)
    P = rng.uniform(0, 100, (50_000, 2))
    P = np.vstack((P, P[:100]))  # repeated points: equally near, the first wins
    Q = np.vstack((rng.uniform(-5, 105, (60, 2)), P[[5, 50_010, 77]]))
    assert len(P) * len(Q) > 2_000_000  # the tree's way
    assert real.nearest_points(P, Q) == [int(np.argmin(np.hypot(*(P - q).T))) for q in Q]


def test_nearest_points_through_a_tree_in_source_coordinates_are_argmins_own():
    """Each corner pass of a real circuit's board searches the survey-grade line through one tree made in the
    line's own coordinates (metres), kept between passes; the points it finds on the page (mm, turned, perhaps
    raced the other way round) are still exactly argmin's, ties to the lowest index included."""
    real = importlib.import_module("generator.track.centerline")
    adapt = importlib.import_module("generator.track.adapt")
    rng = np.random.default_rng(5)
    src = rng.uniform(-800, 800, (40_000, 2))
    src = np.vstack((src, src[:50]))  # repeated points: equally near
    transform = (0.37, 35.0, (210.0, 148.5))
    for reverse in (False, True):
        pts, order = src, None
        if reverse:
            pts = np.vstack((src[:1], src[:0:-1]))
            order = np.concatenate(([0], np.arange(len(src) - 1, 0, -1)))
        page = adapt.to_page(pts, *transform)
        Q = np.vstack((rng.uniform(0, 420, (60, 2)), page[[3, 40_010, 777]]))
        assert len(page) * len(Q) > real.NEAREST_BY_TREE
        index = real.PointIndex(real.point_tree(src), lambda X: adapt.from_page(X, *transform), transform[0], order)
        assert real.nearest_points(page, Q, index) == [int(np.argmin(np.hypot(*(page - q).T))) for q in Q]
    assert np.allclose(adapt.from_page(adapt.to_page(src, *transform), *transform), src, atol=1e-9)


def test_a_centre_line_asked_at_one_arc_length_answers_as_for_many():
    """Boards ask a centre line for thousands of single points, headings and curvatures: one arc length goes the
    scalar way, and must give the very numbers (bit for bit, and of the same kinds) the array way gives."""
    from generator.track import build
    from generator.track.load import load_spec

    spec, _, path = load_spec(importlib.import_module("generator.data").track_specs_dir() / "monte-carlo.yaml")
    line = build(spec, path).line
    L = line.length
    probes = [0.0, 1e-13, L / 3, L, L + 0.25, -7.5, 3 * L + 1.0, *line.s[[1, 7, -2]], *np.linspace(-L, 2 * L, 97)]
    many = {name: getattr(line, name)(np.array(probes)) for name in ("point", "heading", "curvature")}
    for j, s in enumerate(probes):
        for value in (float(s), np.float64(s)):
            p, h, k = line.point(value), line.heading(value), line.curvature(value)
            assert p.shape == (2,) and np.array_equal(p, many["point"][j]), s
            assert isinstance(h, np.float64) and h == many["heading"][j], s
            assert isinstance(k, np.float64) and k == many["curvature"][j], s


def test_shipped_yaml_reads_as_the_bounded_loader_reads_it():
    from generator.data import is_shipped, templates_dir, track_specs_dir
    from generator.specs import parse_yaml

    files = sorted(templates_dir().rglob("*.yaml"))[:12] + sorted(track_specs_dir().glob("*.yaml"))[:4]
    assert files and all(is_shipped(f) for f in files)
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert parse_yaml(text, f, trusted=True) == parse_yaml(text, f)
    assert not is_shipped(__file__)


def test_a_shipped_file_still_refuses_a_key_given_twice():
    from generator.errors import InputError
    from generator.specs import parse_yaml

    with pytest.raises(InputError, match="given twice"):
        parse_yaml("a: 1\nb: 2\na: 3\n", "x.yaml", trusted=True)
