"""Paddock's per-user cache: its own YAML files (``templates/``, ``track_specs/``), kept parsed between runs.

Every command reads some of Paddock's own YAML (a game's facts, the shipped teams and circuits); parsing it meant
loading PyYAML and its loader on every run, ~5 % of a pack's time and of a ``check``'s. The cache keeps each file's
parse (its data and line numbers) under the file's whole text, so an edited file is simply a new entry; it also
records everything else a parse depends on (Paddock's YAML reader, PyYAML, Python's ``marshal`` format), and a new
version of any of them starts it afresh. Users' own files are never cached.

Where: ``$PADDOCK_CACHE_DIR``, else ``$XDG_CACHE_HOME/paddock``, else ``~/.cache/paddock`` (on Windows
``%LOCALAPPDATA%\\paddock\\cache``). ``PADDOCK_CACHE_DIR=`` (empty) turns it off. It is only ever a shortcut: a
cache that cannot be read or written, or one another user could have written, is ignored; deleting it is safe.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

ENV = "PADDOCK_CACHE_DIR"
#: Parses kept in one file at most (the oldest go first): an edited file leaves its old entry behind.
MAX_ENTRIES = 200
#: The largest cache file read (bytes); Paddock's own YAML, its text and its parse, is ~0.2 MB.
MAX_BYTES = 8 * 1024 * 1024
FILE = "parsed-yaml.marshal"


def cache_dir() -> Path | None:
    """The cache folder (not created here), or None when the cache is off."""
    value = os.environ.get(ENV)
    if value is not None:
        return Path(value).expanduser() if value.strip() else None
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "paddock" / "cache"
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "paddock"


class ParsedYaml:
    """Parses of Paddock's own YAML by text: :meth:`get` one, :meth:`put` one just made (written at once). The
    file holds the stamp it was made under (see :func:`_stamp`) and its entries keyed by the files' whole text:
    no digest to compute (``hashlib`` alone took longer to load than the lookups it would key)."""

    def __init__(self, folder: Path | None, stamp: str) -> None:
        self.path = folder / FILE if folder is not None else None
        self.stamp = stamp
        self._entries: dict[str, bytes] | None = None

    def _load(self) -> dict[str, bytes]:
        if self._entries is None:
            self._entries = {}
            if self.path is not None:
                with contextlib.suppress(OSError, ValueError, EOFError, TypeError):  # missing or damaged: start afresh
                    self._entries = _read(self.path, self.stamp)
        return self._entries

    def get(self, text: str) -> tuple[Any, dict] | None:
        """``(data, lines)`` as the text parsed before, or None."""
        blob = self._load().get(text)
        if blob is None:
            return None
        try:
            data, lines = marshal.loads(blob)
        except (ValueError, EOFError, TypeError):
            return None
        return data, dict(lines)

    def put(self, text: str, data: Any, lines: dict) -> None:
        """Keep this parse, and write the cache (a cache that cannot be written is no error)."""
        try:
            blob = marshal.dumps((data, tuple(lines.items())))
        except ValueError:  # a value marshal does not hold (a YAML date…): parsed every time, as before
            return
        entries = self._load()
        entries[text] = blob
        while len(entries) > MAX_ENTRIES:
            del entries[next(iter(entries))]
        if self.path is not None:
            with contextlib.suppress(OSError):
                _write(self.path, (self.stamp, entries))


def _read(path: Path, stamp: str) -> dict[str, bytes]:
    """The entries of the cache file, if this user wrote it (a file others may write could say anything) under
    ``stamp``; else none."""
    with open(path, "rb") as f:
        info = os.fstat(f.fileno())
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            return {}
        if info.st_size > MAX_BYTES:
            return {}
        content = marshal.loads(f.read())
    if not (isinstance(content, tuple) and len(content) == 2 and content[0] == stamp):
        return {}
    entries = content[1]
    if not isinstance(entries, dict) or not all(type(k) is str and type(v) is bytes for k, v in entries.items()):
        return {}
    return entries


def _write(path: Path, content) -> None:
    """Replace the cache file at once (a reader sees the old file or the new one, never half of one)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()  # one left by a run that died here (a link is removed, never followed)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(marshal.dumps(content))
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


_PARSED: ParsedYaml | None = None


def parsed_yaml() -> ParsedYaml:
    """The cache of Paddock's own YAML for this process."""
    global _PARSED
    folder = cache_dir()
    if _PARSED is None or _PARSED.path is None or _PARSED.path.parent != folder:
        _PARSED = ParsedYaml(folder, _stamp() if folder is not None else "")
    return _PARSED


def _stamp() -> str:
    """What a parse depends on besides the text: Paddock's YAML reader and this module, PyYAML (the size and time
    of each of its files: the package is not loaded for this) and Python's marshal format. A cache made under
    another stamp is not read (and is replaced by the next file parsed)."""
    from importlib.util import find_spec

    parts = [f"python {sys.version_info[0]}.{sys.version_info[1]} marshal {marshal.version}"]
    spec = find_spec("yaml")
    places = [Path(__file__).parent / "specs.py", Path(__file__)]
    for where in (spec.submodule_search_locations or []) if spec else []:
        places += sorted(Path(e.path) for e in os.scandir(where) if e.is_file())
    for place in places:
        st = place.stat()
        parts.append(f"{place} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(parts)
