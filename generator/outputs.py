"""A run's output files: safe file names, atomic writes, and the output set written all or nothing.

An :class:`OutputSet` collects every file of a run as bytes, then commits them as one set:

1. every file is written to a temporary ``.NAME.XXXXXXXX.part`` beside its target and flushed to disk;
2. a journal (``.paddock-commit.json``) records the plan; each old target (and each stale file, below) is moved
   aside to ``.NAME.XXXXXXXX.old`` and the temporary renamed into its place;
3. the backups and the journal are removed.

A failure at any step rolls back what was done: every target is the old file again, no temporary is left and
no folder the run created stays behind. A run killed half-way (power cut, ``kill -9``) leaves its journal; the
next run into the same folder rolls it back first and removes stray temporaries (:func:`recover`), so the folder
always holds one complete set. Recovery trusts no journal: it touches only regular files inside the folder (links
resolved) named as Paddock names its temporaries and backups, and removes a target only if it holds the new
file's digest the journal recorded; anything else is left alone and said. An advisory lock on the folder (where
the OS has ``flock``) keeps two runs from committing into it at once. Each output folder keeps a manifest
(``.paddock-manifest.json``) of the files each *job* wrote (a command and what it made: ``pack formula-d:
formula-d/formula-d-print``, see :func:`generator.pipeline.job_name`); a later run of the same job removes the
files it wrote before and no longer writes (old tiles, extra scorecards) — and nothing else: a file that is not
in the job's list, whose content changed since Paddock wrote it, or that another job lists as its own, is never
touched. :func:`atomic_write` writes one file the same way (a temporary, then a rename).

Output locations the user got wrong (``--out`` a file, a read-only or full disk, a name too long …) are an
:class:`~generator.errors.InputError` (exit 2) naming the path and the cause.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
import tempfile
import unicodedata
from pathlib import Path

from .errors import InputError, os_reason

MANIFEST = ".paddock-manifest.json"
JOURNAL = ".paddock-commit.json"
_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.(part|old)$")  # what _write_temp / _aside name (mkstemp's 8 chars)


# ------------------------------------------------------------------------------------------------------- names

_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


def safe_name(name: str, default: str = "sheet") -> str:
    """A file-name stem of letters and digits of any script, '-', '_' and '.': no path parts, no leading dot,
    nothing a file system refuses ('Москва' stays 'Москва', 'Monza GP: 1/2?' becomes 'Monza-GP-1-2')."""
    text = unicodedata.normalize("NFC", str(name))
    text = "".join(ch if (ch.isalnum() or ch in "._-") else "-" for ch in text)
    text = re.sub(r"-{2,}", "-", text).strip("-._")
    text = text[:80].rstrip("-._")
    if text.split(".")[0].upper() in _WINDOWS_RESERVED:
        text += "-"
    return text or default


def inside(root: Path, relative: str) -> Path:
    """``root / relative`` with every part sanitised ('..', '/' and drive parts dropped): never outside ``root``."""
    parts = [safe_name(p) for p in Path(relative).parts if p not in ("", ".", "..") and p != Path(relative).anchor]
    target = root.joinpath(*(parts or ["sheet"]))
    try:
        root_r, target_r = root.resolve(), target.resolve()  # follows links: a link may not lead out either
    except OSError as err:
        raise output_error(err, target) from None
    except RuntimeError:  # Python before 3.13 says a loop of links so
        raise output_error(OSError(errno.ELOOP, "too many levels of symbolic links"), root) from None
    if not (target_r == root_r or root_r in target_r.parents):
        raise InputError(f"output name {_short(relative)} points outside the output folder")
    return target


def name_key(relative: str) -> str:
    """What a file system that ignores case and Unicode normalisation (macOS, Windows) sees of a name."""
    return unicodedata.normalize("NFC", relative).casefold()


def _short(text: str, limit: int = 60) -> str:
    from .messages import quote

    return quote(text, limit)


# ------------------------------------------------------------------------------------------------ write errors


def output_error(err: OSError, path: str | Path, doing: str = "write") -> InputError:
    """An OSError while writing output, as one line naming the path and the cause (exit 2)."""
    hint = {
        errno.ENOSPC: "free some space or choose another --out",
        errno.EDQUOT: "free some space or choose another --out",
        errno.EROFS: "choose a writable --out folder",
        errno.EACCES: "choose a folder you can write to",
        errno.ENAMETOOLONG: "choose a shorter --out path",
        errno.ENOTDIR: "choose another --out folder",
    }.get(err.errno, "choose another --out folder")
    return InputError(f"cannot {doing} {_short(str(path), 120)}: {os_reason(err)}", hint=hint)


def _check_folder(folder: Path) -> None:
    """Refuse an output folder that is a file (or a device such as /dev/null) before anything is written."""
    with contextlib.suppress(OSError):
        st = folder.stat()
        if not stat.S_ISDIR(st.st_mode):
            raise InputError(
                f"the output folder {_short(str(folder), 120)} is a file, not a folder",
                hint="give --out a folder (it is created if missing)",
            )


# ----------------------------------------------------------------------------------------------- file writing


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mkdirs(folder: Path, created: list[Path]) -> None:
    """Create ``folder`` and its missing parents, recording each one created (to remove on failure)."""
    missing = []
    p = folder
    while not p.exists():
        if p.is_symlink():  # a dangling link: mkdir would fail with a confusing 'exists'
            raise OSError(errno.ENOENT, "dangling link", str(p))
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for p in reversed(missing):
        try:
            p.mkdir()
        except FileExistsError:
            if not p.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(p)) from None
            continue
        created.append(p)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(folder))


def _remove_created(created: list[Path]) -> None:
    for p in reversed(created):
        with contextlib.suppress(OSError):
            p.rmdir()  # only if still empty


def _write_temp(path: Path, data: bytes) -> str:
    """``data`` in a new temporary beside ``path``; the caller flushes it to disk (:func:`_fsync`,
    :func:`_sync_all`) before renaming it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        _discard(tmp)
        raise
    return tmp


def _fsync(name: str) -> None:
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_all(names: list[str]) -> None:
    """Flush files to disk, several at once: a pack's twenty files flushed one after another waited on the disk
    twenty times (170 ms of a 0.8 s pack); flushed together, the file system commits them in one go. An error is
    raised with the index of the file it concerns in ``paddock_index``."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, min(8, len(names)))) as pool:
        futures = [pool.submit(_fsync, n) for n in names]
    for i, done in enumerate(futures):
        err = done.exception()
        if err is not None:
            err.paddock_index = i
            raise err


def _discard(tmp: str | Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _check_target(path: Path) -> None:
    """Refuse to replace anything but a regular file (or a link): never a folder, a device such as /dev/null, a
    pipe or a socket — renaming over one would destroy it."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return  # nothing there (or unreadable: the write itself will say)
    if stat.S_ISDIR(mode):
        raise InputError(
            f"cannot write {_short(str(path), 120)}: a folder of that name is in the way",
            hint="give a file name, or move the folder",
        )
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise InputError(
            f"cannot write {_short(str(path), 120)}: it is a device, pipe or socket, not a file",
            hint="give the name of a file",
        )


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename: never a half-written file.

    A location problem (the path is a folder, the disk is full or read-only …) is an :class:`InputError`; a
    folder created for it is removed again when the write fails."""
    path = Path(path)
    _check_target(path)
    created: list[Path] = []
    tmp = None
    try:
        _mkdirs(path.parent, created)
        tmp = _write_temp(path, data)
        _fsync(tmp)
        os.replace(tmp, path)
    except OSError as err:
        if tmp:
            _discard(tmp)
        _remove_created(created)
        raise output_error(err, path) from None
    except BaseException:
        if tmp:
            _discard(tmp)
        _remove_created(created)
        raise


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _file_digest(path: Path) -> str | None:
    """The digest of a regular file (never a link), read in pieces; None for anything else."""
    if not _regular(path):
        return None
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()[:16]
    except OSError:
        return None


class _Lock:
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


def recover(root: Path) -> None:
    """Undo what a killed run left in ``root``: roll back an unfinished commit (its journal says how), then
    remove stray temporaries (``.NAME.XXXXXXXX.part`` / ``.old``) in the folders it wrote to.

    A journal is only a plan, and anything could have written it: recovery touches nothing but regular files
    inside ``root`` (every path checked after resolving links) that are Paddock's own — a temporary or a backup
    named as :func:`_write_temp` / :func:`_aside_name` name them beside their target, and a target only to put
    its backup back, or to remove the new file the journal's digest says the killed run moved there. Any other
    entry is left alone, and a notice says how many."""
    journal = root / JOURNAL
    folders = {root}
    if journal.is_file() or journal.is_symlink():
        plan = _read_journal(journal)
        real = Path(os.path.realpath(root))
        files = _entries(plan, "files", (3, 4))
        stale = _entries(plan, "stale", (2, 3))
        ignored = len(_items(plan, "files")) - len(files) + len(_items(plan, "stale")) - len(stale)
        checked = []
        for entry in files:
            t, tmp, b = (_within(root, real, p) for p in entry[:3])
            digest = entry[3] if len(entry) == 4 and isinstance(entry[3], str) else None
            if t is None or tmp is None or not _own(t, tmp, "part") or (entry[2] is not None and not _own(t, b, "old")):
                ignored += 1
                continue
            checked.append((t, tmp, b, digest))
        for t, tmp, b, digest in reversed(checked):
            folders.add(t.parent)
            if b is not None and os.path.lexists(b):
                if _regular(b) and _replaceable(t):
                    os.replace(b, t)  # the old file back
                else:
                    ignored += 1
            elif b is None and not os.path.lexists(tmp) and _regular(t):
                if digest is not None and _file_digest(t) == digest:
                    os.unlink(t)  # the new file the killed run had already moved into place
                else:
                    ignored += 1  # not provably the killed run's file (changed since, or an older journal): kept
        for entry in stale:
            t, b = (_within(root, real, p) for p in entry[:2])
            if t is None or b is None or not _own(t, b, "old"):
                ignored += 1
                continue
            if os.path.lexists(b):
                if _regular(b) and _replaceable(t):
                    os.replace(b, t)
                    folders.add(t.parent)
                else:
                    ignored += 1
        for _, tmp, _, _ in checked:
            if _regular(tmp):
                _discard(tmp)
        _discard(journal)
        if ignored:
            from .notices import warn

            warn(
                f"the unfinished commit left in {_short(str(root), 120)} named {ignored} file(s) outside the folder "
                "or not Paddock's own; they were left alone"
            )
    for folder in folders:
        _sweep(folder)


#: The largest commit journal read back: a plan names each file of one run (a pack: ~30, a tiled board: ~100).
MAX_JOURNAL_BYTES = 4 * 1024 * 1024


def _read_journal(journal: Path):
    try:
        if journal.is_symlink() or journal.stat().st_size > MAX_JOURNAL_BYTES:
            return {}
        return json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}


def _items(plan, key: str) -> list:
    items = plan.get(key, []) if isinstance(plan, dict) else []
    return items if isinstance(items, list) else []


def _entries(plan, key: str, sizes: tuple[int, ...]) -> list:
    return [e for e in _items(plan, key) if isinstance(e, list) and len(e) in sizes]


def _within(root: Path, real: Path, rel) -> Path | None:
    """``root / rel`` for a journal entry, or None if it is not a plain relative path whose folder, links
    resolved, lies inside ``root`` (``real``: ``root`` resolved)."""
    if not isinstance(rel, str) or not rel or "\0" in rel:
        return None
    p = Path(rel)
    if p.is_absolute() or p.anchor or any(part in ("..", ".", "") for part in p.parts):
        return None
    path = root / p
    try:
        folder = Path(os.path.realpath(path.parent))
    except (OSError, ValueError, RuntimeError):
        return None
    if folder != real and real not in folder.parents:
        return None
    return path


def _own(target: Path, other: Path | None, kind: str) -> bool:
    """Whether ``other`` is named as Paddock names a temporary (``kind`` 'part') or a backup ('old') of
    ``target``: ``.NAME.XXXXXXXX.part`` in the same folder."""
    if other is None or other.parent != target.parent:
        return False
    prefix, suffix = f".{target.name}.", f".{kind}"
    name = other.name
    middle = name[len(prefix) : len(name) - len(suffix)]
    return name.startswith(prefix) and name.endswith(suffix) and re.fullmatch(r"[A-Za-z0-9_]{8}", middle) is not None


def _regular(path: Path) -> bool:
    """A regular file, not a link (nor a folder, a pipe, a device)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _replaceable(path: Path) -> bool:
    """Nothing there, or a regular file (never a link, a folder or a device)."""
    return not os.path.lexists(path) or _regular(path)


def _sweep(folder: Path) -> None:
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if _TEMP.match(entry.name) and entry.is_file(follow_symlinks=False):
                _discard(entry.path)


def _plain(rel: str) -> bool:
    """A manifest's file name as Paddock writes them: a relative path without '..'."""
    p = Path(rel)
    return bool(rel) and not p.is_absolute() and not p.anchor and ".." not in p.parts and "\0" not in rel


class OutputSet:
    """Files to write under one folder, committed together once everything has rendered.

    ``job`` names what wrote them (a pack, ``cars``, a board …): the folder's manifest remembers each job's
    files so a later run of the same job removes the ones it no longer writes."""

    def __init__(self, root: str | Path, job: str | None = None) -> None:
        self.root = Path(root)
        self.job = job
        self.files: dict[Path, bytes] = {}
        self._keys: dict[str, str] = {}

    def add(self, relative: str, data: bytes, source: str | None = None) -> Path:
        """Add one file; ``source`` says what it is ("the sheet 'Qualifying'"), for the message when two outputs
        would land on one file."""
        path = inside(self.root, relative)
        rel = path.relative_to(self.root).as_posix()
        key = name_key(rel)
        this = source or _short(relative)
        if key in self._keys:
            first = self._keys[key]
            said = f"{first} and {this}" if first != this else f"{first}, twice"
            raise InputError(
                f"two outputs of this run would both be written to {_short(rel)} ({said})",
                hint="give the sheets, drivers or circuits names that differ in more than case and punctuation",
            )
        self._keys[key] = this
        self.files[path] = data
        return path

    # -- the manifest

    def _manifest(self) -> dict:
        """``{job: {file: digest}}`` from the folder's manifest (nothing if it is missing, a link, too large or
        not what Paddock writes)."""
        path = self.root / MANIFEST
        try:
            if not _regular(path) or path.stat().st_size > MAX_JOURNAL_BYTES:
                return {}
            jobs = json.loads(path.read_text(encoding="utf-8")).get("jobs", {})
            return {
                str(k): {str(f): d for f, d in v.items() if isinstance(d, str)}
                for k, v in jobs.items()
                if isinstance(v, dict)
            }
        except (OSError, ValueError, AttributeError, TypeError, RecursionError):
            return {}

    def _stale(self, jobs: dict) -> list[Path]:
        """Files this job wrote last time, does not write now, that still hold what Paddock wrote — and that no
        other job lists as its own with that content (two commands that write one file share it: the one that
        stops writing it leaves it to the other)."""
        if self.job is None:
            return []
        now = {p.relative_to(self.root).as_posix() for p in self.files}
        others = {(f, d) for job, listed in jobs.items() if job != self.job for f, d in listed.items()}
        out = []
        for rel, digest in sorted(jobs.get(self.job, {}).items()):
            if rel in now or rel in (MANIFEST, JOURNAL) or (rel, digest) in others:
                continue
            try:
                path = inside(self.root, rel)
            except InputError:
                continue
            if path.relative_to(self.root).as_posix() == rel and _file_digest(path) == digest:
                out.append(path)
        return out

    def _jobs_after(self, jobs: dict, digests: dict[Path, str]) -> dict:
        """The manifest's jobs once this run is committed: this job's files now; every other job's as they were,
        less the files no longer there (a job none of whose files is left is dropped)."""
        root = self.root
        out = {}
        for job, listed in jobs.items():
            kept = {f: d for f, d in listed.items() if _plain(f) and os.path.lexists(root / f)}
            if kept and job != self.job:
                out[job] = kept
        out[self.job] = {p.relative_to(root).as_posix(): digests[p] for p in self.files}
        return out

    def commit(self) -> list[Path]:
        """Write every file as one set (see the module's description); return the paths written."""
        root = self.root
        _check_folder(root)
        for path in self.files:
            _check_target(path)
        created: list[Path] = []
        temps: list[tuple[Path, str]] = []
        done: list[tuple[Path, Path | None]] = []  # (target, backup) moved into place so far
        aside: list[tuple[Path, Path]] = []  # (stale file, backup)
        journal_written = False
        lock = None
        current: Path = root
        try:
            _mkdirs(root, created)
            lock = _Lock(root)
            recover(root)
            jobs = self._manifest()
            stale = self._stale(jobs)
            files = dict(self.files)
            digests = {p: _digest(d) for p, d in self.files.items()}  # what the manifest and the journal record
            if self.job is not None:
                jobs = self._jobs_after(jobs, digests)
                files[root / MANIFEST] = (
                    json.dumps({"paddock": 1, "jobs": jobs}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
                ).encode("utf-8")
            for path in files:
                current = path
                _mkdirs(path.parent, created)
                _sweep(path.parent)
            for path, data in files.items():
                current = path
                temps.append((path, _write_temp(path, data)))
            try:
                _sync_all([tmp for _, tmp in temps])  # every file on disk before the journal names it
            except OSError as err:
                current = temps[getattr(err, "paddock_index", 0)][0]
                raise
            plan = []
            for path, tmp in temps:
                backup = None
                if path.exists() or path.is_symlink():
                    backup = _aside_name(path)
                plan.append((path, tmp, backup))
            stale_plan = [(p, _aside_name(p)) for p in stale]
            current = root / JOURNAL
            if root / MANIFEST in files:
                digests[root / MANIFEST] = _digest(files[root / MANIFEST])
            _write_journal(root, plan, stale_plan, digests)
            journal_written = True
            for path, tmp, backup in plan:
                current = path
                if backup is not None:
                    os.replace(path, backup)
                done.append((path, backup))
                os.replace(tmp, path)
            for path, backup in stale_plan:
                current = path
                os.replace(path, backup)
                aside.append((path, backup))
        except BaseException as err:
            _rollback(done, aside, temps)
            if journal_written:
                _discard(root / JOURNAL)
            _remove_created(created)
            if lock:
                lock.release()
            if isinstance(err, OSError):
                raise output_error(err, current) from None
            raise
        _discard(root / JOURNAL)  # the commit point: from here on a later run keeps the new set
        for _, backup in done:
            if backup is not None:
                _discard(backup)
        for _, backup in aside:
            _discard(backup)
        if lock:
            lock.release()
        return [p for p, _ in temps if p.name != MANIFEST or p.parent != root]


def _aside_name(path: Path) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent)
    os.close(fd)
    os.unlink(name)  # only the unique name is wanted; os.replace creates it
    return Path(name)


def _write_journal(root: Path, plan, stale_plan, digests: dict) -> None:
    """The plan of a commit: each target, its temporary, its backup (or null) and the digest of the new file
    (what :func:`recover` may remove: only a file that still holds it)."""
    rel = lambda p: None if p is None else Path(os.path.relpath(p, root)).as_posix()  # noqa: E731
    data = {
        "files": [[rel(p), rel(t), rel(b), digests[p]] for p, t, b in plan],
        "stale": [[rel(p), rel(b)] for p, b in stale_plan],
    }
    path = root / JOURNAL
    tmp = _write_temp(path, json.dumps(data).encode("utf-8"))
    try:
        _fsync(tmp)
    except BaseException:
        _discard(tmp)
        raise
    os.replace(tmp, path)


def _rollback(done, aside, temps) -> None:
    """Put every old file back, remove every new one and every temporary (best effort: each step on its own)."""
    for path, backup in reversed(aside):
        with contextlib.suppress(OSError):
            os.replace(backup, path)
    for path, backup in reversed(done):
        with contextlib.suppress(OSError):
            if backup is not None:
                if os.path.lexists(backup):
                    os.replace(backup, path)
            else:
                os.unlink(path)
    for _, tmp in temps:
        _discard(tmp)
