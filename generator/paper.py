"""Paper sizes and orientation (ISO 216 and US), in millimetres."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError

# Exact sizes. US sizes are defined in inches; 8.5 in = 215.9 mm exactly.
SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "letter": (215.9, 279.4),
    "tabloid": (279.4, 431.8),
}

ORIENTATIONS = ("portrait", "landscape")


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: name and orientation. ``width``/``height`` are the page box in mm as it lies."""

    name: str = "a3"
    orientation: str = "landscape"

    def __post_init__(self) -> None:
        if self.name not in SIZES_MM:
            raise InputError(f"unknown paper '{self.name}'", field="paper", hint="use one of " + ", ".join(SIZES_MM))
        if self.orientation not in ORIENTATIONS:
            raise InputError(
                f"unknown orientation '{self.orientation}'",
                field="orientation",
                hint="use portrait or landscape",
            )

    @property
    def size(self) -> tuple[float, float]:
        short, long = SIZES_MM[self.name]
        return (long, short) if self.orientation == "landscape" else (short, long)

    @property
    def width(self) -> float:
        return self.size[0]

    @property
    def height(self) -> float:
        return self.size[1]

    def rotated(self) -> Paper:
        other = "portrait" if self.orientation == "landscape" else "landscape"
        return Paper(self.name, other)

    @property
    def label(self) -> str:
        return f"{self.name.upper() if self.name.startswith('a') else self.name.title()} {self.orientation}"


def parse_paper(text: str, default_orientation: str = "landscape") -> Paper:
    """Parse ``a3``, ``a3-landscape``, ``letter:portrait``, ``A4 portrait``."""
    raw = text.strip().lower().replace(":", " ").replace("-", " ").replace("_", " ").split()
    if not raw:
        raise InputError("empty paper name", field="paper", hint="use e.g. a3 or a4-portrait")
    name = raw[0]
    orientation = raw[1] if len(raw) > 1 else default_orientation
    if len(raw) > 2:
        raise InputError(f"cannot read paper '{text}'", field="paper", hint="use e.g. a3 or a4-portrait")
    return Paper(name, orientation)
