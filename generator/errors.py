"""User-facing errors.

Every problem a user can cause (a bad spec, a missing glyph, a circuit that does not fit) is raised as a
:class:`PaddockError` subclass. The CLI prints ``str(error)`` on one line and exits with ``error.exit_code``;
nothing else reaches the user, so the message must say where the fault is and what to change.
"""

from __future__ import annotations

import errno
from pathlib import Path

from .messages import said
from .paths import shown

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2  # bad input: a spec, an option, a string the font cannot draw
EXIT_GEOMETRY = 3  # the input is well-formed but the geometry does not fit / build


class PaddockError(Exception):
    """An error the user can fix. ``where`` and ``field`` locate it, ``hint`` says what to change."""

    exit_code = EXIT_INPUT

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = shown(self.file) + (f":{self.line}" if self.line else "")
        parts = []
        if where:
            parts.append(where)
        if self.field:
            parts.append(f"field '{self.field}'")
        head = ": ".join(parts)
        text = f"{head}: {self.message}" if head else self.message
        if self.hint:  # after one problem on its line; after a list of them (one a line), on a line of its own
            text += f"\n  {self.hint}" if "\n" in self.message else f" — {self.hint}"
        return text


class InputError(PaddockError):
    """Malformed or invalid input (spec files, options, text)."""

    exit_code = EXIT_INPUT


class OverrideError(InputError):
    """An override of a spec field (the command line's ``--lanes``, ``--fit`` …) the spec cannot take: ``key`` (a
    spec field) with ``value``, and why (``reason``).

    ``applies`` is False when the field means nothing for this spec (``smoothing`` on a spec made of segments);
    the command line re-words it with its own option names."""

    def __init__(self, key: str, value, reason: str, *, file, applies: bool = True) -> None:
        self.key, self.value, self.reason, self.applies = key, value, reason, applies
        if applies:
            super().__init__(f"override '{key}: {said(value)}': {reason}", file=file, field=key)
        else:
            super().__init__(f"'{key}' {reason}", file=file, field=key, hint=f"leave out the '{key}' override")


class GlyphError(InputError):
    """A string contains a character the bundled font cannot draw."""


class GeometryError(PaddockError):
    """Valid input whose geometry cannot be built or does not fit the paper."""

    exit_code = EXIT_GEOMETRY


#: What an OS error means, in the words a message about a user's file or folder uses.
OS_CAUSES = {
    errno.ENOSPC: "no space left on the disk",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted (a protected or immutable file?)",
    errno.ENAMETOOLONG: "the name is too long for the file system",
    errno.ENOTDIR: "a file is in the way where a folder should be",
    errno.EISDIR: "a folder is in the way where a file should be",
    errno.EEXIST: "something is already there",
    errno.ENOENT: "no such file or folder (or the file system takes no new files there)",
    errno.EXDEV: "it is on another disk",
    errno.EIO: "input/output error (a failing disk?)",
    errno.ELOOP: "a loop of symbolic links (a link that leads back to itself)",
}


def os_reason(err: BaseException) -> str:
    """Why an OS call failed, in a few words for a message ("no space left on the disk")."""
    if isinstance(err, OSError) and err.errno in OS_CAUSES:
        return OS_CAUSES[err.errno]
    if isinstance(err, OSError) and err.strerror:
        return err.strerror[0].lower() + err.strerror[1:]
    return str(err) or type(err).__name__
