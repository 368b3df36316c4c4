"""The README's two set-up commands: they make a virtual environment (a bare pip install is refused on Debian and
Ubuntu), and CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text[text.index("## Set-up") :]
    setup = setup[: setup.index("\n## ", 4)]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_readme_has_two_commands_that_use_a_virtual_environment():
    install, tests = _commands()
    for cmd in (install, tests):
        assert cmd.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install ")
    assert install.endswith("&& paddock pack")
    assert '".[test]"' in tests and tests.endswith(("pytest", "pytest -n auto"))  # -n auto: pytest-xdist


def test_ci_runs_the_readme_test_command():
    _, tests = _commands()
    lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert tests in lines


def test_the_docs_first_circuit_builds_with_its_grid_on_straight_track(tmp_path):
    """The complete example in docs/circuits.md 'The spec format' builds as written; with no start given, the line
    is placed so the default grid stands on the straight behind it (no slot in a bend)."""
    from generator import track
    from generator.track.grid import grid_shift

    text = (ROOT / "docs" / "circuits.md").read_text(encoding="utf-8")
    section = text[text.index("## The spec format") :]
    example = re.search(r"```yaml\n(.+?)\n```", section, re.S).group(1)
    assert example.startswith("name: My first circuit")
    spec_file = tmp_path / "first.yaml"
    spec_file.write_text(example + "\n", encoding="utf-8")
    spec, lines, path = track.load_spec(spec_file)
    result = track.analyse(spec, path, lines)
    assert result.buildable, result.problems
    assert grid_shift(result.circuit) == 0 and result.circuit.spec.start.at > 0
    assert any("start line moved" in str(c) for c in result.changes)


def test_the_readme_circuit_builds_and_its_check_output_is_what_check_prints(tmp_path, capsys):
    """The README's circuit builds as written; with both radii at 15 mm, `paddock check` prints what the README
    shows (its first line and the start of each problem line, which the README shortens with '…')."""
    from generator.cli import main

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Designing circuits") :]
    example = re.search(r"```yaml\n(.+?)\n```", section, re.S).group(1)
    shown = re.search(r"```\n(my-ring\.yaml: .+?)\n```", section, re.S).group(1).splitlines()
    spec = tmp_path / "my-ring.yaml"
    spec.write_text(example + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["check", str(spec)])
    assert done.value.code == 0
    spec.write_text(example.replace("radius: 60", "radius: 15") + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["check", str(spec)])
    assert done.value.code == 3
    out = re.sub(r"\S*my-ring\.yaml", "my-ring.yaml", capsys.readouterr().out)  # a long temporary path is cut short
    printed = out.splitlines()[-len(shown) :]
    for want, got in zip(shown, printed, strict=True):
        head, _, tail = want.partition("…")
        assert got.startswith(head.rstrip()) and got.endswith(tail.strip()), (want, got)
