"""Writing output files: Paddock's temporaries and backups (named as no user names a file), new files written
and flushed to disk, one file written atomically (:func:`atomic_write`), and the output-location errors (exit 2).

Every temporary (a new file being written) and backup (an old file moved aside while a set is committed) is
named ``.NAME.paddock-0123456789abcdef.part`` / ``.old`` beside its target ``NAME``: 16 random hex digits drawn
for each, so no file a user made or could foresee bears the name, and nothing but the journal of the commit that
drew it ever names it (:mod:`generator.outputs.journal`). Paddock never removes a file for its name alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from pathlib import Path

from ..errors import InputError, os_reason
from ..messages import quote

#: The word in the name of every temporary and backup Paddock makes (``.NAME.paddock-<16 hex digits>.part``).
MARK = "paddock"


# ------------------------------------------------------------------------------------------------ write errors


def short(text: str, limit: int = 60) -> str:
    """A path or name in a message: quoted, at most ``limit`` characters of it."""
    return quote(text, limit)


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
    return InputError(f"cannot {doing} {short(str(path), 120)}: {os_reason(err)}", hint=hint)


def check_folder(folder: Path) -> None:
    """Refuse an output folder that is a file (or a device such as /dev/null) before anything is written."""
    with contextlib.suppress(OSError):
        st = folder.stat()
        if not stat.S_ISDIR(st.st_mode):
            raise InputError(
                f"the output folder {short(str(folder), 120)} is a file, not a folder",
                hint="give --out a folder (it is created if missing)",
            )


def check_target(path: Path) -> None:
    """Refuse to replace anything but a regular file (or a link): never a folder, a device such as /dev/null, a
    pipe or a socket — renaming over one would destroy it."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return  # nothing there (or unreadable: the write itself will say)
    if stat.S_ISDIR(mode):
        raise InputError(
            f"cannot write {short(str(path), 120)}: a folder of that name is in the way",
            hint="give a file name, or move the folder",
        )
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise InputError(
            f"cannot write {short(str(path), 120)}: it is a device, pipe or socket, not a file",
            hint="give the name of a file",
        )


# ---------------------------------------------------------------------------------------------------- folders


def mkdirs(folder: Path, created: list[Path]) -> None:
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


def remove_created(created: list[Path]) -> None:
    for p in reversed(created):
        with contextlib.suppress(OSError):
            p.rmdir()  # only if still empty


# ---------------------------------------------------------------------------------- temporaries and backups


def temp_name(target: Path, kind: str) -> Path:
    """A new name for a temporary (``kind`` 'part') or a backup ('old') of ``target``, beside it."""
    return target.with_name(f".{target.name}.{MARK}-{secrets.token_hex(8)}.{kind}")


_RANDOM = re.compile(r"[0-9a-f]{16}")


def is_temp_of(target: Path, other: Path | None, kind: str) -> bool:
    """Whether ``other`` is named as :func:`temp_name` names a temporary or backup of ``target``."""
    if other is None or other.parent != target.parent:
        return False
    prefix, suffix, name = f".{target.name}.{MARK}-", f".{kind}", other.name
    middle = name[len(prefix) : len(name) - len(suffix)]
    return name.startswith(prefix) and name.endswith(suffix) and _RANDOM.fullmatch(middle) is not None


def write_new(path: Path, data: bytes) -> None:
    """``data`` in a new file ``path`` (never one that exists, never through a link); the caller flushes it to
    disk (:func:`fsync`, :func:`sync_all`) before renaming it into place. Nothing is left on failure."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        discard(path)
        raise


def fsync(name: str | Path) -> None:
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_all(names: list[Path]) -> None:
    """Flush files to disk, several at once: a pack's twenty files flushed one after another waited on the disk
    twenty times (170 ms of a 0.8 s pack); flushed together, the file system commits them in one go. An error is
    raised with the index of the file it concerns in ``paddock_index``."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, min(8, len(names)))) as pool:
        futures = [pool.submit(fsync, n) for n in names]
    for i, done in enumerate(futures):
        err = done.exception()
        if err is not None:
            err.paddock_index = i
            raise err


def discard(path: str | Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def regular(path: Path) -> bool:
    """A regular file, not a link (nor a folder, a pipe, a device)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def replaceable(path: Path) -> bool:
    """Nothing there, or a regular file (never a link, a folder or a device)."""
    return not os.path.lexists(path) or regular(path)


# ------------------------------------------------------------------------------------------------- one file


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename: never a half-written file.

    A location problem (the path is a folder, the disk is full or read-only …) is an :class:`InputError`; a
    folder created for it is removed again when the write fails. (A run killed between the two leaves its
    temporary: one file, named as Paddock names them, which no later run removes on its name alone.)"""
    path = Path(path)
    check_target(path)
    created: list[Path] = []
    tmp = None
    try:
        mkdirs(path.parent, created)
        tmp = temp_name(path, "part")
        write_new(tmp, data)
        fsync(tmp)
        os.replace(tmp, path)
    except OSError as err:
        if tmp:
            discard(tmp)
        remove_created(created)
        raise output_error(err, path) from None
    except BaseException:
        if tmp:
            discard(tmp)
        remove_created(created)
        raise
