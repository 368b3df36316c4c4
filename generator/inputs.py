"""Bounded reading of a user's file: the one way Paddock reads specs, teams, players, results and centre-line CSVs.

:func:`read_bytes` / :func:`read_text` open without blocking, read only a *regular* file (never a pipe, a device
such as ``/dev/zero``, a socket or a folder) and at most ``limit`` bytes (:data:`MAX_INPUT_BYTES`; YAML has its
own, smaller cap in :mod:`generator.specs`), so no input can make Paddock wait forever or read without end.
Every problem is one :class:`~generator.errors.InputError` naming the file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from .errors import InputError, os_reason

#: The largest file Paddock reads (a centre-line CSV of ~1 million points); YAML has its own cap.
MAX_INPUT_BYTES = 32 * 1024 * 1024


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} kB"


def read_bytes(path: str | Path, *, limit: int = MAX_INPUT_BYTES, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; an :class:`InputError` otherwise."""
    with open_regular(path, limit=limit, what=what) as (fd, info):
        return read_open(fd, info, path, limit=limit, what=what)


@contextlib.contextmanager
def open_regular(path: str | Path, *, limit: int = MAX_INPUT_BYTES, what: str = "file"):
    """``(fd, stat)`` of the regular file ``path`` of at most ``limit`` bytes, opened for reading and closed on
    leaving; an :class:`InputError` for anything else (missing, a folder, a pipe or device, too large). A reader
    that does not take the bytes at once (numpy parsing a large centre line from the file) starts here."""
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: opening a FIFO without a writer returns at once
    except FileNotFoundError:
        raise InputError(f"{what} not found", file=path, hint="check the path") from None
    except IsADirectoryError:
        raise InputError(f"this is a folder, not a {what}", file=path, hint="give the path of a file") from None
    except PermissionError:
        raise InputError(f"cannot read the {what}: permission denied", file=path) from None
    except (OSError, ValueError) as err:
        raise InputError(f"cannot open the {what}: {os_reason(err)}", file=path) from None
    try:
        try:
            info = os.fstat(fd)
        except OSError as err:
            raise InputError(f"cannot read the {what}: {os_reason(err)}", file=path) from None
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"this is a folder, not a {what}", file=path, hint="give the path of a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                f"not a regular file (a pipe, device or socket): Paddock reads only regular {what}s",
                file=path,
                hint="save the data to a file and give its path",
            )
        if info.st_size > limit:
            raise InputError(
                f"the {what} is {_size(info.st_size)}; Paddock reads at most {_size(limit)}",
                file=path,
                hint="is this the right file?",
            )
        yield fd, info
    finally:
        os.close(fd)


def read_open(fd: int, info: os.stat_result, path, *, limit: int = MAX_INPUT_BYTES, what: str = "file") -> bytes:
    """The bytes of a file :func:`open_regular` opened, at most ``limit`` of them (a file growing meanwhile too)."""
    try:
        # the size fstat gave (and a byte more, to see the end) in one read: a 10 MB centre line is not read in
        # 1 MiB pieces and joined (10 -> 5 ms); a file that said 0 (/proc) or grew meanwhile is read on in pieces
        first = os.read(fd, min(info.st_size + 1, limit + 1))
        chunks, total = [first], len(first)
        while first and total <= limit:  # a file that grows while we read still stops at the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise InputError(f"the {what} is larger than the {_size(limit)} Paddock reads", file=Path(path))
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as err:
        raise InputError(f"cannot read the {what}: {os_reason(err)}", file=Path(path)) from None


def read_text(path: str | Path, *, limit: int = MAX_INPUT_BYTES, what: str = "file") -> str:
    """A UTF-8 text file (a leading byte-order mark is dropped), read through :func:`read_bytes`."""
    return decode_text(read_bytes(path, limit=limit, what=what), path)


#: What a file that is not text is, by its first bytes: a user who gives a preview or a PDF where a spec belongs.
BINARY_KINDS = {
    b"\x89PNG": "a PNG image",
    b"%PDF": "a PDF",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"PK\x03\x04": "a ZIP archive (or an office document)",
}


def decode_text(data: bytes, path: str | Path | None = None) -> str:
    """Bytes read from ``path`` as UTF-8 text (a leading byte-order mark dropped), or an error naming the line; a
    file that is no text at all (an image, a PDF: a NUL byte or their first bytes) is said to be that."""
    kind = next((k for magic, k in BINARY_KINDS.items() if data.startswith(magic)), None)
    if kind is None and b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):  # not UTF-16
        kind = "binary data"
    if kind is not None:
        raise InputError(
            f"this is {kind}, not a text file", file=path, hint="give the YAML or CSV file the command reads"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InputError(
            f"not UTF-8 text (byte 0x{data[err.start]:02x})", file=path, line=line, hint="save the file as UTF-8"
        ) from None

