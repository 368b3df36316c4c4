"""Where Paddock's shipped data lives: ``templates/`` (layouts, tables, rule texts) and ``track_specs/``.

In a source checkout they are the top-level folders; in an installed wheel they are inside the package as
``generator/_templates`` and ``generator/_track_specs``. Game facts are read from here, never typed into code.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent


def _find(name: str, installed: str) -> Path:
    for cand in (_HERE.parent / name, _HERE / installed):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"Paddock's {name}/ folder is missing from this installation")


def templates_dir() -> Path:
    return _find("templates", "_templates")


def track_specs_dir() -> Path:
    return _find("track_specs", "_track_specs")


@cache
def template(relative: str) -> Any:
    """A YAML file under templates/, parsed (cached: game facts are read once) with line numbers, keys given twice
    refused, by the loader for Paddock's own files (see :func:`generator.specs.parse_yaml`)."""
    from .specs import parse_yaml

    path = templates_dir() / relative
    return parse_yaml(path.read_text(encoding="utf-8"), path, trusted=True)[0]


def is_shipped(path: str | Path) -> bool:
    """Whether ``path`` is one of Paddock's own data files (under ``templates/`` or ``track_specs/``, links
    followed): what :func:`generator.specs.load_yaml` may read as ``trusted``."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):
        return False
    return any(real.is_relative_to(d) for d in _data_dirs())


@cache
def _data_dirs() -> tuple[Path, ...]:
    return templates_dir().resolve(), track_specs_dir().resolve()
