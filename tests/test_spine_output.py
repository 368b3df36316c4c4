"""Safe output and the CLI's contract: all-or-nothing writes, names that stay in --out, clean errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from generator import outputs
from generator.errors import GlyphError, InputError
from generator.paper import PageSettings, PageSpec, Paper
from generator.pipeline import Output, Sheet, publish
from generator.scene import Page, Text


def sheet(name: str, text: str) -> Sheet:
    page = Page(PageSpec(Paper("a4", "portrait")), name)
    page.add("t", Text(text, 20, 30, 5))
    return Sheet(name, page)


def snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_run_that_fails_half_way_leaves_the_previous_output_untouched(tmp_path):
    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf", "svg", "png"), dpi=40)
    publish([sheet("board", "first"), sheet("cars", "first")], output, settings, "pack", merged="pack-print")
    before = snapshot(tmp_path)
    assert len(before) == 7 + 1  # 2 sheets x 3 formats, the merged PDF, the folder's manifest
    with pytest.raises(GlyphError):
        publish([sheet("board", "second"), sheet("cars", "second 🏁")], output, settings, "pack", merged="pack-print")
    assert snapshot(tmp_path) == before


def test_a_write_that_fails_touches_no_target_and_leaves_no_temp(tmp_path, monkeypatch):
    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf",))
    publish([sheet("a", "one"), sheet("b", "one")], output, settings)
    before = snapshot(tmp_path)
    real = outputs.files.write_new
    calls = []

    def flaky(path, data):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(outputs.files, "write_new", flaky)
    with pytest.raises(InputError, match="no space left on the disk"):
        publish([sheet("a", "two"), sheet("b", "two")], output, settings)
    assert snapshot(tmp_path) == before
    assert not [p for p in tmp_path.rglob("*.part")]


@pytest.mark.parametrize("name", ["../../etc/passwd", "/abs/path", "..", "a/../../b", "Monza GP: 1:2?*", ".hidden"])
def test_output_names_never_escape_the_output_folder(tmp_path, name):
    out = outputs.OutputSet(tmp_path / "out")
    target = out.add(name, b"x")
    root = (tmp_path / "out").resolve()
    assert root in target.resolve().parents
    assert not target.name.startswith(".")


def test_safe_name_keeps_letters_of_every_script():
    assert outputs.safe_name("Őrs Szűcs — Hungaroring 2011") == "Őrs-Szűcs-Hungaroring-2011"
    assert outputs.safe_name("Москва") == "Москва"
    assert outputs.safe_name("Київ: 1/2?") == "Київ-1-2"
    assert outputs.safe_name("///") == "sheet"
    assert outputs.safe_name("con") == "con-"  # a name Windows reserves


def run_cli(*args, cwd=None):
    """``paddock ARGS`` in a fresh process (what a user runs)."""
    env = dict(os.environ)
    env.pop("PADDOCK_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=cwd, env=env)


def run_main(*args):
    """``paddock ARGS`` through :func:`generator.cli.main` in this process (no interpreter start-up): its exit code
    and everything it printed, as :func:`run_cli` gives them."""
    import contextlib
    import io
    import types

    from generator.cli import main

    out, err = io.StringIO(), io.StringIO()
    debug = os.environ.pop("PADDOCK_DEBUG", None)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as ex:
            main(list(args))
    finally:
        if debug is not None:
            os.environ["PADDOCK_DEBUG"] = debug
    return types.SimpleNamespace(returncode=ex.value.code, stdout=out.getvalue(), stderr=err.getvalue())


def test_cli_calibrate_writes_pdf_and_png(tmp_path):
    r = run_main("calibrate", "--out", str(tmp_path), "--dpi", "50")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [outputs.MANIFEST, "calibration.pdf", "calibration.png"]


@pytest.mark.parametrize(
    "args,field",
    [
        (["--format", "pdf,docx"], "--format"),
        (["--paper", "a5"], "field '--paper'"),
        (["--tile-onto", "a4-sideways"], "field '--tile-onto'"),
    ],
)
def test_cli_bad_option_is_one_line_exit_2_no_traceback(tmp_path, args, field):
    r = run_main("calibrate", "--out", str(tmp_path), *args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("paddock: error:") and field in lines[0]
    assert not list(tmp_path.iterdir())


def test_cli_help_lists_the_commands():
    r = run_main("--help")
    assert r.returncode == 0
    for command in ("pack", "calibrate"):
        assert command in r.stdout


@pytest.mark.parametrize("args", [(), ("-h",), ("--help",)], ids=["bare", "-h", "--help"])
def test_paddock_alone_or_with_h_shows_its_help_pack_first_nothing_cut(args):
    """`paddock` alone printed its help squashed into one error line cut with "…" (exit 2), and `-h` was refused.
    Now each shows the help as Click lays it out, on stdout: every command, `pack` first, each said whole."""
    from generator.cli import _command

    r = run_main(*args)
    assert r.returncode == 0 and not r.stderr
    assert r.stdout.startswith("Usage: paddock") and "…" not in r.stdout and "..." not in r.stdout.split("Commands:")[1]
    listed = re.findall(r"^  (\w[\w-]*)  ", r.stdout.split("Commands:")[1], re.M)
    assert listed[0] == "pack" and sorted(listed) == sorted(_command().commands)


@pytest.mark.parametrize(
    "args", [("motox",), ("season", "-h"), ("pack", "-h"), ("track", "-h"), ("rwb", "chips", "-h")]
)
def test_h_works_on_every_level_and_a_group_alone_shows_its_help(args):
    r = run_main(*args)
    named = " ".join(a for a in args if a != "-h")
    assert r.returncode == 0 and not r.stderr and r.stdout.startswith(f"Usage: paddock {named} [")
    assert "-h, --help" in r.stdout
    if "Commands:" in r.stdout:  # each sub-command's first sentence whole (an option's metavar may hold "…")
        assert "..." not in r.stdout.split("Commands:")[1]


def test_python_dash_m_and_console_script_agree():
    import shutil

    exe = shutil.which("paddock")
    if exe is None:
        pytest.skip("console script not on PATH (package not installed)")
    a = subprocess.run([exe, "--version"], capture_output=True, text=True)
    b = run_cli("--version")
    assert a.stdout == b.stdout and a.stdout.startswith("paddock ")


def test_tile_onto_through_the_cli(tmp_path):
    """A board is tiled onto the printer's paper; a document sheet (the calibration sheet) is laid out on it."""
    from conftest import pdf_pages

    from generator.track import default_spec

    r = run_main("track", str(default_spec()), "--tile-onto", "a4", "--format", "pdf", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    (board,) = tmp_path.glob("*.pdf")
    doc = pdf_pages(board)
    assert len(doc) >= 3
    for i in range(len(doc)):
        assert sorted(doc[i].get_size()) == pytest.approx([595.28, 841.89], abs=0.01)
    r = run_main("calibrate", "--paper", "a3", "--tile-onto", "a4", "--format", "pdf", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    doc = pdf_pages(tmp_path / "calibration.pdf")
    assert len(doc) == 1 and doc[0].get_size() == pytest.approx((595.28, 841.89), abs=0.01)


def test_ink_saver_replaces_solid_fills(tmp_path):
    from generator.compose import inksaver
    from generator.scene import Document, Polygon, Style

    page = Page(PageSpec(Paper("a4", "portrait")), "ink")
    page.add("x", Polygon(((10, 10), (60, 10), (60, 60), (10, 60)), (), Style(stroke=None, fill="#c0392b")))
    page.add("x", Polygon(((70, 10), (90, 10), (90, 30)), (), Style(stroke=None, fill="#fafafa")))
    out = inksaver.apply(Document([page])).pages[0]
    items = out.layers["x"].items
    assert not [i for i in items if getattr(i.style, "fill", None) == "#c0392b"]
    hatch = [i for i in items if i.style.stroke == "#c0392b" and i.style.width < 0.25]
    assert len(hatch) > 20  # light hatching over the 50 × 50 mm square
    assert any(getattr(i.style, "fill", None) == "#fafafa" for i in items)  # pale fills stay


def test_edge_option_reaches_the_pages_and_content_in_the_edge_is_reported(tmp_path):
    import warnings

    from generator.pipeline import check_clear_of_edge
    from generator.scene import Polyline

    page = Page(PageSpec(Paper("a4", "portrait"), 10.0), "edge")
    assert page.edge == 10.0 and page.printable[0] == 10.0
    page.add("x", Polyline(((3, 50), (100, 50))))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_clear_of_edge(Sheet("edgy", page))
    assert any("7.1 mm into the 10 mm unprintable edge" in str(w.message) for w in caught)


def test_calibration_sheet_keeps_clear_of_the_edge(recwarn):
    from generator.compose.calibration import calibration_sheet
    from generator.pipeline import check_clear_of_edge

    for paper in (Paper("a4", "portrait"), Paper("letter", "portrait"), Paper("a3", "landscape")):
        check_clear_of_edge(Sheet("calibration", calibration_sheet(PageSpec(paper))))
    assert not [w for w in recwarn if "unprintable" in str(w.message)]


def test_a_misspelt_key_is_reported_before_the_missing_one(tmp_path):
    from pydantic import BaseModel, ConfigDict

    from generator.errors import InputError
    from generator.specs import load_yaml, validate

    class Arc(BaseModel):
        model_config = ConfigDict(extra="forbid")
        radius: float
        angle: float

    class Spec(BaseModel):
        model_config = ConfigDict(extra="forbid")
        arcs: list[Arc]

    path = tmp_path / "spec.yaml"
    path.write_text("arcs:\n  - radius: 50\n    angle: 90\n  - raduis: 50\n    angle: 90\n", encoding="utf-8")
    data, lines = load_yaml(path)
    with pytest.raises(InputError) as info:
        validate(Spec, data, path, lines)
    message = str(info.value)
    assert message.startswith(f"{path}:4: field 'arcs[1].raduis': unknown field")
    assert "did you mean 'radius'?" in message


def test_a_message_points_to_the_right_place(tmp_path):
    """Issue 43: an image given as a spec was "not UTF-8 text … save the file as UTF-8"; an unknown field's hint
    sent the reader to the README (the fields are in docs/); an option's error pointed to 'paddock --help'."""
    png = tmp_path / "board.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    r = run_main("check", str(png))
    assert r.returncode == 2 and "this is a PNG image, not a text file" in r.stderr and "UTF-8" not in r.stderr
    spec = tmp_path / "ring.yaml"
    spec.write_text("name: Ring\nlanez: 2\nsegments: [{straight: 100}]\n", encoding="utf-8")
    r = run_main("check", str(spec))
    assert "docs/circuits.md lists every field" in r.stderr or "did you mean 'lanes'?" in r.stderr, r.stderr
    assert "README" not in r.stderr
    r = run_main("pack", "monaco", "--modular")
    assert r.returncode == 2 and "see 'paddock pack monaco --help'" in r.stderr


def test_every_command_that_writes_names_its_files_or_the_print_file(tmp_path):
    """`track`, `calibrate`, `motox draw` name each file; `cars` (one sheet: it gets its print PDF too) names the
    print file and how many it wrote."""
    out = tmp_path / "out"
    r = run_main("calibrate", "-o", str(out))
    assert r.returncode == 0 and f"wrote {out / 'calibration.pdf'}, {out / 'calibration.png'}" in r.stderr
    r = run_main("motox", "draw", "twisty", "-o", str(out), "-f", "pdf")
    assert r.returncode == 0 and f"wrote {out / 'motox' / 'course-twisty.pdf'}" in r.stderr
    r = run_main("cars", "f1-2011", "-o", str(out), "-f", "pdf")
    folder = out / "cars-f1-2011"
    assert r.returncode == 0 and (folder / "cars-print.pdf").is_file(), r.stderr
    assert f"wrote 2 files to {folder}" in r.stderr and f"print {folder / 'cars-print.pdf'}: 1 page A4" in r.stderr
    assert "file(s)" not in r.stderr
