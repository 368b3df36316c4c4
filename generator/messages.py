"""How Paddock shows a user's values in a message: quoted, at most ~60 characters of them, control and format
characters (ESC, newlines, bidi overrides …) written as escapes, so every message stays one harmless line."""

from __future__ import annotations

import unicodedata
from typing import Any

#: No line of a message is longer: a long value or path is cut in its middle, the fix kept whole (:func:`fit_line`).
LINE_MAX = 300


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
    (a longer one is cut and says how long it was). Anything but text as the user wrote it, never as Python
    shows it: a number, true/false, null, a date as YAML writes them, no quotes; binary data, a list or a
    mapping by what it is."""
    if not isinstance(value, str):
        return plain(value, limit)
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


def plain(value: Any, limit: int = 60) -> str:
    """A value that is not text, as the user wrote it (see :func:`quote`): ``12``, ``true``, ``null``,
    ``2011-01-01``; a number of more than ``limit`` digits by its first digits and its length; binary data, a
    list, a mapping by what it is."""
    import datetime

    if value is None or isinstance(value, bool):
        return key_name(value)
    if isinstance(value, int):
        digits = str(value)
        if len(digits) > limit:
            return f"{digits[:12]}… (a number of {len(digits.lstrip('-')):,} digits)"
        return digits
    if isinstance(value, float):
        text = repr(value)
        return text if len(text) <= limit else f"{value:.6g}"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray):
        return f"binary data ({len(value):,} bytes)"
    if isinstance(value, dict):
        return f"a mapping of {len(value):,} key(s)"
    if isinstance(value, list | tuple | set | frozenset):
        return f"a list of {len(value):,} item(s)"
    return f"a value of type {type(value).__name__}"


def said(value: Any, limit: int = 40) -> str:
    """A value as the user typed it after an option (``--fit 9``), no quotes: text escaped and cut to ``limit``
    characters, anything else as :func:`plain` says it."""
    if not isinstance(value, str):
        return plain(value, limit)
    digits = value.strip()
    if len(digits) > limit and digits.lstrip("+-").isdigit():  # a number typed: its first digits and its length
        return f"{digits[:12]}… (a number of {len(digits.lstrip('+-')):,} digits)"
    text = escape(value[: limit - 1] + "…" if len(value) > limit else value)
    return text


def fit_line(line: str) -> str:
    """``line`` in lines of at most :data:`LINE_MAX` characters, its problem never cut inside: first the middle
    of its longest words is cut (a word is a value the line quotes — a long path keeps its start and its file
    name and line; Paddock's own words are short); a line still too long has what to do (after its last " — ")
    on a line of its own, indented under it. Only a problem that is itself longer than a line loses its end."""
    if len(line) <= LINE_MAX:
        return line
    head, sep, fix = line.rpartition(" — ")
    if not sep or len(fix) > LINE_MAX - 100:
        head, sep, fix = line, "", ""
    room = LINE_MAX - len(sep) - len(fix)
    words = head.split(" ")
    while len(head) > room:
        i = max(range(len(words)), key=lambda k: len(words[k]))
        word = words[i]
        keep = max(40, len(word) - (len(head) - room) - 1)
        if keep + 1 >= len(word):
            break
        front = keep // 3
        words[i] = word[:front] + "…" + word[len(word) - (keep - front) :]
        head = " ".join(words)
    if len(head) + len(sep) + len(fix) <= LINE_MAX:
        return head + sep + fix
    if len(head) > LINE_MAX:
        head = head[: LINE_MAX - 1].rstrip() + "…"
    if not sep:
        return head
    indent = " " * (len(head) - len(head.lstrip()) + 2)
    return f"{head}\n{indent}— {fix}"
