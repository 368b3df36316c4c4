"""Generative tests of the f1-dice pack over the space of leagues users bring (a first version, run against the
code before the fixes of issue 27)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from f1dice_leagues import league, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.games.f1_dice import pack as f1_pack
from generator.paper import PageSettings


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=league(), pick=st.floats(0, 1))
def test_every_league_builds_every_sheet(data, pick):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(data, Path(tmp))
        n = sum(len(t["drivers"]) for t in data["teams"])
        cars = 2 + round(pick * (n - 2)) if n > 2 else None
        sheets = f1_pack.build(PageSettings(), teams=path, cars=cars)
        assert sheets
