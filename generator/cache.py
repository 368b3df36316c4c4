"""Paddock's per-user cache: its own YAML files (``templates/``, ``track_specs/``) and fonts, kept parsed between runs.

Every command reads some of Paddock's own YAML (a game's facts, the shipped teams and circuits); parsing it meant
loading PyYAML and its loader on every run (10–16 ms, 2–4 % of a pack or a ``check``). The cache keeps each file's
parse (its data and line numbers) under the file's whole text, so an edited file is simply a new entry; it also
records everything else a parse depends on (Paddock's YAML reader, PyYAML, Python's ``marshal`` format), and a new
version of any of them starts it afresh. Users' own files are never cached. The fonts' parsed tables (see
:func:`generator.fonts._cached_face`) are kept the same way, by font file (name, size and time).

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
YAML_FILE = "parsed-yaml.marshal"
FONTS_FILE = "parsed-fonts.marshal"


def cache_dir() -> Path | None:
    """The cache folder (not created here), or None when the cache is off (or there is no home to put it in)."""
    value = os.environ.get(ENV)
    try:
        if value is not None:
            return Path(value).expanduser() if value.strip() else None
        if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
            return Path(os.environ["LOCALAPPDATA"]) / "paddock" / "cache"
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "paddock"
    except (RuntimeError, KeyError, OSError):  # "~" with no HOME and no password entry for this user
        return None


class Store:
    """One cache file: entries (a key → marshal bytes) made under a stamp (what they depend on besides their key;
    a file made under another stamp is not read, and is replaced by the next entry made). :meth:`get` an entry,
    :meth:`put` one just made (the file is written at once)."""

    def __init__(self, folder: Path | None, name: str, stamp: str) -> None:
        self.path = folder / name if folder is not None else None
        self.stamp = stamp
        self._entries: dict | None = None

    def _load(self) -> dict:
        if self._entries is None:
            self._entries = {}
            if self.path is not None:
                with contextlib.suppress(OSError, ValueError, EOFError, TypeError):  # missing or damaged: start afresh
                    self._entries = _read(self.path, self.stamp)
        return self._entries

    def get(self, key) -> Any:
        """The value kept under ``key``, or None."""
        blob = self._load().get(key)
        if blob is None:
            return None
        try:
            return marshal.loads(blob)
        except (ValueError, EOFError, TypeError):
            return None

    def put(self, key, value) -> None:
        """Keep ``value`` (a value marshal cannot hold is not kept; a file that cannot be written is no error)."""
        try:
            blob = marshal.dumps(value)
        except ValueError:
            return
        entries = self._load()
        entries[key] = blob
        while len(entries) > MAX_ENTRIES:
            del entries[next(iter(entries))]
        if self.path is not None:
            with contextlib.suppress(OSError):
                _write(self.path, (self.stamp, entries))


class ParsedYaml(Store):
    """Parses of Paddock's own YAML (data and line numbers) under the files' whole text: no digest to compute
    (``hashlib`` alone took longer to load than the lookups it would key)."""

    def get(self, text: str) -> tuple[Any, dict] | None:
        """``(data, lines)`` as the text parsed before, or None."""
        value = super().get(text)
        if not (isinstance(value, tuple) and len(value) == 2):
            return None
        return value[0], dict(value[1])

    def put(self, text: str, data: Any, lines: dict) -> None:
        super().put(text, (data, tuple(lines.items())))  # a YAML date, which marshal cannot hold: parsed every time


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
    if not isinstance(entries, dict) or not all(type(v) is bytes for v in entries.values()):
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


_STORES: dict[str, Store] = {}


def parsed_yaml() -> ParsedYaml:
    """The cache of Paddock's own YAML, parsed: it depends on Paddock's YAML reader, PyYAML (the size and time of
    each of its files: the package is not loaded for this) and this module."""
    return _store(ParsedYaml, YAML_FILE, lambda: [Path(__file__).parent / "specs.py", *_package_files("yaml")])


def parsed_fonts() -> Store:
    """The cache of Paddock's fonts, parsed (see :func:`generator.fonts._ttfont`): it depends on Paddock's font
    module and reportlab's TrueType parser."""
    from reportlab.pdfbase import ttfonts

    return _store(Store, FONTS_FILE, lambda: [Path(__file__).parent / "fonts.py", Path(ttfonts.__file__)])


def _store(kind: type, name: str, depends) -> Store:
    folder = cache_dir()
    store = _STORES.get(name)
    if store is None or type(store) is not kind or store.path != (folder / name if folder is not None else None):
        store = _STORES[name] = kind(folder, name, _stamp(depends()) if folder is not None else "")
    return store


def _package_files(name: str) -> list[Path]:
    """The files of an installed package's own folder (not its subfolders), found without importing it."""
    from importlib.util import find_spec

    spec = find_spec(name)
    places: list[Path] = []
    for where in (spec.submodule_search_locations or []) if spec else []:
        places += sorted(Path(e.path) for e in os.scandir(where) if e.is_file())
    return places


def _stamp(places) -> str:
    """What a cache's entries depend on besides their keys: the files ``places`` (size and time), this module,
    and Python's marshal format."""
    parts = [f"python {sys.version_info[0]}.{sys.version_info[1]} marshal {marshal.version}"]
    for place in [Path(__file__), *places]:
        st = place.stat()
        parts.append(f"{place} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(parts)
