"""Every ``paddock`` command shown in README.md and docs/*.md runs from a fresh clone's point of view (issue 43: a
README example exited 3, and a dozen doc examples named files a clone does not have).

Each block's commands run in order, in one folder of their own holding only what a clone has (``track_specs/`` and
``docs/``, linked) and the files its doc tells the reader to save (:func:`doc_commands.saved`): no file from
``../shared`` or anywhere else. They run in this process (``generator.cli.main``: no interpreter start-up), each
exiting 0 unless listed in :data:`EXPECTED`. The commands that never end on their own run once: ``--watch``
builds once, ``preview`` builds its board once and stops (on any free port: a fixed one may be taken). ``simulate``
(and ``check --sim``'s quick run) races :data:`RACES` races where the doc leaves the count to the default (1,000:
the command a reader runs, only longer); a drawing command whose doc leaves the formats to the default draws PDF
only (the PNG previews, made from the PDF, are tested elsewhere). Blocks whose commands build real circuits or
whole packs are marked ``slow`` (they run in the suite; ``-m "not slow"`` leaves them out while working).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from doc_commands import ROOT, blocks, saved

from generator.cli import main

#: Commands that exit otherwise, as their doc says they do.
EXPECTED = {
    # docs/circuits.md: "the real line, whatever the grid: a problem says if it does not fit" — then the next
    # line uses the start the problem names
    "paddock track spa.csv --start real": 3,
}
RACES = "10"
#: Blocks that cost more than a few CPU-seconds (packs, real circuits, races): by their first command.
SLOW = ("paddock pack", "paddock track track_specs/monte-carlo.yaml", "paddock simulate", "paddock preview")

BLOCKS = blocks()


def _takes_format(args: list[str]) -> bool:
    """Whether the command ``args`` names draws files (it has ``--format``)."""
    from generator.cli import _command

    command = _command()
    for arg in args:
        sub = getattr(command, "commands", {}).get(arg)
        if sub is None:
            break
        command = sub
    if hasattr(command, "commands"):  # `paddock pack` alone: the default game's pack
        command = command.commands.get("f1-dice", command)
    return any("--format" in getattr(p, "opts", ()) for p in command.params)


def _args(command) -> list[str]:
    args = list(command.args)
    if args[0] == "simulate" and "--races" not in args:
        args += ["--races", RACES]
    if not {"-f", "--format", "--list"} & set(args) and _takes_format(args):
        args += ["-f", "pdf"]  # the PNG previews are tested elsewhere; here, that the command runs as written
    if args[0] == "preview":
        args = [a for i, a in enumerate(args) if a != "--port" and (i == 0 or args[i - 1] != "--port")]
        args += ["--port", "0"]
    return args


@pytest.fixture
def once(monkeypatch):
    """``track --watch`` and ``preview`` build once and return; what they built, to look at."""
    from generator.preview import rebuild, server

    built = []
    run = rebuild.Watcher.run

    def watch_once(self, *a, **kw):
        run(self, max_steps=1)
        built.append(("watch", self.builds, self.errors))

    def serve_once(preview, http, open_browser=False):
        try:
            preview.rebuild(preview.sources.stamp())
            built.append(("preview", preview.view is not None and preview.error is None, preview.info))
        finally:
            preview.stop.set()
            if preview.sim is not None:
                preview.sim.cancel()
            http.server_close()

    from generator.cli import simulate

    monkeypatch.setattr(simulate, "QUICK_RACES", int(RACES))  # `check --sim`'s quick run, as short as simulate's
    monkeypatch.setattr(rebuild.Watcher, "run", watch_once)
    monkeypatch.setattr(server, "serve", serve_once)
    return built


def _marks(block):
    slow = block.commands[0].text.startswith(SLOW) or any(".csv" in c.text for c in block.commands)
    return [pytest.mark.slow] if slow else []


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id, marks=_marks(b)) for b in BLOCKS])
def test_every_doc_command_runs_from_a_fresh_clone(block, tmp_path, monkeypatch, once):
    before = _shipped()
    for name in ("track_specs", "docs"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    for name, text in saved(ROOT / block.doc).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PADDOCK_DEBUG", raising=False)
    for command in block.commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as done:
            main(_args(command))
        said = f"{command.id}: {command.text}\n{err.getvalue()[-2000:]}"
        assert done.value.code == EXPECTED.get(command.text, 0), said
        assert "Traceback" not in err.getvalue(), said
        if command.args[0] == "preview":
            kind, ok, info = once.pop()
            assert kind == "preview" and ok, f"{said}\n{info}"
        if "--watch" in command.args:
            kind, builds, errors = once.pop()
            assert (kind, builds, errors) == ("watch", 1, 0), said
    assert not once
    assert _shipped() == before, "a doc command wrote into the checkout's docs/ or track_specs/"


def _shipped() -> set[Path]:
    return {p for name in ("docs", "track_specs") for p in (ROOT / name).rglob("*")}


def test_the_docs_show_commands_and_every_file_they_name_is_in_the_clone():
    """The blocks hold every command of the docs (none lost by the parser), and every file a command names is
    shipped (in the checkout, or by name in track_specs/), saved by the doc first, or written by a command before."""
    assert sum(len(b.commands) for b in BLOCKS) >= 70
    assert {b.doc for b in BLOCKS} >= {"README.md", "docs/circuits.md", "docs/teams.md", "docs/preview.md"}
    for block in BLOCKS:
        made = set(saved(ROOT / block.doc))
        for command in block.commands:
            args = command.args
            written = {args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--out", "-o")}
            for arg in args:
                if arg.endswith((".yaml", ".csv")) and arg not in written:
                    there = (ROOT / arg).is_file() or (ROOT / "track_specs" / arg).is_file() or arg in made
                    assert there, f"{command.id}: {arg} is not in a fresh clone, and the doc does not make it first"
            made |= written


def test_the_example_files_are_what_their_docs_show():
    """docs/examples/ holds the docs' own examples, word for word: the README's first circuit, the players file."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert saved(ROOT / "README.md")["my-ring.yaml"] == (ROOT / "docs/examples/my-ring.yaml").read_text()
    assert "my-ring.yaml" in readme
    fd = (ROOT / "docs/formula-d.md").read_text(encoding="utf-8")
    players = re.search(r"```yaml\n(# players\.yaml.*?)```", fd, re.S).group(1)
    assert players == (ROOT / "docs/examples/players.yaml").read_text(encoding="utf-8")
    teams = (ROOT / "docs/teams.md").read_text(encoding="utf-8")
    results = re.search(r"```yaml\n(races:.*?)```", teams, re.S).group(1)
    assert results == (ROOT / "docs/examples/results.yaml").read_text(encoding="utf-8")
