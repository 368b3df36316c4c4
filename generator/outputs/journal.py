"""A commit's journal: the plan of an output set's commit, written before any temporary exists, so that a run
killed at any point (power cut, ``kill -9``) is undone — or finished — by the next run into the folder
(:func:`recover`), and so that Paddock removes no temporary or backup its journal did not name.

``.paddock-commit.json`` lists each target, the temporary its new file is written to, the backup its old file is
moved to (or null) and the keyed digest of the new file (:mod:`generator.outputs.digests`); and each stale file
with its backup. ``.paddock-commit.done`` marks the commit point: from there on the new set stands and only its
backups are left to remove. Without the mark a journal is rolled back: every backup put back, every new file the
killed run moved into place removed (only if it holds the digest the journal recorded: changed since, it is kept),
every temporary named removed.

A journal is only a plan, and anything could have written it: recovery touches nothing but regular files inside
the folder (every path checked after resolving links) that bear the names Paddock gives its temporaries and
backups (:func:`generator.outputs.files.is_temp_of`), and reads at most :data:`MAX_JOURNAL_BYTES` and
:data:`MAX_ENTRIES` entries of it. Anything else it names is left alone, and a notice says how many.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from .digests import file_digest
from .files import discard, is_temp_of, regular, replaceable, short

JOURNAL = ".paddock-commit.json"
DONE = ".paddock-commit.done"
#: The largest journal read back: a plan names each file of one run (a pack: ~30, a tiled board: ~100), ~200
#: bytes each.
MAX_JOURNAL_BYTES = 1024 * 1024
#: The most entries of a journal read back (more, and it is not a plan Paddock wrote: nothing of it is done).
MAX_ENTRIES = 5000


class Lock:
    """An advisory lock on the output folder for the length of a commit (where the OS has ``flock``)."""

    def __init__(self, folder: Path) -> None:
        self.fd = None
        try:
            import fcntl

            self.fd = os.open(folder, os.O_RDONLY)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (ImportError, OSError):
            self.release()

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)  # closing drops the lock
            self.fd = None


def _create(path: Path, data: bytes) -> None:
    """``path`` made anew with ``data`` and flushed to disk: never through a link, never a file of another."""
    discard(path)  # a journal or mark left behind was recovered (or is a link someone put there): its name only
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def write(root: Path, plan, stale_plan, digests: dict) -> None:
    """The plan of a commit (see the module): written straight to its place before any temporary exists — a
    run killed while writing it leaves a journal that does not parse, and nothing it would have named."""
    rel = lambda p: None if p is None else Path(os.path.relpath(p, root)).as_posix()  # noqa: E731
    data = {
        "paddock": 2,
        "files": [[rel(p), rel(t), rel(b), digests.get(p)] for p, t, b in plan],
        "stale": [[rel(p), rel(b)] for p, b in stale_plan],
    }
    _create(root / JOURNAL, json.dumps(data).encode("utf-8"))


def mark_done(root: Path) -> None:
    """The commit point: the new set stands."""
    _create(root / DONE, b"")


def finish(root: Path) -> None:
    """The commit's journal and mark removed: the commit is over."""
    discard(root / JOURNAL)
    discard(root / DONE)


def _read(journal: Path):
    try:
        if not regular(journal) or journal.stat().st_size > MAX_JOURNAL_BYTES:
            return {}
        return json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}


def _items(plan, key: str) -> list:
    items = plan.get(key, []) if isinstance(plan, dict) else []
    return items if isinstance(items, list) else []


class _Within:
    """``root / rel`` for a journal entry, or None if it is not a plain relative path whose folder, links
    resolved, lies inside ``root``; each folder resolved once (a journal names a few folders, many times)."""

    def __init__(self, root: Path) -> None:
        self.root, self.real = root, Path(os.path.realpath(root))
        self.folders: dict[Path, bool] = {}

    def __call__(self, rel) -> Path | None:
        if not isinstance(rel, str) or not rel or "\0" in rel:
            return None
        p = Path(rel)
        if p.is_absolute() or p.anchor or any(part in ("..", ".", "") for part in p.parts):
            return None
        path = self.root / p
        ok = self.folders.get(path.parent)
        if ok is None:
            try:
                folder = Path(os.path.realpath(path.parent))
                ok = folder == self.real or self.real in folder.parents
            except (OSError, ValueError, RuntimeError):
                ok = False
            self.folders[path.parent] = ok
        return path if ok else None


def recover(root: Path) -> None:
    """Undo what a killed run left in ``root`` — or finish it, if it had passed its commit point (see the
    module). Nothing happens without a journal or a mark; nothing is removed that they do not name."""
    journal, done = root / JOURNAL, root / DONE
    if not (os.path.lexists(journal) or os.path.lexists(done)):
        return
    committed = os.path.lexists(done)
    plan = _read(journal)
    files, stale = _items(plan, "files"), _items(plan, "stale")
    if len(files) + len(stale) > MAX_ENTRIES:
        files, stale, ignored = [], [], len(files) + len(stale)
    else:
        ignored = 0
    within = _Within(root)
    checked, aside = [], []
    for entry in files:
        if not (isinstance(entry, list) and len(entry) == 4):
            ignored += 1
            continue
        t, tmp = within(entry[0]), within(entry[1])
        b = None if entry[2] is None else within(entry[2])
        digest = entry[3] if isinstance(entry[3], str) else None
        if t is None or not is_temp_of(t, tmp, "part") or (entry[2] is not None and not is_temp_of(t, b, "old")):
            ignored += 1
            continue
        checked.append((t, tmp, b, digest))
    for entry in stale:
        t, b = (within(e) for e in entry[:2]) if isinstance(entry, list) and len(entry) == 2 else (None, None)
        if t is None or not is_temp_of(t, b, "old"):
            ignored += 1
            continue
        aside.append((t, b))
    if committed:
        ignored += _forward(checked, aside)
    else:
        ignored += _back(checked, aside)
    for _, tmp, _, _ in checked:
        if regular(tmp):
            discard(tmp)
    finish(root)
    if ignored:
        from ..notices import warn

        warn(
            f"the unfinished commit left in {short(str(root), 120)} named {ignored} file(s) outside the folder "
            "or not Paddock's own; they were left alone"
        )


def _back(checked, aside) -> int:
    """Roll an unfinished commit back; the number of entries left alone."""
    ignored = 0
    for t, tmp, b, digest in reversed(checked):
        if b is not None and os.path.lexists(b):
            if regular(b) and replaceable(t):
                os.replace(b, t)  # the old file back
            else:
                ignored += 1
        elif b is None and not os.path.lexists(tmp) and regular(t):
            if digest is not None and file_digest(t) == digest:
                os.unlink(t)  # the new file the killed run had already moved into place
            else:
                ignored += 1  # not provably the killed run's file (changed since, or not Paddock's record): kept
    for t, b in aside:
        if os.path.lexists(b):
            if regular(b) and replaceable(t):
                os.replace(b, t)
            else:
                ignored += 1
    return ignored


def _forward(checked, aside) -> int:
    """Finish a commit that had passed its point: remove the backups it named; the number left alone."""
    ignored = 0
    for b in [b for _, _, b, _ in checked if b is not None] + [b for _, b in aside]:
        if regular(b):
            discard(b)
        elif os.path.lexists(b):
            ignored += 1
    return ignored
