"""Paddock's per-user cache: its own YAML files (``templates/``, ``track_specs/``) and fonts, kept parsed between runs.

Every command reads some of Paddock's own YAML (a game's facts, the shipped teams and circuits); parsing it meant
loading PyYAML and its loader on every run (10–16 ms, 2–4 % of a pack or a ``check``). The cache keeps each file's
parse (its data and line numbers) under the file's whole text, so an edited file is simply a new entry. The fonts'
parsed tables (see :func:`generator.fonts._cached_face`) are kept the same way, under the font file's name, size
and checksum. Each cache file is made under a stamp of everything else its entries depend on (Paddock's YAML
reader or font code and the library beneath, by content or version; the Python reading them) and named for it, so
another install or Python sharing the folder keeps a file of its own; beyond the :data:`KEEP_FILES` most recently
written of a cache, files of stamps no longer in use are removed. Users' own files are never cached.

Where: ``$PADDOCK_CACHE_DIR``, else ``$XDG_CACHE_HOME/paddock``, else ``~/.cache/paddock`` (on Windows
``%LOCALAPPDATA%\\paddock\\cache``). ``PADDOCK_CACHE_DIR=`` (empty) turns it off. It is only ever a shortcut: a
cache file is checked whole (a checksum) before anything in it is read, and one that is damaged, cannot be read or
written, is not a plain file, or (POSIX) lies in a folder or file another user could write, is ignored — never an
error. Deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
import zlib
from pathlib import Path
from typing import Any

ENV = "PADDOCK_CACHE_DIR"
#: The largest cache file read (bytes): Paddock's own YAML, text and parse, is ~0.3 MB; a font's tables ~0.17 MB.
MAX_BYTES = 32 * 1024 * 1024
YAML_FILE = "parsed-yaml"  # the stems of the cache files: each file is named STEM-<its stamp's CRC-32>.marshal
FONTS_FILE = "parsed-fonts"
#: Files kept per cache (the most recently written): two installs or Pythons sharing the folder each keep theirs.
KEEP_FILES = 4
#: A cache file: this, a CRC-32 of the rest (4 bytes, little-endian), then the marshalled (stamp, entries).
MAGIC = b"Paddock cache 1\n"


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
    """One cache file: entries (a key → marshal bytes) made under a stamp. :meth:`get` an entry, :meth:`put` one
    just made (the file is written at once); at most ``max_entries``, the oldest dropped first."""

    def __init__(self, folder: Path | None, name: str, stamp: str, max_entries: int = 200) -> None:
        self.path = folder / f"{name}-{zlib.crc32(stamp.encode()):08x}.marshal" if folder is not None else None
        self.stamp = stamp
        self.max_entries = max_entries
        self._entries: dict | None = None

    def _load(self) -> dict:
        if self._entries is None:
            self._entries = {}
            if self.path is not None:
                with contextlib.suppress(Exception):  # missing, foreign or damaged: start afresh
                    self._entries = _read(self.path, self.stamp)
        return self._entries

    def get(self, key) -> Any:
        """The value kept under ``key``, or None."""
        blob = self._load().get(key)
        if blob is None:
            return None
        try:
            return marshal.loads(blob)
        except Exception:  # the file's checksum held, so this is not damage; still only a miss
            return None

    def put(self, key, value) -> None:
        """Keep ``value`` (a value marshal cannot hold is not kept; a file that cannot be written is no error)."""
        try:
            blob = marshal.dumps(value)
        except ValueError:
            return
        entries = self._load()
        entries[key] = blob
        while len(entries) > self.max_entries:
            del entries[next(iter(entries))]
        if self.path is not None:
            with contextlib.suppress(OSError, ValueError):
                _write(self.path, (self.stamp, entries))


class ParsedYaml(Store):
    """Parses of Paddock's own YAML (data and line numbers) under the files' whole text: no digest to compute
    (``hashlib`` alone took longer to load than the lookups it would key)."""

    def get(self, text: str) -> tuple[Any, dict] | None:
        """``(data, lines)`` as the text parsed before, or None."""
        value = super().get(text)
        try:
            data, lines = value
            return data, dict(lines)
        except (TypeError, ValueError):
            return None

    def put(self, text: str, data: Any, lines: dict) -> None:
        super().put(text, (data, tuple(lines.items())))  # a YAML date, which marshal cannot hold: parsed every time


def _private(info: os.stat_result) -> bool:
    """Whether a file or folder is this user's own and no one else may write it (POSIX; elsewhere: yes)."""
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _read(path: Path, stamp: str) -> dict:
    """The entries of the cache file, if it is a plain file of this user's in a folder of this user's, whole (its
    checksum holds) and made under ``stamp``; else none. Opened without waiting (a pipe put there is refused, not
    waited on) and without following a link."""
    if not _private(os.stat(path.parent)):
        return {}
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _private(info) or info.st_size > MAX_BYTES:
            return {}
        raw = f.read(MAX_BYTES + 1)
    head = len(MAGIC) + 4
    if len(raw) < head or not raw.startswith(MAGIC):
        return {}
    payload = memoryview(raw)[head:]
    if int.from_bytes(raw[len(MAGIC) : head], "little") != zlib.crc32(payload):
        return {}
    content = marshal.loads(payload)
    if not (type(content) is tuple and len(content) == 2 and content[0] == stamp and type(content[1]) is dict):
        return {}
    entries = content[1]
    return entries if all(type(v) is bytes for v in entries.values()) else {}


def _write(path: Path, content) -> None:
    """Replace the cache file at once (a reader sees the old file or the new one, never half of one)."""
    folder = path.parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not _private(os.stat(folder)):
        return
    payload = marshal.dumps(content)
    tmp = folder / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    with contextlib.suppress(OSError):
        _prune(path)


def _prune(path: Path) -> None:
    """Beside a cache file just written: its cache's other files but the :data:`KEEP_FILES` newest (made under
    stamps no longer in use: an upgrade, an edit of Paddock's code), and temporaries an interrupted run left."""
    import time

    stem = path.name.rsplit("-", 1)[0] + "-"
    files, now = [], time.time()
    for entry in os.scandir(path.parent):
        name = entry.name
        if name.startswith(stem) and name.endswith(".marshal"):
            files.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
        elif (
            name.startswith("." + stem)
            and name.endswith(".tmp")
            and now - entry.stat(follow_symlinks=False).st_mtime > 3600  # an hour old: its run is over
        ):
            os.unlink(entry.path)
    for _, old in sorted(files, reverse=True)[KEEP_FILES:]:
        os.unlink(old)


_STORES: dict[tuple, Store] = {}  # (file stem, folder) -> its store for this process


def parsed_yaml() -> ParsedYaml:
    """The cache of Paddock's own YAML, parsed: it depends on Paddock's YAML reader (``specs.py`` and the
    ``messages.py`` it names keys with) and PyYAML."""
    here = Path(__file__).parent

    def depends() -> list[str]:
        return [_content(here / "specs.py"), _content(here / "messages.py"), _package("yaml", "PyYAML")]

    return _store(ParsedYaml, YAML_FILE, depends, 200)


def parsed_fonts() -> Store:
    """The cache of Paddock's fonts, parsed (see :func:`generator.fonts._cached_face`): it depends on Paddock's font
    module and reportlab's TrueType parser."""

    def depends() -> list[str]:
        import reportlab
        from reportlab.pdfbase import ttfonts

        here = Path(__file__).parent
        return [_content(here / "fonts.py"), _content(Path(ttfonts.__file__)), f"reportlab {reportlab.Version}"]

    return _store(Store, FONTS_FILE, depends, 8)


def _store(kind: type, name: str, depends, max_entries: int) -> Store:
    folder = cache_dir()
    store = _STORES.get((name, folder))
    if store is None:
        stamp = ""
        if folder is not None:
            try:
                stamp = _stamp(depends())
            except Exception:  # a dependency that cannot be read (a frozen build, an upgrade under way): no cache
                folder = None
        store = _STORES[(name, cache_dir())] = kind(folder, name, stamp, max_entries)
    return store


def _content(path: Path) -> str:
    """A file as a stamp names it: its name, size and checksum (its content, whatever its time says)."""
    data = path.read_bytes()
    return f"{path.name} {len(data)} {zlib.crc32(data):08x}"


def _package(name: str, dist: str) -> str:
    """An installed package as a stamp names it, found without importing it: its distribution's version (from
    its metadata folder's name) and each of its own files' name, size and time."""
    from importlib.util import find_spec

    spec = find_spec(name)
    parts = [name]
    for where in (spec.submodule_search_locations or []) if spec else []:
        parent = os.path.dirname(where)
        prefix = dist.lower().replace("-", "_") + "-"
        parts += sorted(e for e in os.listdir(parent) if e.lower().startswith(prefix) and e.endswith(".dist-info"))
        for entry in sorted(os.scandir(where), key=lambda e: e.name):
            if entry.is_file():
                st = entry.stat()
                parts.append(f"{entry.name} {st.st_size} {st.st_mtime_ns}")
    return " ".join(parts)


def _stamp(parts: list[str]) -> str:
    """What a cache's entries depend on besides their keys: ``parts``, this module, and the Python reading them
    (implementation and version, marshal's format, how long an integer it will read from text)."""
    digits = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    python = f"{sys.implementation.cache_tag} marshal {marshal.version} int digits {digits}"
    return "\n".join([python, _content(Path(__file__)), *parts])
