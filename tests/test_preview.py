"""``paddock preview`` without a browser: the board it shows is the pack's, its problems are where ``check`` puts
them, a rebuild keeps the last good board through a bad save, and the server answers four paths and nothing else.
(The page in a real browser: ``test_preview_browser.py``.)"""

from __future__ import annotations

import http.client
import json
import re
import threading

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from generator import games, track
from generator.paper import PageSettings

SPECS = {p.name: p for p in track.shipped()}
MONTE = SPECS["monte-carlo.yaml"].read_text(encoding="utf-8")
#: Monte Carlo with a hairpin too tight for a car and too close to itself: two problems, each with a place.
TIGHT = MONTE.replace("radius: 27, angle: 180", "radius: 12, angle: 180") + "close: auto\n"


def _svg(page) -> bytes:
    from generator.scene import Document
    from generator.writers import render

    return render(Document([page]), "svg")[0]


def unit_lines(svg: bytes) -> int:
    """Units drawn on an across-the-track board's SVG: its 2-point unit lines, and the start line."""
    layer = re.search(rb'<g id="layer-units">(.*?)</g>', svg, re.S).group(1)
    return sum(1 for pts in re.findall(rb'<polyline[^>]* points="([^"]*)"', layer) if len(pts.split()) == 2) + 1


@pytest.mark.parametrize("game_id, spec", [("f1-dice", "monte-carlo.yaml"), ("formula-d", "formula-d-circuit.yaml")])
def test_the_board_is_the_one_the_pack_prints(game_id, spec):
    """Byte for byte: the game's board hook gives the pack's own board sheet."""
    game = games.get(game_id)
    circuit, sheet = game.board(SPECS[spec], PageSettings())
    packed = game.pack(PageSettings())[0]
    assert _svg(sheet.page) == _svg(packed.page)
    assert games.board_game(SPECS[spec]) is game  # the spec's 'game' chooses it


def test_a_game_without_a_board_of_its_own_shows_the_track_board(tmp_path):
    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    circuit, sheet = games.get("monaco").board(spec, PageSettings())
    plain = track.board_sheet(track.load(spec))
    assert _svg(sheet.page) == _svg(plain.page)


def _view(spec, **kw):
    from generator.preview.state import build_view
    from generator.problems import option_wording as fix_text

    return build_view(spec, PageSettings(), wording=fix_text, **kw)


def test_view_of_a_board_that_prints(tmp_path):
    spec = tmp_path / "monte-carlo.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    view = _view(spec)
    units = track.check(spec).circuit.units_count
    assert unit_lines(view.svg) == units == 59
    figures = dict(view.state["figures"])
    assert figures["Units"].startswith(f"{units} ") and figures["Paper"] == "A3 landscape"
    assert figures["Race"].startswith("3 laps")  # the f1-dice game's own figures
    assert view.state["problems"] == [] and view.state["printable"]
    # the sheet as printed: its scale bars are on the page shown, and its PDF is one A3 page
    assert b'id="layer-print-check"' in view.svg and len(view.pages) == 1


def test_problems_are_listed_as_check_words_them_and_marked_where_they_are(tmp_path, capsys):
    from generator.cli import main

    spec = tmp_path / "tight.yaml"
    spec.write_text(TIGHT, encoding="utf-8")
    view = _view(spec)
    with pytest.raises(SystemExit):
        main(["check", "--json", str(spec)])
    checked = json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit):
        main(["check", str(spec)])
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()[1:] if ln.startswith("  ") and ":" in ln]
    listed = view.state["problems"]
    assert [p["text"] for p in listed] == [ln for ln in lines if not ln.startswith("close: auto")]
    assert listed[0]["line"] == 12 and "radius of segment 6" in listed[0]["hint"]
    line = np.asarray(checked["centre_line"])
    s = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))))
    for p, c in zip(listed, checked["problems"], strict=True):
        at = line[np.argmin(np.abs(s - c["s_mm"]))]
        assert np.hypot(p["mark"]["x"] - at[0], p["mark"]["y"] - at[1]) < 1.5, (p, c)
        assert len(p["mark"]["path"]) >= 2
    assert not view.state["printable"] and view.svg is not None  # drawn as far as check builds it


def test_a_build_a_newer_save_supersedes_stops_at_its_next_checkpoint(tmp_path):
    from generator.preview.state import Superseded

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    asked = []

    def stale():
        asked.append(1)
        return True

    with pytest.raises(Superseded):
        _view(spec, stale=stale)
    assert len(asked) == 1


def _save(spec, text, n):
    import os

    spec.write_text(text, encoding="utf-8")
    st = spec.stat()
    os.utime(spec, ns=(st.st_atime_ns, st.st_mtime_ns + n * 10**9))


def test_rebuilds_keep_the_last_good_board_through_a_bad_save(tmp_path):
    from generator.preview.server import Preview

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    said: list[str] = []
    pv = Preview(spec, PageSettings(), say=said.append)
    assert pv.rebuild(pv.sources.stamp())
    first, board = pv.svg()
    assert pv.state()["board"] == board and pv.state()["error"] is None
    _save(spec, MONTE.replace("paper: a3", "paper: a3: x"), 1)  # YAML that does not parse (line 4)
    assert pv.rebuild(pv.sources.stamp())
    state = pv.state()
    assert state["error"]["line"] == 4 and state["error"]["kind"] == "input"
    assert pv.svg() == (first, board) and state["board"] == board  # the last good board stays
    assert "still watching" in said[-1] and str(spec) in said[-1]
    _save(spec, MONTE.replace("straight: 6.3", "straight: 16.3", 1), 2)  # the loop no longer closes
    assert pv.rebuild(pv.sources.stamp())
    state = pv.state()
    # the segments drawn open, the gap marked where the last one ends; the terminal never says "built"
    assert state["error"] is None and not state["printable"] and state["problems"][0]["kind"] == "closure"
    assert state["problems"][0]["mark"] is not None and pv.svg()[1] > board
    assert "does not print yet: 1 problem" in said[-1] and "built" not in said[-1]
    open_board = pv.svg()[1]
    _save(spec, MONTE, 3)
    assert pv.rebuild(pv.sources.stamp())
    assert pv.state()["error"] is None and pv.svg()[1] > open_board and pv.state()["printable"]
    # a save while building: the build is abandoned for the newer save
    _save(spec, MONTE.replace("Monte Carlo", "Monte Carlo 2"), 4)
    stamp = pv.sources.stamp()
    _save(spec, MONTE.replace("Monte Carlo", "Monte Carlo 3"), 5)
    assert not pv.rebuild(stamp) and pv.superseded == 1


# ------------------------------------------------------------------------------------------------ the server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from generator.preview.server import Preview, PreviewServer

    spec = tmp_path_factory.mktemp("served") / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    pv = Preview(spec, PageSettings(), say=lambda line: None)
    pv.rebuild(pv.sources.stamp())
    server = PreviewServer(pv, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    pv.stop.set()
    with pv.changed:
        pv.changed.notify_all()
    server.shutdown()
    server.server_close()


def _get(server, path, method="GET", host=None):
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or f"127.0.0.1:{port}")
    conn.endheaders()
    r = conn.getresponse()
    body = r.read() if path != "/events" else b"".join(r.fp.readline() for _ in range(5))
    conn.close()
    return r.status, dict(r.getheaders()), body


def test_the_server_serves_the_page_the_board_and_its_pdf(served):
    from conftest import pdf_pages

    status, head, body = _get(served, "/")
    assert status == 200 and head["Content-Type"].startswith("text/html") and b"EventSource" in body
    status, head, body = _get(served, "/board.svg?v=3")
    assert status == 200 and head["Content-Type"] == "image/svg+xml" and unit_lines(body) == 59
    status, head, body = _get(served, "/board.pdf")
    assert status == 200 and body.startswith(b"%PDF") and 'filename="monte-carlo.pdf"' in head["Content-Disposition"]
    w, h = pdf_pages(body)[0].get_size()
    assert (round(w / 72 * 25.4), round(h / 72 * 25.4)) == (420, 297)  # A3 landscape, at true size
    status, head, body = _get(served, "/events")
    assert status == 200 and body.startswith(b"retry: 1000\n\nevent: state\ndata: ")
    state = json.loads(body.split(b"data: ", 1)[1])
    assert state["name"] == "Monte Carlo" and state["board"] >= 1


@pytest.mark.parametrize(
    "path",
    [
        "/../../etc/passwd",
        "/etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/page.html",
        "/generator/preview/page.html",
        "/board.svg/../../../etc/passwd",
        "/events/../board.svg",
        "/m.yaml",
        "/index.html",
        "/favicon.ico",
        "",
    ],
)
def test_no_other_path_is_served(served, path):
    status, _, body = _get(served, path or "*")
    assert status in (404, 400) and b"root:" not in body


@settings(max_examples=80, derandomize=True, deadline=None)
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=40))
def test_any_other_path_is_404(served, tail):
    """Whatever a request asks for beyond the four paths (traversals, encodings, the spec's own name): 404."""
    path = "/" + tail
    assume(path.split("?", 1)[0].split("#", 1)[0] not in ("/", "/board.svg", "/board.pdf", "/events"))
    status, _, body = _get(served, path)
    assert status in (404, 400), path
    assert b"name: Monte Carlo" not in body and b"root:" not in body


def test_requests_for_another_host_name_are_refused(served):
    assert _get(served, "/", host="evil.example:80")[0] == 403
    assert _get(served, "/", method="POST")[0] == 501
    assert _get(served, "/", method="HEAD")[0] == 200


def test_the_command_refuses_what_it_cannot_serve(tmp_path, capsys):
    """A missing spec, an unknown game, a paper it does not know, a port in use: one line each, exit 2, no server."""
    import socket

    from generator.cli import main

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        cases = [
            ([str(tmp_path / "nope.yaml")], "nope.yaml: file not found"),
            ([str(spec), "--game", "chess"], "unknown game 'chess'"),
            ([str(spec), "--tile-onto", "a9"], "--tile-onto"),
            ([str(spec), "--port", str(taken.getsockname()[1])], f"--port': port {taken.getsockname()[1]} cannot"),
        ]
        for args, said in cases:
            with pytest.raises(SystemExit) as stop:
                main(["preview", *args])
            err = capsys.readouterr().err.strip().splitlines()
            assert stop.value.code == 2 and len(err) == 1 and said in err[0], (args, err)
    finally:
        taken.close()


def test_a_save_of_the_csv_a_spec_names_is_seen(tmp_path):
    from generator.preview.rebuild import Sources

    csv = tmp_path / "line.csv"
    csv.write_text("# x_m,y_m\n0,0\n100,0\n100,50\n0,50\n", encoding="utf-8")
    spec = tmp_path / "s.yaml"
    spec.write_text("name: S\ncsv: line.csv\n", encoding="utf-8")
    sources = Sources(spec)
    before = sources.stamp()
    assert str(csv) in before[1] and sources.stamp() == before
    csv.write_text("# x_m,y_m\n0,0\n120,0\n120,50\n0,50\n", encoding="utf-8")
    assert sources.stamp() != before
    spec.write_text("name: [\n", encoding="utf-8")  # a spec that cannot be read: still a stamp, never an error
    assert sources.stamp()[1] == "None"


def test_tiles_are_drawn_over_the_board_and_printed_in_its_pdf(tmp_path):
    from conftest import pdf_pages

    from generator.paper import parse_paper_choice
    from generator.preview.server import Preview

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    pv = Preview(spec, PageSettings(tile_onto=parse_paper_choice("a4")), say=lambda line: None)
    pv.rebuild(pv.sources.stamp())
    state = pv.state()
    tiles = state["tiles"]
    assert len(tiles) == 4 and {t["label"] for t in tiles} == {"A1", "A2", "B1", "B2"}
    assert dict(state["figures"])["Paper"] == "A3 landscape, tiled onto 4 A4 sheets"
    # the windows cover the sheet, neighbours overlapping for the glue
    assert min(t["x"] for t in tiles) == 0 and max(t["x"] + t["w"] for t in tiles) == pytest.approx(420, abs=0.1)
    pdf = pdf_pages(pv.pdf()[0])
    assert len(pdf) == 5  # four tiles and the assembly page
    sizes = {tuple(sorted(round(v / 72 * 25.4) for v in pdf[i].get_size())) for i in range(5)}
    assert sizes == {(210, 297)}


# ------------------------------------------------------------------------------- the server under load (issue 45)

SERVE = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
from generator.cli import main
main(["preview", sys.argv[1], "--port", "0"])
"""


def _started(tmp_path, spec):
    """``paddock preview`` in a process of its own under a 2 GB address-space cap; (process, port, its lines)."""
    import re
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(spec)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=str(tmp_path),
    )
    lines: list[str] = []
    ready = threading.Event()

    def read():
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if "http://127.0.0.1:" in line:
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    ready.wait(60)
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", "\n".join(lines))
    assert found, lines
    for _ in range(600):  # the first board built
        if any("built" in line for line in lines) or proc.poll() is not None:
            break
        threading.Event().wait(0.1)
    return proc, int(found.group(1)), lines


def _ask(port, path="/", read_events=False):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    r = conn.getresponse()
    body = b"".join(r.fp.readline() for _ in range(5)) if read_events else r.read()
    conn.response = r
    return r.status, body, conn


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGHUP"), reason="SIGHUP is POSIX's")
def test_the_server_holds_idle_and_listening_clients_and_stops_on_sighup_and_sigterm(tmp_path):
    """300 idle connections open under a 2 GB cap: the page is still served (idle connections hold no thread);
    20 event streams nobody reads: a page listening still gets the next change; clients that vanish mid-answer:
    no traceback; SIGHUP (a closed terminal) and SIGTERM stop it and free the port."""
    import signal
    import socket

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    for sig in (signal.SIGHUP, signal.SIGTERM):
        proc, port, lines = _started(tmp_path, spec)
        idle, listeners = [], []
        try:
            first = _ask(port, "/events", read_events=True)
            assert first[0] == 200
            first[2].close()
            if sig == signal.SIGHUP:
                for _ in range(300):
                    idle.append(socket.create_connection(("127.0.0.1", port)))
                status, body, conn = _ask(port, "/")
                conn.close()
                assert status == 200 and b"EventSource" in body
                for _ in range(20):  # event streams that never read
                    s = socket.create_connection(("127.0.0.1", port))
                    s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                    listeners.append(s)
                status, body, page = _ask(port, "/events", read_events=True)
                assert status == 200 and b'"name":"Monte Carlo"' in body
                _save(spec, MONTE.replace("name: Monte Carlo", "name: Changed"), 1)
                got = b""
                while b'"name":"Changed"' not in got:
                    chunk = page.response.fp.readline()
                    assert chunk, "the page listening was let go"
                    got += chunk
                page.close()
                for _ in range(30):  # clients that ask and go at once, mid-answer
                    s = socket.create_connection(("127.0.0.1", port))
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    s.sendall(f"GET /board.pdf HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                    s.close()  # a reset, not a goodbye
                status, body, conn = _ask(port, "/board.svg")
                conn.close()
                assert status == 200
            proc.send_signal(sig)
            assert proc.wait(30) == 0
        finally:
            for s in idle + listeners:
                s.close()
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        said = "\n".join(lines)
        assert "Traceback" not in said and "Error" not in said, said
        assert f"preview stopped ({sig.name})" in said
        with socket.socket() as again:  # the port is free again (as a server takes it: past TIME_WAIT)
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
            again.listen()


def test_a_newer_board_ends_the_race_of_the_older(tmp_path):
    """--sim: a run is started only for a board on screen and ends when a newer one comes; its lines are kept
    only for the board they are of."""
    from generator.preview.sim import Simulation

    spec = tmp_path / "g.yaml"
    spec.write_text(SPECS["formula-d-circuit.yaml"].read_text(encoding="utf-8"), encoding="utf-8")
    got = []
    done = threading.Event()

    def publish(board, sim):
        got.append((board, sim["status"], list(sim["lines"])))
        if sim["status"] == "done":
            done.set()

    run = Simulation(spec, "formula-d", {}, publish, races=400)  # long enough to be cut short
    run.start(1)
    first = run.process
    run.start(2)  # a newer board: the first run ends
    assert not first.is_alive() and run.cancelled == 1
    run.cancel()
    assert run.process is None and run.cancelled == 2
    short = Simulation(tmp_path / "m.yaml", "f1-dice", {"cars": 6}, publish, races=20)
    (tmp_path / "m.yaml").write_text(MONTE, encoding="utf-8")
    short.start(3)
    assert done.wait(120)
    assert [g[:2] for g in got] == [(1, "racing"), (2, "racing"), (3, "racing"), (3, "done")]
    assert got[-1][2] and all(isinstance(line, str) for line in got[-1][2])


@pytest.mark.parametrize(
    "game, options, said",
    [
        ("f1-dice", {"grid": 10}, "--grid 10: an f1-dice board has a grid slot for every car"),
        ("monaco", {"cars": 6}, "--cars 6: the board of Monaco! is paddock track's"),
        ("formula-d", {"cars": 11}, "--cars 11"),
    ],
)
def test_an_option_a_game_has_no_use_for_is_said(tmp_path, game, options, said):
    from generator.errors import InputError

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    with pytest.raises(InputError) as err:
        _view(spec, game_id=game, options=options)
    assert said in str(err.value)


def test_the_packs_options_reach_the_board(tmp_path):
    """--cars, --laps, --start as the f1-dice pack takes them; --paper said where it overrides the spec's."""
    from generator.paper import parse_paper_choice
    from generator.preview.state import build_view

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    view = _view(spec, options={"cars": 10, "laps": 5})
    figures = dict(view.state["figures"])
    assert figures["Grid"] == "10 slots" and figures["Race"].startswith("5 laps")
    packed = games.get("f1-dice").pack(PageSettings(), track=spec, cars=10, laps=5)[0]
    assert view.svg == _svg(packed.page) or b'id="layer-grid"' in view.svg  # the pack's board, its grid apart
    a2 = build_view(spec, PageSettings(paper=parse_paper_choice("a2")))
    assert dict(a2.state["figures"])["Paper"].startswith("A2") and "(--paper)" in dict(a2.state["figures"])["Paper"]
    assert any("overridden" in n["text"] for n in a2.state["notes"] if n["source"] == "paper")


def test_a_spec_deleted_is_missing_never_the_shipped_one_of_its_name(tmp_path, monkeypatch):
    from generator.errors import InputError

    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "monte-carlo.yaml"
    spec.write_text(MONTE.replace("name: Monte Carlo", "name: Mine"), encoding="utf-8")
    assert _view(spec.absolute()).state["name"] == "Mine"
    spec.unlink()
    with pytest.raises(InputError, match="the spec file is missing"):
        _view(spec.absolute())


def test_a_click_on_a_unit_names_its_segment_and_corner_lines(tmp_path):
    from generator.preview.locate import Locator

    spec = tmp_path / "m.yaml"
    spec.write_text(MONTE, encoding="utf-8")
    view = _view(spec)
    units = view.state["units"]
    assert len(units["spots"]) == 59 and [s[2] for s in units["spots"][:3]] == ["1", "2", "3"]
    lines = MONTE.splitlines()
    for _x, _y, label, ref in units["spots"]:
        for r in units["refs"][ref]:
            if r["what"].startswith("segment "):
                k = int(r["what"].split()[1])
                # the line the segment is written on: the k-th entry of 'segments'
                first = next(i for i, t in enumerate(lines, 1) if t.strip().startswith("segments:"))
                entries = [i for i, t in enumerate(lines, 1) if i > first and t.strip().startswith("- ")]
                assert r["line"] == entries[k - 1], (label, r)
    c = track.check(spec).circuit
    loc = Locator(c, spec)
    apex = c.corners[0].apex
    assert any(r["what"].startswith("corner 1") for r in loc.refs(apex, c.point_at(apex)))
