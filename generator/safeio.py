"""Safe output: sanitised names that never leave the output folder, and all-or-nothing writes.

Files are first rendered to bytes, then each is written to a temporary file beside its target and renamed over
it. A run that fails before :meth:`OutputSet.commit` writes nothing; the previous good files stay as they were.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import unicodedata
from pathlib import Path

from .errors import InputError


def safe_name(name: str, default: str = "sheet") -> str:
    """A file-name stem of ASCII letters, digits, '-', '_' and '.', with no path parts and no leading dot."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")
    text = re.sub(r"-{2,}", "-", text)
    return text[:80] or default


def inside(root: Path, relative: str) -> Path:
    """``root / relative`` with every part sanitised ('..', '/' and drive parts dropped): never outside ``root``."""
    parts = [safe_name(p) for p in Path(relative).parts if p not in ("", ".", "..") and p != Path(relative).anchor]
    target = root.joinpath(*(parts or ["sheet"]))
    root_r = root.resolve()
    if not (target.resolve() == root_r or root_r in target.resolve().parents):
        raise InputError(f"output name '{relative}' points outside the output folder")
    return target


def _write_temp(path: Path, data: bytes) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        _discard(tmp)
        raise
    return tmp


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _discard(tmp: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename: never a half-written file."""
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise


class OutputSet:
    """Files to write under one folder, committed together once everything has rendered."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.files: dict[Path, bytes] = {}

    def add(self, relative: str, data: bytes) -> Path:
        path = inside(self.root, relative)
        self.files[path] = data
        return path

    def commit(self) -> list[Path]:
        """Write every file to a temporary beside its target, then rename them all into place.

        If any temporary cannot be written (disk full, permissions) none of the targets is touched.
        """
        temps: list[tuple[str, Path]] = []
        try:
            for path, data in self.files.items():
                temps.append((_write_temp(path, data), path))
        except BaseException:
            for tmp, _ in temps:
                _discard(tmp)
            raise
        for tmp, path in temps:
            os.replace(tmp, path)
        return [path for _, path in temps]
