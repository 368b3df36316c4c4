"""``paddock preview`` in a real browser (Debian's headless Chromium, driven by selenium): the page shows the board
``check`` describes, follows every save, keeps the last good board through a bad one, shows Formula D's flags,
serves nothing else, and stays one process of bounded size through a burst of saves; a deleted spec is said
missing (never a shipped one of its name), a restarted server is followed, a board with problems is the pack's
(grid, garages, corner lines) with its PDF marked, the pack's options reach it (``--cars 18`` on a real circuit),
``--sim`` lists its races after the board, a new paper is fitted, the problem list works from the keyboard, and a
click on a unit names its spec line. No assertion on time: latency is ``benchmarks/bench_preview.py``'s.

Skipped, saying why, on a machine without Chromium, its driver or selenium; failed instead under CI (``.ci/run``
installs them). The README's screenshot (``docs/images/preview.png``) is taken here when asked
(``PADDOCK_UPDATE_SCREENSHOT=1``), never by a plain run.
"""

from __future__ import annotations

import http.client
import json
import os
import time
from pathlib import Path

import pytest
from preview_browser import (
    ROOT,
    SHOWN_JS,
    UNIT_LINES_JS,
    WAIT,
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
            pytest.fail(f"PADDOCK_BROWSER_TESTS is set, so the browser tests must run, but {why}")
        pytest.skip(f"no browser to test the preview in: {why}")
    d = browser()
    yield d
    close(d)


def keep_screenshot(driver) -> None:
    """Write the README's screenshot (``docs/images/preview.png``) only when asked: ``PADDOCK_UPDATE_SCREENSHOT=1
    pytest tests/test_preview_browser.py``. A plain run of the tests never writes into the checkout (the page
    shows the test's temporary path and the time, so every run would differ)."""
    if os.environ.get("PADDOCK_UPDATE_SCREENSHOT") != "1":
        return
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    SCREENSHOT.write_bytes(driver.get_screenshot_as_png())


def check_units(spec: Path) -> int:
    import contextlib
    import io

    from generator.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["check", "--json", str(spec)])
    return json.loads(out.getvalue())["units"]


def shown_after(driver, board: int, timeout: float = WAIT) -> dict | None:
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

        # an edit that shortens the straights: redrawn (how soon: benchmarks/bench_preview.py), two units fewer
        save(spec, SHORTER)
        shown = shown_after(driver, first["board"])
        assert shown, "no redraw after the save"
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
        assert shown_after(driver, 0)
        flags = driver.execute_script(
            f"return document.querySelectorAll('#layer-formula-d path[fill=\"{FLAG}\"]').length"
        )
        assert flags >= len(marks) == 5  # one on every corner (and the key's)
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
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
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
        last = wait_for(driver, "const s = window.pvShown; return s && s.name === 'Save 99' ? s : null")
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


def _text(driver, element_id: str) -> str:
    return driver.execute_script(f"return document.getElementById('{element_id}').innerText")


def test_a_deleted_spec_named_like_a_shipped_one_is_said_missing(driver, tmp_path):
    """Copying ``monte-carlo.yaml`` is how designers start: deleted, it is missing, never Paddock's own."""
    spec = tmp_path / "monte-carlo.yaml"
    spec.write_text(MONTE.replace("name: Monte Carlo", "name: My Copy"), encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        first = shown_after(driver, 0)
        assert first and first["name"] == "My Copy"
        spec.unlink()
        banner = wait_for(driver, "const b = document.getElementById('banner'); return !b.hidden && b.innerText")
        assert banner and "missing" in banner and "monte-carlo.yaml" in banner
        assert "missing" in _text(driver, "status")
        assert driver.execute_script(SHOWN_JS)["board"] == first["board"]  # the last board, greyed: no other
        assert driver.find_element("id", "name").text == "My Copy"
        assert any("missing" in line for line in server.lines)
        assert not any("built Monte Carlo" in line for line in server.lines)
    finally:
        server.stop()


def test_a_restarted_server_is_followed(driver, tmp_path):
    spec = tmp_path / "ring.yaml"
    spec.write_text(MONTE.replace("name: Monte Carlo", "name: Before"), encoding="utf-8")
    server = Server(spec)
    port = server.port
    try:
        driver.get(server.url)
        assert shown_after(driver, 0)["name"] == "Before"
    finally:
        server.stop()
    wait_for(driver, "return document.getElementById('status').textContent.includes('not connected')")
    spec.write_text(MONTE.replace("name: Monte Carlo", "name: After"), encoding="utf-8")
    again = Server(spec, port=port)  # its boards count from the start again
    try:
        shown = wait_for(driver, "const s = window.pvShown; return s && s.name === 'After' ? s : null")
        assert shown, f"the page kept the old server's board: {driver.execute_script(SHOWN_JS)}"
        assert driver.find_element("id", "name").text == "After"
    finally:
        again.stop()


def test_a_board_with_problems_is_the_pack_board_marked_and_its_pdf_says_so(driver, tmp_path):
    """f1-dice: the whole field's grid and a garage per team, as the pack draws them, the problems on it; Formula
    D on a paper too small: its corner lines, flags and corners table still there."""
    spec = tmp_path / "tight.yaml"
    spec.write_text(TIGHT, encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        assert shown_after(driver, 0)
        slots = driver.execute_script("return document.querySelectorAll('#sheet #layer-grid polyline').length")
        assert slots == 24  # the pack's field, not check's plain grid
        assert "12 garages" in _text(driver, "figures") and "24 slots" in _text(driver, "figures")
        assert len(driver.find_elements("css selector", "#pv-overlay .pv-mark")) == 2
        pdf = driver.find_element("id", "pdf")
        assert "does not print yet" in pdf.text and "does not print yet" in _text(driver, "status")
        assert not any("built" in line for line in server.lines[1:])
        # the grid toggle hides the grid and nothing else
        driver.execute_script("document.querySelector('label[data-layer=grid] input').click()")
        assert driver.execute_script("return getComputedStyle(document.querySelector('#layer-grid')).display") == "none"
        assert (
            driver.execute_script("return getComputedStyle(document.querySelector('#layer-units')).display") != "none"
        )
        driver.save_screenshot(str(tmp_path / "problems.png"))
    finally:
        server.stop()
    fd = tmp_path / "garenne.yaml"
    fd.write_text(SPECS["formula-d-circuit.yaml"].read_text(encoding="utf-8").replace("paper: a1", "paper: a3"))
    server = Server(fd)
    try:
        driver.get(server.url)
        assert shown_after(driver, 0)
        items = driver.find_elements("css selector", "ol.problems li")
        assert items and "too wide" in items[0].text  # the overflow itself, not a rounding of it
        assert driver.execute_script("return document.querySelectorAll('#layer-formula-d').length") == 1
        assert len(driver.find_elements("css selector", "#tables tr")) == 6  # five corners and the head
        assert "does not print yet" in driver.find_element("id", "pdf").text
        driver.save_screenshot(str(tmp_path / "formula-d-problems.png"))
    finally:
        server.stop()


def test_the_packs_cars_reach_a_real_circuit(driver, tmp_path):
    real = ROOT.parent / "shared" / "circuits" / "Spa.csv"
    if not real.is_file():
        pytest.skip("../shared/circuits is not beside the clone")
    spec = tmp_path / "Spa.csv"
    spec.write_bytes(real.read_bytes())
    server = Server(spec, "--cars", "18")
    try:
        driver.get(server.url)
        assert shown_after(driver, 0)
        assert "None: the board prints as it is" in _text(driver, "problems")
        assert "18 slots" in _text(driver, "figures")
        assert driver.find_element("id", "pdf").text == "PDF"
    finally:
        server.stop()


def test_sim_results_come_after_the_board(driver, tmp_path):
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec, "--sim")
    try:
        driver.get(server.url)
        first = shown_after(driver, 0)
        assert first
        sim = wait_for(driver, "return window.pvSim || null")
        assert sim and sim["board"] == first["board"] and sim["shown"] == first["board"]  # the board was there first
        assert "races of the board shown" in _text(driver, "sim-box")
        save(spec, SHORTER)  # a new board: a new run, for it
        again = shown_after(driver, first["board"])
        assert again
        later = wait_for(driver, f"const s = window.pvSim; return s && s.board === {again['board']} ? s : null")
        assert later and later["shown"] == again["board"]
    finally:
        server.stop()


def test_a_new_paper_is_fitted_and_the_same_paper_keeps_the_zoom(driver, tmp_path):
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        first = shown_after(driver, 0)
        driver.execute_script("view.k *= 3; view.x -= 400; applyView();")  # zoomed in, moved
        save(spec, MONTE.replace("paper: a3", "paper: a2"))
        shown = shown_after(driver, first["board"])
        assert shown
        k, fitted = driver.execute_script("return [view.k, fitScale()]")
        assert k == pytest.approx(fitted)
        box = driver.execute_script("return document.getElementById('sheet').getBoundingClientRect().toJSON()")
        stage = driver.execute_script("return document.getElementById('stage').getBoundingClientRect().toJSON()")
        assert box["left"] >= stage["left"] and box["right"] <= stage["right"] + 1  # all of it in sight
        assert "A2" in _text(driver, "figures")
    finally:
        server.stop()


def test_the_problem_list_by_keyboard_and_a_click_naming_the_spec_line(driver, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    spec = tmp_path / "tight.yaml"
    spec.write_text(TIGHT, encoding="utf-8")
    server = Server(spec)
    try:
        driver.get(server.url)
        assert shown_after(driver, 0)
        assert driver.find_element("id", "status").get_attribute("aria-live") == "polite"
        body = driver.find_element("tag name", "body")
        for _ in range(40):  # Tab from the top of the page until the first problem has the focus
            body = driver.switch_to.active_element
            if body.get_attribute("data-n") == "1":
                break
            body.send_keys(Keys.TAB)
        assert driver.switch_to.active_element.get_attribute("data-n") == "1"
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        focused = driver.switch_to.active_element
        assert focused.get_attribute("data-n") == "2"
        focused.send_keys(Keys.ENTER)
        assert "sel" in focused.get_attribute("class")
        assert driver.execute_script("return document.querySelector('#pv-overlay .pv-mark.sel').dataset.n") == "2"
        assert "Problem 2" in _text(driver, "info")
        # a click on unit 1 of the board: its segment and the spec line
        driver.execute_script("fit(); document.getElementById('info').hidden = true;")
        spot = driver.execute_script("return current.units.spots.find(s => s[2] === '1')")
        # where unit 1's number stands, from the stage's centre (selenium moves from an element's centre)
        dx, dy = driver.execute_script(
            "const [x, y] = arguments[0];"
            "return [view.x + x * PX_PER_MM * view.k - stage.clientWidth / 2,"
            "        view.y + y * PX_PER_MM * view.k - stage.clientHeight / 2];",
            spot,
        )
        stage = driver.find_element("id", "stage")
        ActionChains(driver).move_to_element_with_offset(stage, round(dx), round(dy)).click().perform()
        info = _text(driver, "info")
        assert info.startswith("unit 1") and "segment 1 (straight 286.8 mm)" in info and f"{spec.name}:7" in info
        driver.save_screenshot(str(tmp_path / "clicked.png"))
    finally:
        server.stop()


def test_without_javascript_the_page_says_what_to_do(driver, tmp_path):
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    server = Server(spec)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
        conn.request("GET", "/")
        page = conn.getresponse().read().decode()
        conn.close()
        assert "<noscript>" in page and "needs JavaScript" in page and "Loading" not in page
    finally:
        server.stop()


def test_a_narrow_window_folds_the_panel_away(tmp_path):
    why = missing()
    if why is not None:
        pytest.skip(f"no browser: {why}")
    spec = tmp_path / "m.yaml"
    spec.write_text(TIGHT, encoding="utf-8")
    server = Server(spec)
    d = browser(720, 800)  # an editor's half of the screen
    try:
        d.get(server.url)
        assert shown_after(d, 0)
        stage = d.execute_script("return document.getElementById('stage').getBoundingClientRect().width")
        assert stage >= 700 and not d.find_element("id", "panel").is_displayed()
        d.find_element("id", "panel-toggle").click()
        assert (
            d.find_element("id", "panel").is_displayed() and "Problems (2)" in d.find_element("id", "panel-toggle").text
        )
        d.save_screenshot(str(tmp_path / "narrow.png"))
    finally:
        close(d)
        server.stop()
