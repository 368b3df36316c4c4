"""Output file names: a file-name stem of any script (:func:`safe_name`), a path that stays in its folder
(:func:`inside`), and what a file system that ignores case sees of a name (:func:`name_key`)."""

from __future__ import annotations

import errno
import re
import unicodedata
from pathlib import Path

from ..errors import InputError
from .files import output_error, short

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
        raise InputError(f"output name {short(relative)} points outside the output folder")
    return target


def name_key(relative: str) -> str:
    """What a file system that ignores case and Unicode normalisation (macOS, Windows) sees of a name."""
    return unicodedata.normalize("NFC", relative).casefold()
