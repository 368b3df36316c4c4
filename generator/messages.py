"""How Paddock shows a user's values in a message: quoted, at most ~60 characters of them, control and format
characters (ESC, newlines, bidi overrides …) written as escapes, so every message stays one harmless line."""

from __future__ import annotations

import unicodedata
from typing import Any


def escape(text: str) -> str:
    """``text`` with control and format characters (ESC, newlines, bidi overrides …) written as escapes, so a
    message about it stays one harmless line on a terminal."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") and ch not in "\u200d":
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def quote(value: Any, limit: int = 60) -> str:
    """A user's value for a message: in quotes, control characters escaped, at most ``limit`` characters of it
    (a longer one is cut and says how long it was)."""
    if not isinstance(value, str):  # a number, true/false, null: as YAML would show it, no quotes
        text = escape(key_name(value) if value is None or isinstance(value, bool) else repr(value))
        return text if len(text) <= limit else text[: limit - 1] + "…"
    text = value
    n = len(text)
    if n > limit:
        text = text[: limit - 1]
    text = escape(text)
    return f"'{text}…' ({n:,} characters)" if n > limit else f"'{text}'"


def key_name(key: Any) -> str:
    """A mapping key as the YAML wrote it: ``null``, ``true``, ``3``."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)
