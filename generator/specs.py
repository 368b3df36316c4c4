"""Loading spec files (YAML) into validated pydantic models, with errors that name file, line and field.

    data, lines = load_yaml(path)
    model = validate(MyModel, data, path, lines)

``lines`` maps a key path such as ``("segments", 2, "radius")`` to its 1-based line in the file, so any
pydantic error (or a check made later, via :func:`located`) can point at the exact line.

Every YAML file a user gives Paddock is read here, once, and bounded: the file through the shared reader
(:func:`generator.inputs.read_text`, at most :data:`MAX_YAML_BYTES`), then parsed with libyaml's C parser when
installed (the pure-Python one otherwise) into nodes that are *counted as they are built*: more than
:data:`MAX_YAML_NODES` values — aliases counted as the values they stand for, so a 1 kB "billion laughs" alias
bomb is refused at once — or nesting deeper than :data:`MAX_YAML_DEPTH` is an :class:`InputError`, as is a key
given twice in one mapping. Tags never run code (safe constructors only).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

from .errors import InputError, PaddockError
from .messages import escape, key_name, quote  # noqa: F401  (quote re-exported: messages about specs use it)

KeyPath = tuple[Any, ...]
T = TypeVar("T")

#: The largest YAML file Paddock reads (a spec with 10,000 inline points is ~250 kB).
MAX_YAML_BYTES = 2 * 1024 * 1024
#: The most values (scalars, lists, mappings; an alias counts as everything it stands for) in one YAML file.
MAX_YAML_NODES = 100_000
#: The deepest nesting of lists and mappings in a YAML file.
MAX_YAML_DEPTH = 40


# ------------------------------------------------------------------------------------------------ strict types


#: The largest number (either sign) any numeric field of a user's file takes; each field has its own, narrower,
#: range as well. YAML writes integers of any size (a 400-digit one is a typo, or a test), and Python's floats
#: hold none past ~1.8e308: refused once for every field (:func:`validate`), they never reach arithmetic that cannot
#: hold them.
MAX_POWER = 15
MAX_NUMBER = 10**MAX_POWER


def _too_large(value: Any) -> bool:
    """A number past :data:`MAX_NUMBER` (an infinity is not a number too large but no number: its own error)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and MAX_NUMBER < abs(value) < math.inf


def _before(value: Any) -> Any:
    """A number as the user wrote it, before its type: never true/false (a YAML ``lanes: true`` is an error, not
    1). Each field's own range says the rest ('less than or equal to 7'); integers past :data:`MAX_NUMBER` never
    get here (:func:`validate`)."""
    if isinstance(value, bool):
        raise ValueError("give a number here, not true/false")
    return value


def _before_int(value: Any) -> Any:
    """As :func:`_before`; a float for an integer field is never past :data:`MAX_NUMBER` either (1e300 said
    'exceeded maximum size')."""
    if isinstance(value, float) and _too_large(value):
        raise ValueError(f"a number far too large here (no field takes more than 10^{MAX_POWER})")
    return _before(value)


def _number(kind: type):
    from pydantic import BeforeValidator, Field

    if kind is int:  # (allow_inf_nan is for floats: on an int pydantic checks math.isfinite(), an OverflowError)
        return Annotated[int, BeforeValidator(_before_int)]
    return Annotated[kind, BeforeValidator(_before), Field(allow_inf_nan=False)]


def __getattr__(name: str):
    """``specs.Int`` / ``specs.Float``: numbers that refuse ``true``/``false`` (a YAML ``lanes: true`` is an error,
    not 1) and infinities; a number written as text (``1.5e3``, which YAML reads as a string) is still read.
    Built on first use so importing this module stays cheap."""
    if name == "Int":
        return _number(int)
    if name == "Float":
        return _number(float)
    raise AttributeError(name)


# ---------------------------------------------------------------------------------------------------- names


def clean_name(text: str) -> str:
    """A name as Paddock prints it: runs of white space (tabs, line breaks, no-break spaces) as one space, none
    at the ends. ValueError if nothing visible is left (a team called "   ", a player called a no-break space or
    a zero-width space)."""
    text = " ".join(str(text).split())
    if not name_key(text):
        raise ValueError("must not be blank")
    return text


def name_key(text: str) -> str:
    """What two names must differ in to be two people or two teams: not case ("Ferrari", "ferrari"), white space
    ("Ferrari "), Unicode normalisation (an "é" written as one character or two), nor invisible characters (a
    zero-width space). Letters of every script count ("Иван" and "Пётр" are two players)."""
    text = "".join(ch for ch in unicodedata.normalize("NFKC", str(text)) if unicodedata.category(ch) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


# ---------------------------------------------------------------------------------------------------- lines


class LineMap(dict):
    """``{key path: line}``; :meth:`line` falls back to the nearest enclosing key that has a line."""

    def line(self, path: Sequence[Any]) -> int | None:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), None)


class _Refused(Exception):
    """Raised inside the YAML loader: a limit was hit at ``line``."""

    def __init__(self, message: str, line: int | None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.hint = message, line, hint


def _loader_class(c_parser: bool = True):
    """The loader: libyaml's C parser (when PyYAML was built with it and ``c_parser``) or the pure-Python one,
    with the counting composer and the checking constructor below either way."""
    from yaml.composer import Composer
    from yaml.constructor import SafeConstructor
    from yaml.events import AliasEvent, MappingEndEvent, SequenceEndEvent
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode
    from yaml.resolver import Resolver

    try:  # libyaml's C parser: ~10x faster; the nodes are still built (and counted) here
        if not c_parser:
            raise ImportError
        from yaml.cyaml import CParser

        class _Parser(CParser):
            def __init__(self, text: str) -> None:
                CParser.__init__(self, text)

    except ImportError:  # PyYAML built without libyaml
        from yaml.parser import Parser
        from yaml.reader import Reader
        from yaml.scanner import Scanner

        class _Parser(Reader, Scanner, Parser):
            def __init__(self, text: str) -> None:
                Reader.__init__(self, text)
                Scanner.__init__(self)
                Parser.__init__(self)

    class _Counting(Composer):
        """Composer that counts nodes (an alias as the size of what it refers to) and nesting as it goes."""

        def __init__(self) -> None:
            Composer.__init__(self)
            self.nodes = 0
            self.depth = 0
            self.sizes: dict[int, int] = {}
            self.open: set[int] = set()  # collections being built: an alias to one of them is a loop

        def _add(self, n: int, mark) -> None:
            self.nodes += n
            if self.nodes > MAX_YAML_NODES:
                raise _Refused(
                    f"more than {MAX_YAML_NODES:,} values (an alias counts as all it repeats)",
                    mark.line + 1 if mark else None,
                    "Paddock refuses YAML this large; is this the right file?",
                )

        def compose_node(self, parent, index):
            mark = self.peek_event().start_mark
            if self.check_event(AliasEvent):
                node = Composer.compose_node(self, parent, index)
                if id(node) in self.open:
                    raise _Refused("an alias refers to the list or mapping that contains it (a loop)", mark.line + 1)
                self._add(self.sizes.get(id(node), 1), mark)
                return node
            self.depth += 1
            if self.depth > MAX_YAML_DEPTH:
                raise _Refused(f"nested deeper than {MAX_YAML_DEPTH} levels", mark.line + 1)
            start = self.nodes
            self._add(1, mark)
            node = Composer.compose_node(self, parent, index)
            self.depth -= 1
            self.sizes[id(node)] = self.nodes - start
            return node

        def compose_sequence_node(self, anchor):
            start_event = self.get_event()
            tag = start_event.tag
            if tag is None or tag == "!":
                tag = self.resolve(SequenceNode, None, start_event.implicit)
            node = SequenceNode(tag, [], start_event.start_mark, None, flow_style=start_event.flow_style)
            if anchor is not None:
                self.anchors[anchor] = node
            self.open.add(id(node))
            index = 0
            while not self.check_event(SequenceEndEvent):
                node.value.append(self.compose_node(node, index))
                index += 1
            node.end_mark = self.get_event().end_mark
            self.open.discard(id(node))
            return node

        def compose_mapping_node(self, anchor):
            start_event = self.get_event()
            tag = start_event.tag
            if tag is None or tag == "!":
                tag = self.resolve(MappingNode, None, start_event.implicit)
            node = MappingNode(tag, [], start_event.start_mark, None, flow_style=start_event.flow_style)
            if anchor is not None:
                self.anchors[anchor] = node
            self.open.add(id(node))
            while not self.check_event(MappingEndEvent):
                item_key = self.compose_node(node, None)
                item_value = self.compose_node(node, item_key)
                node.value.append((item_key, item_value))
            node.end_mark = self.get_event().end_mark
            self.open.discard(id(node))
            return node

    class _Constructor(SafeConstructor):
        """Safe constructor that refuses a key given twice and turns a value Python cannot hold into an error."""

        def __init__(self) -> None:
            SafeConstructor.__init__(self)
            self.keys: dict[int, Any] = {}  # id(key node) -> the key as constructed

        def construct_object(self, node, deep=False):
            try:
                return SafeConstructor.construct_object(self, node, deep)
            except (ValueError, OverflowError, TypeError) as err:
                what = "a number too long to hold" if "digits" in str(err) else escape(str(err))[:80]
                raise _Refused(f"cannot read this value: {what}", node.start_mark.line + 1) from None

        def construct_mapping(self, node, deep=False):
            if isinstance(node, MappingNode):
                seen: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue
                    key = self.construct_object(key_node, deep=True)
                    line = key_node.start_mark.line + 1
                    if isinstance(key_node, ScalarNode):
                        self.keys[id(key_node)] = key
                    try:
                        first = seen.get(key)
                        seen.setdefault(key, line)
                    except TypeError:
                        continue  # an unhashable key: PyYAML says so below
                    if first is not None:
                        raise _Refused(
                            f"the key {quote(key)} is given twice (lines {first} and {line})", line, "keep one of them"
                        )
            return SafeConstructor.construct_mapping(self, node, deep)

    class Loader(_Counting, _Parser, _Constructor, Resolver):  # _Counting first: its compose_* win
        def __init__(self, text: str) -> None:
            _Parser.__init__(self, text)
            _Counting.__init__(self)
            _Constructor.__init__(self)
            Resolver.__init__(self)

    return Loader


_LOADER = None
_SHIPPED_LOADER = None


def _loader(text: str, shipped: bool = False):
    global _LOADER, _SHIPPED_LOADER
    if shipped:
        if _SHIPPED_LOADER is None:
            _SHIPPED_LOADER = _shipped_loader_class()
        return _SHIPPED_LOADER(text)
    if _LOADER is None:
        _LOADER = _loader_class()
    return _LOADER(text)


def _shipped_loader_class():
    """The loader for Paddock's own YAML (``templates/``, ``track_specs/``): libyaml builds the nodes too (a third
    less time than building them here), with the same constructor (a key given twice is still refused) and the
    same line numbers. The limits the counting composer keeps (size, nesting, alias loops) guard against hostile
    input; libyaml's own composer recurses without a bound, so it never sees a user's file. Without libyaml: the
    ordinary loader."""
    base = _loader_class()
    try:
        from yaml.cyaml import CParser
    except ImportError:
        return base
    from yaml.resolver import Resolver

    constructor = next(c for c in base.__mro__ if c.__name__ == "_Constructor")

    class ShippedLoader(CParser, constructor, Resolver):
        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            constructor.__init__(self)
            Resolver.__init__(self)

    return ShippedLoader


#: Control characters no text a user gives may hold (C0 but tab and line breaks, DEL, C1): a NUL made SVG that is
#: not XML, an ESC or a BEL drew nothing and reached the terminal. Quoted YAML can write any of them ("\\0").
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _walk(node, path: KeyPath, lines: LineMap, keys: dict[int, Any]) -> tuple | None:
    """Record the line of every key path (iteratively: nesting is bounded, but recursion is not needed); return
    the first key or text holding a control character, as ``(path, line, text)``, or None."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    bad = None
    stack = [(node, path)]
    while stack:
        node, path = stack.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, ScalarNode) and bad is None and _CONTROL.search(node.value):
            bad = (path, node.start_mark.line + 1, node.value)
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                key = keys.get(id(key_node), getattr(key_node, "value", None))
                if isinstance(key_node, ScalarNode) and bad is None and _CONTROL.search(key_node.value):
                    bad = (path, key_node.start_mark.line + 1, key_node.value)
                if not isinstance(key, str | int | float | bool | type(None)):
                    continue
                line = key_node.start_mark.line + 1
                lines[(*path, key)] = line
                if not isinstance(key, str):  # pydantic names a null key 'None', a true key 'True'
                    lines.setdefault((*path, str(key)), line)
                    lines.setdefault((*path, key_name(key)), line)
                stack.append((value_node, (*path, key)))
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                lines.setdefault((*path, i), item.start_mark.line + 1)
                stack.append((item, (*path, i)))
    return bad


def parse_yaml(text: str, path: str | Path = "<yaml>", *, trusted: bool = False) -> tuple[Any, LineMap]:
    """Parse YAML text (already read) into data and its line map; every problem is a located InputError.
    ``trusted``: the text is one of Paddock's own files (see :func:`_shipped_loader_class`)."""
    import yaml

    loader = _loader(text, trusted)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
        keys = loader.keys
    except _Refused as err:
        raise InputError(f"YAML: {err.message}", file=path, line=err.line, hint=err.hint) from None
    except (yaml.scanner.ScannerError, yaml.parser.ParserError) as err:
        mark = err.problem_mark or err.context_mark
        raise InputError(
            f"YAML syntax: {escape(str(err.problem or err.context))[:120]}",
            file=path,
            line=mark.line + 1 if mark else None,
            hint="check indentation, colons and quotes on that line",
        ) from None
    except yaml.MarkedYAMLError as err:  # an undefined alias, a tag Paddock does not run, an unhashable key …
        mark = err.problem_mark or err.context_mark
        tag = isinstance(err, yaml.constructor.ConstructorError) and "tag" in str(err.problem)
        raise InputError(
            f"YAML: {escape(str(err.problem or err.context))[:120]}",
            file=path,
            line=mark.line + 1 if mark else None,
            hint="Paddock reads plain YAML: remove the tag" if tag else None,
        ) from None
    except yaml.YAMLError as err:
        raise InputError(f"YAML: {escape(str(err))[:120]}", file=path) from None
    except RecursionError:  # cannot happen below MAX_YAML_DEPTH; a last guard all the same
        raise InputError(f"YAML: nested too deeply (at most {MAX_YAML_DEPTH} levels)", file=path) from None
    finally:
        loader.dispose()
    lines = LineMap()
    if node is not None:
        bad = _walk(node, (), lines, keys)
        if bad is not None:
            where, line, text = bad
            chars = ", ".join(dict.fromkeys(escape(c) for c in _CONTROL.findall(text)))
            raise InputError(
                f"a control character ({chars}) in {quote(text)}",
                file=path,
                line=line,
                field=field_name(where) or None,
                hint="remove it: Paddock prints text as it is written",
            )
    return data, lines


def load_yaml(path: str | Path, *, trusted: bool = False) -> tuple[Any, LineMap]:
    """Read (through :func:`generator.inputs.read_text`) and parse a YAML file once; errors name the line.
    ``trusted``: one of Paddock's own files (:func:`generator.data.is_shipped`; see :func:`parse_yaml`)."""
    from .inputs import read_text

    return parse_yaml(read_text(path, limit=MAX_YAML_BYTES, what="file"), path, trusted=trusted)


# --------------------------------------------------------------------------------------------- validation


def field_name(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + escape(str(part))[:40]
    return out


_TAGS = {"int", "float", "str", "bool", "none", "list", "dict", "tuple", "set", "is-instance", "lax-or-strict"}


def _is_tag(part: Any) -> bool:
    """A pydantic location part that names a union member or validator, not a key of the data."""
    if not isinstance(part, str):
        return False
    return (
        part in _TAGS
        or part.startswith(("function-", "constrained-", "literal[", "json-or-python"))
        or ("[" in part and part.endswith("]"))
    )


def data_loc(data: Any, loc: Sequence[Any]) -> tuple:
    """pydantic's error location reduced to the keys and indices of the data (union and validator tags out)."""
    out: list = []
    cur = data
    for part in loc:
        if isinstance(cur, dict):
            if part in cur:
                out.append(part if isinstance(part, str) else key_name(part))
                cur = cur[part]
                continue
            match = [k for k in cur if not isinstance(k, str) and str(k) == part]
            if match:
                out.append(key_name(match[0]))
                cur = cur[match[0]]
                continue
            if _is_tag(part):
                continue
            out.append(part)  # a missing field: its name
            cur = None
        elif isinstance(cur, list | tuple):
            if isinstance(part, int) and not isinstance(part, bool) and 0 <= part < len(cur):
                out.append(part)
                cur = cur[part]
            elif not _is_tag(part):
                out.append(part)
                cur = None
        elif not _is_tag(part) and cur is None:
            out.append(part)
    return tuple(out)


def _message(err: dict) -> str:
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "missing":
        return "this field is required"
    if err["type"] in ("model_type", "dict_type", "model_attributes_type"):
        return "give a mapping here (lines of 'key: value')"
    if err["type"] in ("int_type", "float_type") and isinstance(err.get("input"), bool):
        return "give a number here, not true/false"
    if err["type"] == "bool_type":
        return "give true or false"
    if err["type"] == "finite_number":
        return "give a finite number"
    return re.sub(r" or instance of \w+", "", msg)  # pydantic's class names are none of the user's business


def _read_as(err: dict) -> str:
    """Why YAML gave a field that wants text something else: a date or a number written bare."""
    import datetime

    value = err.get("input")
    if err["type"] != "string_type" or isinstance(value, bool):
        return ""
    if isinstance(value, datetime.date):
        return ", which YAML reads as a date: put it in quotes to give it as text"
    if isinstance(value, int | float):
        return ", which YAML reads as a number: put it in quotes to give it as text"
    if isinstance(value, bytes):
        return " (a !!binary tag): give plain text"
    return ""


class FieldError(InputError):
    """A check inside a model validator that knows which field is wrong: ``loc`` is its key path.

    :func:`validate` turns it into a located error (file and line); raised elsewhere it still names the field.
    Being an :class:`InputError` rather than a ``ValueError``, pydantic lets it through unchanged."""

    def __init__(self, message: str, loc: Sequence[Any] = (), hint: str | None = None) -> None:
        super().__init__(message, field=field_name(loc) or None, hint=hint)
        self.loc = tuple(loc)


#: Where the fields of each file a user writes are listed, by the model its top level is read into: what an unknown
#: field's or an empty file's hint points to (a model not named here: the docs folder).
FIELD_DOCS = {
    "CircuitSpec": "docs/circuits.md",
    "TeamField": "docs/teams.md",
    "Team": "docs/teams.md",
    "Driver": "docs/teams.md",
    "Results": "docs/teams.md (paddock season)",
    "PlayersFile": "docs/formula-d.md (Players file)",
    "CourseSpec": "docs/motox.md (Courses)",
}


def fields_doc(model: Any) -> str:
    """The page that lists ``model``'s fields, for a hint."""
    return FIELD_DOCS.get(getattr(model, "__name__", ""), "the docs folder (docs/)")


def _numbers_in_range(data: Any, path: str | Path, lines: LineMap) -> None:
    """Every integer in a user's file, whatever field (or key) holds it, at most :data:`MAX_NUMBER`: checked once,
    before any model, so no field (``Int``, a plain ``int``) passes a 400-digit integer on to arithmetic that cannot
    hold it (an OverflowError was an internal error in 27 fields). Floats are the fields' own (a float is never
    larger than ~1.8e308, and each ``Float`` field has its range and refuses infinities)."""
    stack: list[tuple[Any, KeyPath]] = [(data, ())]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            bad = next((k for k in value if _too_large(k) and isinstance(k, int)), None)
            if bad is not None:
                _refuse(bad, (*where, key_name(bad)), path, lines)
            stack.extend((v, (*where, k if isinstance(k, str) else key_name(k))) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((v, (*where, i)) for i, v in enumerate(value))
        elif isinstance(value, int) and _too_large(value):
            _refuse(value, where, path, lines)


def _refuse(value: int, where: KeyPath, path: str | Path, lines: LineMap) -> None:
    raise InputError(
        f"a number far too large here (no field takes more than 10^{MAX_POWER})",
        file=path,
        line=lines.line(where),
        field=field_name(where) or None,
        hint=f"got {quote(value)}; text that looks like a number goes in quotes",
    )


def validate(model: type[T], data: Any, path: str | Path, lines: LineMap | None = None) -> T:
    """``model.model_validate(data)``, turning the first validation error into a located InputError."""
    from pydantic import ValidationError

    lines = lines or LineMap()
    if data is None:
        raise InputError("the file is empty", file=path, hint=f"{fields_doc(model)} lists its fields")
    _numbers_in_range(data, path, lines)
    try:
        return model.model_validate(data)
    except FieldError as err:
        raise located(err, path, lines, err.loc) from None
    except RecursionError:
        raise InputError("nested too deeply", file=path) from None
    except ValidationError as exc:
        errs = exc.errors(include_url=False)
        # A misspelt key is the root cause of the 'required' error that comes with it: report it first.
        errs.sort(key=lambda e: e["type"] != "extra_forbidden")
        err = errs[0]
        loc = data_loc(data, err["loc"])
        # A union reports one error per member at the same place: say them together.
        same = [e for e in errs if data_loc(data, e["loc"]) == loc]
        msg = _message(err)
        if len(same) > 1 and all(e["msg"].startswith("Input should be") for e in same):
            msg = " or ".join(
                dict.fromkeys(
                    e["msg"] if i == 0 else e["msg"].removeprefix("Input should be ") for i, e in enumerate(same)
                )
            )
        rest = [e for e in errs if data_loc(data, e["loc"]) != loc]
        if err["type"] == "extra_forbidden":  # the misspelt key's 'required' twin is the same mistake
            rest = [e for e in rest if not (e["type"] == "missing" and tuple(e["loc"][:-1]) == tuple(err["loc"][:-1]))]
        extra = ""
        if rest:  # one line: the next problem named briefly, so a second run holds no surprise
            nxt = rest[0]
            where = field_name(data_loc(data, nxt["loc"])) or "the file"
            line = lines.line(data_loc(data, nxt["loc"]))
            at = f" (line {line})" if line else ""
            more = f" and {len(rest) - 1} more" if len(rest) > 1 else ""
            extra = f"next: {where}{at}: {_clipped(_message(nxt))}{more}"
        hint = None
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
            hint = f"check the spelling; {fields_doc(model)} lists every field"
            guess = _closest_field(model, str(err["loc"][-1]), top=len(err["loc"]) == 1)
            if guess:
                hint = f"did you mean {quote(guess)}?"
            if len(errs) > 1 and errs[1]["type"] == "missing" and tuple(errs[1]["loc"][:-1]) == tuple(err["loc"][:-1]):
                hint = f"did you mean {quote(errs[1]['loc'][-1])}?"
        elif err["type"] == "invalid_key":
            msg = "a key here must be a name (text)"
        elif "input" in err and not isinstance(err["input"], dict | list | bool) and err["type"] != "missing":
            hint = f"got {quote(err['input'])}{_read_as(err)}"
        if extra:
            hint = f"{hint}; {extra}" if hint else extra
        raise InputError(msg, file=path, line=lines.line(loc), field=field_name(loc) or None, hint=hint) from None


def _clipped(text: str, limit: int = 60) -> str:
    """The next problem's words, said briefly (the line keeps to 300 characters): at most ``limit`` characters,
    cut at a word."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _field_names(model: Any, seen: set | None = None) -> set[str]:
    """Every field name (and alias) of ``model`` and of the models its fields hold, for spelling suggestions."""
    import typing

    from pydantic import BaseModel

    seen = set() if seen is None else seen
    names: set[str] = set()
    if model in seen:
        return names
    seen.add(model)
    for name, info in model.model_fields.items():
        names.add(info.alias or name)
        stack = [info.annotation]
        while stack:
            t = stack.pop()
            if isinstance(t, type) and issubclass(t, BaseModel):
                names |= _field_names(t, seen)
            else:
                stack.extend(typing.get_args(t))
    return names


def _closest_field(model: Any, key: str, top: bool = False) -> str | None:
    """The known field nearest a misspelt key (``lanse`` → ``lanes``), or None when nothing is close; ``top``: a
    key of the file's top level, matched against the top-level fields only."""
    import difflib

    try:
        names = {i.alias or n for n, i in model.model_fields.items()} if top else _field_names(model)
    except Exception:  # a model that cannot be walked gives no suggestion, never a crash
        return None
    match = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.75)
    return match[0] if match else None


def located(error: PaddockError, path: str | Path, lines: LineMap, loc: Sequence[Any]) -> PaddockError:
    """Attach file, line and field to an error raised by a later check (e.g. geometry)."""
    error.file = str(path)
    error.line = lines.line(loc)
    error.field = field_name(loc) or error.field
    return error
