"""User-facing errors.

Every problem a user can cause (a bad spec, a missing glyph, a circuit that does not fit) is raised as a
:class:`PaddockError` subclass. The CLI prints ``str(error)`` on one line and exits with ``error.exit_code``;
nothing else reaches the user, so the message must say where the fault is and what to change.
"""

from __future__ import annotations

from pathlib import Path

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
            where = self.file + (f":{self.line}" if self.line else "")
        parts = []
        if where:
            parts.append(where)
        if self.field:
            parts.append(f"field '{self.field}'")
        head = ": ".join(parts)
        text = f"{head}: {self.message}" if head else self.message
        if self.hint:
            text += f" — {self.hint}"
        return text


class InputError(PaddockError):
    """Malformed or invalid input (spec files, options, text)."""

    exit_code = EXIT_INPUT


class GlyphError(InputError):
    """A string contains a character the bundled font cannot draw."""


class GeometryError(PaddockError):
    """Valid input whose geometry cannot be built or does not fit the paper."""

    exit_code = EXIT_GEOMETRY
