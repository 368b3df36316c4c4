"""Where Paddock's own files are (``templates/``, ``track_specs/``: the top-level folders of a checkout, or
``generator/_templates`` and ``generator/_track_specs`` in an installed wheel), and how a message names one of them.
Pathlib only: the errors module names files through it, and everything imports the errors module."""

from __future__ import annotations

from functools import cache
from pathlib import Path

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


def is_shipped(path: str | Path) -> bool:
    """Whether ``path`` is one of Paddock's own data files (under ``templates/`` or ``track_specs/``, links
    followed): what :func:`generator.specs.load_yaml` may read as ``trusted``."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):
        return False
    return any(real.is_relative_to(d) for d in _data_dirs())


def shown(path: str | Path) -> str:
    """``path`` as a message names it: one of Paddock's own files (the default board a command chose) relative to
    the working folder when it holds it (``track_specs/formula-d-compact.yaml`` in a clone), else by its folder and
    name, never the installed package's absolute path; a path given relative (as typed) or not Paddock's, as it is."""
    if not Path(path).is_absolute():
        return str(path)  # as the user typed it
    try:
        real = Path(path).resolve()
        for folder, name in zip(_data_dirs(), ("templates", "track_specs"), strict=True):
            if real.is_relative_to(folder):
                here = Path.cwd().resolve()
                return (
                    str(real.relative_to(here))
                    if real.is_relative_to(here)
                    else f"{name}/{real.relative_to(folder).as_posix()}"
                )
    except (OSError, RuntimeError, ValueError):
        pass
    return str(path)


@cache
def _data_dirs() -> tuple[Path, ...]:
    return templates_dir().resolve(), track_specs_dir().resolve()
