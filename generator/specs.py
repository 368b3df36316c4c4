"""Loading spec files (YAML) into validated pydantic models, with errors that name file, line and field.

    data, lines = load_yaml(path)
    model = validate(MyModel, data, path, lines)

``lines`` maps a key path such as ``("segments", 2, "radius")`` to its 1-based line in the file, so any
pydantic error (or a check made later, via :func:`located`) can point at the exact line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from .errors import InputError, PaddockError

KeyPath = tuple[str | int, ...]
T = TypeVar("T")


class LineMap(dict):
    """``{key path: line}``; :meth:`line` falls back to the nearest enclosing key that has a line."""

    def line(self, path: Sequence[str | int]) -> int | None:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), None)


def _walk(node, path: KeyPath, lines: LineMap):
    import yaml

    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            lines[(*path, key)] = key_node.start_mark.line + 1
            _walk(value_node, (*path, key), lines)
            lines[(*path, key)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), lines)


def load_yaml(path: str | Path) -> tuple[Any, LineMap]:
    """Parse a YAML file; a syntax error becomes an :class:`InputError` with its line."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", file=path, hint="check the path") from None
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text ({err.reason})", file=path, hint="save the file as UTF-8") from None
    except OSError as err:
        raise InputError(f"cannot read the file ({err.strerror})", file=path) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        raise InputError(
            f"YAML syntax: {err.problem or err.context}",
            file=path,
            line=mark.line + 1 if mark else None,
            hint="check indentation, colons and quotes on that line",
        ) from None
    except yaml.YAMLError as err:
        raise InputError(f"YAML: {err}", file=path) from None
    lines = LineMap()
    if node is not None:
        _walk(node, (), lines)
    return data, lines


def field_name(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validate(model: type[T], data: Any, path: str | Path, lines: LineMap | None = None) -> T:
    """``model.model_validate(data)``, turning the first validation error into a located InputError."""
    from pydantic import ValidationError

    lines = lines or LineMap()
    if data is None:
        raise InputError("the file is empty", file=path, hint="see the README for the spec format")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errs = exc.errors(include_url=False)
        # A misspelt key is the root cause of the 'required' error that comes with it: report it first.
        errs.sort(key=lambda e: e["type"] != "extra_forbidden")
        err = errs[0]
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        msg = err["msg"].removeprefix("Value error, ")
        extra = f" (and {len(errs) - 1} more problem(s))" if len(errs) > 1 else ""
        hint = None
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
            hint = "check the spelling; the README lists every field"
            if len(errs) > 1 and errs[1]["type"] == "missing" and tuple(errs[1]["loc"][:-1]) == loc[:-1]:
                hint = f"did you mean '{errs[1]['loc'][-1]}'?"
        elif err["type"] == "missing":
            msg = "this field is required"
        elif "input" in err and not isinstance(err["input"], dict | list):
            hint = f"got {err['input']!r}"
        raise InputError(
            msg + extra, file=path, line=lines.line(loc), field=field_name(loc) or None, hint=hint
        ) from None


def located(error: PaddockError, path: str | Path, lines: LineMap, loc: Sequence[str | int]) -> PaddockError:
    """Attach file, line and field to an error raised by a later check (e.g. geometry)."""
    error.file = str(path)
    error.line = lines.line(loc)
    error.field = field_name(loc) or error.field
    return error
