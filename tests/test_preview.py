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
    assert state["error"]["kind"] == "problems" and state["problems"][0]["kind"] == "closure"
    assert state["problems"][0]["mark"] is None and pv.svg()[1] == board
    _save(spec, MONTE, 3)
    assert pv.rebuild(pv.sources.stamp())
    assert pv.state()["error"] is None and pv.svg()[1] > board
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
    body = r.read() if path != "/events" else r.fp.readline() + r.fp.readline() + r.fp.readline()
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
    assert status == 200 and body.startswith(b"event: state\ndata: ")
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
