"""The digests Paddock records of the files it writes — in an output folder's manifest (what a job wrote) and in a
commit's journal (what a killed run had moved into place) — keyed with a key only this user can read.

A digest is what lets Paddock remove a file: a stale file of a job's, a killed run's new file. Plain, anyone who
can read a user's file could write its digest into a manifest and have Paddock delete it; keyed, a record Paddock
did not write matches no file, and nothing is removed on its word. The key is made on first use (32 random bytes,
``$XDG_STATE_HOME/paddock/output-key`` or ``~/.local/state/paddock/output-key``, readable by its owner only).
Where there is no key (no home folder, a read-only one), digests are None: Paddock then removes no file by digest
(stale files stay; a killed run's new file stays), and keeps everything else it does.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import os
import re
import secrets
import stat
from pathlib import Path

KEY_FILE = "output-key"


def key_path() -> Path | None:
    """Where this user's key lives (None where there is no home folder)."""
    base = os.environ.get("XDG_STATE_HOME") or (os.environ.get("LOCALAPPDATA") if os.name == "nt" else None)
    if base:
        return Path(base) / "paddock" / KEY_FILE
    try:
        return Path.home() / ".local" / "state" / "paddock" / KEY_FILE
    except RuntimeError:
        return None


def _read_key(path: Path) -> bytes | None:
    with contextlib.suppress(OSError, ValueError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            text = path.read_text(encoding="ascii").strip()
            if re.fullmatch(r"[0-9a-f]{64}", text):
                return bytes.fromhex(text)
    return None


@functools.cache
def key() -> bytes | None:
    """This user's key, made on first use; None if it can be neither read nor made."""
    path = key_path()
    if path is None:
        return None
    found = _read_key(path)
    if found is not None:
        return found
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
    except OSError:  # made meanwhile by another run (read below), or no home to make it in
        pass
    return _read_key(path)


def digest(data: bytes) -> str | None:
    """The keyed digest of ``data`` (None without a key)."""
    k = key()
    return None if k is None else hmac.new(k, data, "sha256").hexdigest()[:32]


def file_digest(path: Path) -> str | None:
    """The keyed digest of a regular file (never a link), read in pieces; None for anything else, or without a
    key."""
    k = key()
    if k is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            mac = hmac.new(k, digestmod="sha256")
            while chunk := fh.read(1 << 20):
                mac.update(chunk)
        except OSError:
            return None
    return mac.hexdigest()[:32]
