"""No import loops anywhere in generator/: every ``import`` statement, at module level or inside a function,
read with ast, makes an edge; the graph of generator's modules must have no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "generator"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _targets(module: str, package: bool, node: ast.AST, known) -> list[str]:
    """The generator modules one import statement names (``from x import y``: module x.y if it is one, else x)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix for a in node.names]
    out = []
    for name in names:
        while name not in known and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in known and name != module:
            out.append(name)
    return out


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    graph: dict[str, set[str]] = {}
    for module, (path, package) in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {
            t
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for t in _targets(module, package, node, known)
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """generator's import graph, read once for the module's tests."""
    return import_graph()


def test_the_finder_finds_a_loop():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions(graph):
    assert "generator.track.board" in graph["generator.track"]  # draw_board imports it when called
    assert "generator.track.circuit" in graph["generator.track.board"]


def test_no_import_cycles_in_generator(graph):
    assert cycles(graph) == []


def test_composers_and_writers_never_import_a_game_or_the_pipeline(graph):
    """compose/ gets plain data (a model, a PageSpec) and writers get scenes or models: neither reaches for the
    games registry, a game or the pipeline (imports inside functions and under TYPE_CHECKING count too)."""
    for module, targets in graph.items():
        if module.startswith(("generator.compose", "generator.writers")):
            bad = {t for t in targets if t == "generator.pipeline" or t.startswith("generator.games")}
            assert not bad, f"{module} imports {sorted(bad)}"


def test_the_board_drawing_modules_never_call_back_into_building(graph):
    building = {f"generator.track.{m}" for m in ("build", "load", "shape", "place", "features", "checks")}
    for drawing in ("board", "legend", "palette"):
        assert not graph[f"generator.track.{drawing}"] & building, drawing


def test_the_circuit_engine_imports_no_game(graph):
    """generator.track gives geometry and spaces; a game's rules come to it as a hook the caller passes."""
    for module, targets in graph.items():
        if module == "generator.track" or module.startswith("generator.track."):
            games = {t for t in targets if t == "generator.games" or t.startswith("generator.games.")}
            assert not games, (module, games)
