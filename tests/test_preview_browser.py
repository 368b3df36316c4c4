"""``paddock preview`` in a real browser (Debian's headless Chromium, driven by selenium): the page shows the board
``check`` describes, follows every save within seconds, keeps the last good board through a bad one, shows Formula
D's flags, serves nothing else, and stays one process of bounded size through a burst of saves.

Skipped, saying why, on a machine without Chromium, its driver or selenium; failed instead under CI (``.ci/run``
installs them). The README's screenshot (``docs/images/preview.png``) is taken here, so it shows the page as it is.
"""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

import pytest
from preview_browser import (
    ROOT,
    SHOWN_JS,
    UNIT_LINES_JS,
    Server,
    browser,
    close,
    missing,
    required,
    save,
    wait_for,
)

from generator import track

SPECS = {p.name: p for p in track.shipped()}
MONTE = SPECS["monte-carlo.yaml"].read_text(encoding="utf-8")
#: The pit straight and the tunnel straight (parallel, run opposite ways) each 20 mm shorter: the loop still closes.
SHORTER = MONTE.replace("straight: 286.8 ", "straight: 266.8 ").replace("straight: 163.2 ", "straight: 143.2 ")
#: YAML that does not parse, on line 4.
BROKEN = SHORTER.replace("paper: a3", "paper: a3: x")
#: A hairpin too tight for a car and too close to itself: two problems, each with its place on the board.
TIGHT = MONTE.replace("radius: 27, angle: 180", "radius: 12, angle: 180") + "close: auto\n"
SCREENSHOT = ROOT / "docs" / "images" / "preview.png"


@pytest.fixture(scope="module")
def driver():
    why = missing()
    if why is not None:
        if required():
            pytest.fail(f"the browser tests must run under CI, but {why}")
        pytest.skip(f"no browser to test the preview in: {why}")
    d = browser()
    yield d
    close(d)


def keep_screenshot(driver) -> None:
    """Write the README's screenshot when the page looks different from the one committed: anything but the
    clock in its status line (so a run of the tests leaves the checkout as it was, and the picture never goes
    stale)."""
    import io

    import numpy as np
    from PIL import Image

    png = driver.get_screenshot_as_png()
    if SCREENSHOT.is_file():
        old = np.asarray(Image.open(SCREENSHOT).convert("RGB"), dtype=np.int16)
        new = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
        if old.shape == new.shape:
            differs = np.abs(old - new).max(axis=2) > 8
            pill = driver.execute_script("return document.getElementById('status').getBoundingClientRect().toJSON()")
            scale = new.shape[1] / driver.execute_script("return window.innerWidth")
            x0, y0 = int(pill["left"] * scale) - 4, int(pill["top"] * scale) - 4
            x1, y1 = int((pill["right"] + 60) * scale), int(pill["bottom"] * scale) + 4
            differs[max(0, y0) : y1, max(0, x0) : x1] = False  # the time of the build, and how long it took
            if not differs.any():
                return
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    SCREENSHOT.write_bytes(png)


def check_units(spec: Path) -> int:
    import contextlib
    import io

    from generator.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["check", "--json", str(spec)])
    return json.loads(out.getvalue())["units"]


def shown_after(driver, board: int, timeout: float = 10.0) -> dict | None:
    """The page's report of the next board it painted after board ``board``."""
    return wait_for(driver, f"const s = window.pvShown; return s && s.board > {board} ? s : null", timeout)


def test_the_page_follows_every_save(driver, tmp_path):
    spec = tmp_path / "monte-carlo.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        first = shown_after(driver, 0)
        assert first and first["name"] == "Monte Carlo"
        assert driver.execute_script(UNIT_LINES_JS) == check_units(spec) == 59
        figures = driver.find_element("id", "figures").text
        assert "59 of 20.0 mm" in figures and "A3 landscape" in figures

        # zoom in and move: the next board keeps both
        driver.find_element("id", "zoom-in").click()
        driver.execute_script("view.x -= 120; view.y += 40; applyView();")
        time.sleep(0.5)  # the zoom's glide
        placed = driver.execute_script("return document.getElementById('sheet').style.transform")
        shots = tmp_path / "shots"  # for a person to look at (pytest --basetemp=…)
        shots.mkdir()

        # an edit that shortens the straights: redrawn within 2 s, two units fewer
        saved = save(spec, SHORTER)
        shown = shown_after(driver, first["board"])
        assert shown, "no redraw after the save"
        assert shown["at"] - saved <= 2000, f"redrawn {shown['at'] - saved:.0f} ms after the save"
        assert driver.execute_script(UNIT_LINES_JS) == check_units(spec) == 57
        assert driver.execute_script("return document.getElementById('sheet').style.transform") == placed
        driver.save_screenshot(str(shots / "zoomed.png"))

        # YAML that does not parse: the error with its line above the last board, greyed
        save(spec, BROKEN)
        banner = wait_for(driver, "const b = document.getElementById('banner'); return !b.hidden && b.innerText")
        assert banner and f"{spec.name}:4" in banner and "YAML syntax" in banner
        assert driver.execute_script("return document.getElementById('sheet').classList.contains('stale')")
        assert driver.execute_script(UNIT_LINES_JS) == 57 and driver.execute_script(SHOWN_JS)["board"] == shown["board"]
        driver.save_screenshot(str(shots / "broken.png"))

        # fixed: the board is back, in colour
        save(spec, SHORTER)
        again = shown_after(driver, shown["board"])
        assert again and driver.execute_script("return document.getElementById('banner').hidden")
        assert not driver.execute_script("return document.getElementById('sheet').classList.contains('stale')")
        assert driver.execute_script(UNIT_LINES_JS) == 57

        # problems: listed beside the board as check words them, each marked on it; a click highlights one
        save(spec, TIGHT)
        tight = shown_after(driver, again["board"])
        assert tight
        items = driver.find_elements("css selector", "ol.problems li")
        marks = driver.find_elements("css selector", "#pv-overlay .pv-mark")
        assert len(items) == len(marks) == 2
        assert f"{spec.name}:12" in items[0].text
        assert "no room for a car" in items[0].text and "radius of segment 6" in items[0].text
        driver.execute_script("fit(); document.activeElement.blur()")
        time.sleep(0.3)
        keep_screenshot(driver)  # the README's picture of the page
        items[1].click()
        time.sleep(0.6)
        driver.save_screenshot(str(shots / "selected.png"))
        assert "sel" in items[1].get_attribute("class")
        assert driver.execute_script("return document.querySelector('#pv-overlay .pv-mark.sel').dataset.n") == "2"
        # the PDF of the board as it stands
        pdf = driver.find_element("id", "pdf").get_attribute("href")
        assert pdf.startswith(server.url + "board.pdf")
    finally:
        server.stop()


def test_a_formula_d_board_shows_its_flags_and_corners(driver, tmp_path):
    from generator.games.formula_d.overlay import FLAG, corner_marks, load_circuit

    spec = tmp_path / "garenne.yaml"
    spec.write_text(SPECS["formula-d-circuit.yaml"].read_text(encoding="utf-8"), encoding="utf-8")
    marks = corner_marks(load_circuit(spec))
    server = Server(spec)
    try:
        driver.get(server.url)
        assert shown_after(driver, 0, timeout=20)
        flags = driver.execute_script(
            f"return document.querySelectorAll('#layer-formula-d path[fill=\"{FLAG}\"]').length"
        )
        assert flags >= len(marks) == 6  # one on every corner (and the key's)
        rows = driver.find_elements("css selector", "#tables tr")[1:]
        assert [r.text.split()[-3:] for r in rows] == [
            [str(m.stops), str(m.paths.long), str(m.paths.short)] for m in marks
        ]
        assert "Spaces" in driver.find_element("id", "figures").text
    finally:
        server.stop()


def test_nothing_but_the_page_the_board_and_its_pdf_is_served(driver, tmp_path):
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec)
    try:
        for path in ("/../../etc/passwd", "/etc/passwd", "/m.yaml", "/page.html", "/%2e%2e/%2e%2e/etc/passwd"):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("GET", path)
            r = conn.getresponse()
            assert r.status == 404 and b"root:" not in r.read(), path
            conn.close()
        driver.get(server.url + "../../etc/passwd")  # the browser's own way of asking
        assert "root:" not in driver.page_source and "not found" in driver.page_source
    finally:
        server.stop()


def test_a_burst_of_saves_leaves_one_small_server_and_the_last_edit_on_screen(driver, tmp_path):
    if not Path("/proc/self/status").exists():
        pytest.skip("memory and processes are read from /proc (Linux)")
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        first = shown_after(driver, 0)
        assert first
        for i in range(5):  # warm: what a few builds hold
            save(spec, MONTE.replace("name: Monte Carlo", f"name: Warm {i}"))
            time.sleep(0.4)
        shown_after(driver, first["board"])
        warm = server.rss_kb()
        t0 = time.monotonic()
        for i in range(100):  # 100 saves in 10 s
            save(spec, MONTE.replace("name: Monte Carlo", f"name: Save {i}"))
            time.sleep(max(0.0, t0 + (i + 1) * 0.1 - time.monotonic()))
        last = wait_for(driver, "const s = window.pvShown; return s && s.name === 'Save 99' ? s : null", 20)
        assert last, f"the last save is not on screen: {driver.execute_script(SHOWN_JS)}"
        assert driver.find_element("id", "name").text == "Save 99"
        assert server.proc.poll() is None and server.children() == []
        grown = server.rss_kb() - warm
        assert grown < 40_000, f"the server grew {grown} kB over 100 saves"
        assert server.threads() < 12
        said = "\n".join(server.lines)
        assert "Save 99" in said and "Traceback" not in said
    finally:
        server.stop()
