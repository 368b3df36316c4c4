"""Reading a circuit: a spec file (YAML) or a bare centre-line CSV → a validated :class:`CircuitSpec`, with the
spec fields a caller overrides (the command line's ``--lanes``, ``--smoothing``, ``--fit``), and the points of a
centre line given as ``points`` or ``csv``. Every fault is an :class:`InputError` naming file, line and field.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import numpy as np
from pydantic import ValidationError

from ..data import is_shipped, track_specs_dir
from ..errors import InputError, OverrideError
from ..inputs import decode_text, read_bytes
from ..messages import quote
from ..specs import LineMap, load_yaml, validate
from .centerline import MAX_CSV_COORD, MAX_CSV_POINTS, MIN_CSV_SPAN, arc_lengths, clean_points, extent, read_csv
from .model import CircuitSpec

#: Spec fields a caller may override; the last two only mean something for a centre line given as points or CSV.
OVERRIDABLE = ("lanes", "smoothing", "fit", "grid")
#: The most times a centre line of points may cross itself (a real circuit: once at most, a figure-eight; a trefoil
#: three times). A tangle — a random walk of 100 points crosses itself ~50 times, a rosette 4–300 — is no circuit,
#: and adapting it to a board ran for minutes.
MAX_CROSSINGS = 3
POINTS_ONLY = ("smoothing", "fit")


def shipped(path: Path) -> Path:
    """``path`` itself when it exists; else a circuit Paddock ships by that name (``monte-carlo``,
    ``track_specs/monte-carlo.yaml`` run from another folder), so the README's examples work from anywhere."""
    if path.exists():
        return path
    folder = track_specs_dir()
    for candidate in (folder / path.name, folder / f"{path.name}.yaml"):
        if candidate.is_file() and (path.parent == Path(".") or path.parent.name == folder.name):
            return _near(candidate)
    return path


def _near(path: Path) -> Path:
    """``path`` relative to the working folder when it is inside it (a clone's ``track_specs/spa.csv`` for
    ``spa.csv``): what messages name, rather than the package's absolute path."""
    try:
        return path.relative_to(Path.cwd())
    except (ValueError, OSError):
        return path


#: Where the start line goes, as a caller asked (the command line's ``--start``): "auto" (placed where the grid
#: stands on straight track), "real" (a centre line's first point, never moved) or "placed" (start.at as given).
StartChoice = Literal["auto", "real", "placed"]
#: What every self-crossing the spec does not declare is drawn as (the command line's ``--crossing``).
CrossingKind = Literal["bridge", "tunnel"]
CROSSING_KINDS = get_args(CrossingKind)


@dataclass(frozen=True)
class Choices:
    """What a caller asked of a board beyond the spec's fields: where its start line goes (``start``), what an
    undeclared self-crossing is drawn as (``crossing``), and whether it gave the grid (``grid``: held to straight
    track)."""

    start: StartChoice | None = None
    crossing: CrossingKind | None = None
    grid: bool = False


def load_spec(path: str | Path, overrides: dict | None = None) -> tuple[CircuitSpec, object, Path]:
    """A spec file (YAML) or a centre-line CSV → (spec, LineMap, path). Raises InputError.

    ``overrides`` (spec field → value) replace the spec's own values; ``None`` values are ignored. ``fit`` is
    ``'page'`` or a lap length in units."""
    spec, lines, path, _ = load_choices(path, overrides)
    return spec, lines, path


def load_choices(path: str | Path, overrides: dict | None = None) -> tuple[CircuitSpec, object, Path, Choices]:
    """:func:`load_spec`, and what the overrides ask beyond spec fields (``start``, ``crossing``; a ``grid``
    given) as :class:`Choices`."""
    path = shipped(Path(path))
    if path.suffix.lower() == ".csv":
        if not path.is_file():
            raise InputError("file not found", file=path, hint="check the path")
        spec = _csv_spec(path)
        lines = LineMap()
    else:
        data, lines = load_yaml(path, trusted=is_shipped(path))
        if data is not None and not isinstance(data, dict):
            raise InputError(
                "a circuit spec must be a mapping of fields", file=path, line=1, hint="docs/circuits.md lists them"
            )
        spec = validate(CircuitSpec, data, path, lines)
    over = {k: v for k, v in (overrides or {}).items() if v is not None}
    crossing = over.pop("crossing", None)
    start = over.pop("start", None)
    placed = None
    if start is not None:
        over["start"], placed = start_override(spec, start, path)
    if over:
        spec = override(spec, over, path)
    if crossing is not None and crossing not in CROSSING_KINDS:
        raise OverrideError("crossing", crossing, "give 'bridge' or 'tunnel'", file=path)
    return spec, lines, path, Choices(placed, crossing, "grid" in over)


#: ``start`` (an override, not a spec field): where the start line goes — a number of units along the centre line,
#: ``auto`` (where the grid stands on straight track) or ``real`` (a centre line's first point, its real line).
START_WORDS = ("auto", "real")


def start_override(spec: CircuitSpec, value, path: Path | None):
    """The ``start`` field an override of the start line gives ``spec`` and how it was placed ("auto", "real" or
    "placed"). Raises OverrideError for anything else."""
    text = str(value).strip().lower()
    if text in START_WORDS:
        at = 0.0 if text == "real" else spec.start.at
        return {"at": at, "reverse": spec.start.reverse}, text
    try:
        at = float(text)
    except ValueError:
        raise OverrideError("start", value, "give a number of units, 'auto' or 'real'", file=path) from None
    if not math.isfinite(at):  # NaN or infinite (1e400): no place at all ('nan' was said 'a mapping of 2 key(s)')
        raise OverrideError("start", value, "give a finite number of units, 'auto' or 'real'", file=path)
    return {"at": at, "reverse": spec.start.reverse}, "placed"


def _csv_spec(path: Path) -> CircuitSpec:
    """The spec of a bare centre-line CSV: named after its file. A file name the board cannot print (control
    characters, letters the bundled font lacks) is an error about the file, not a field it does not have."""
    # "brands_hatch", "brands-hatch" and "BrandsHatch" all name Brands Hatch ("IMS" stays as it is)
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", path.stem.replace("_", " ").replace("-", " "))
    name = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())[:60] or "Circuit"
    try:
        # no smoothing: a bare centre line is adapted to the board keeping its shape (see adapt.py)
        return CircuitSpec(name=name, csv=str(path.resolve()))
    except ValidationError as exc:
        reason = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
        raise InputError(
            f"the circuit is named after the file, {quote(name)}, and {reason}",
            file=path,
            hint="rename the file, or write a spec with a 'name' and 'csv: " + path.name + "'",
        ) from None


def override(spec: CircuitSpec, over: dict, path: Path | None = None) -> CircuitSpec:
    """``spec`` with the fields in ``over`` replaced (each one of :data:`OVERRIDABLE`). Raises OverrideError."""
    for key in over:
        if key not in (*OVERRIDABLE, "start"):
            raise OverrideError(key, over[key], "cannot be overridden", file=path)
    if spec.segments is not None and set(POINTS_ONLY) & over.keys():
        key = next(k for k in POINTS_ONLY if k in over)
        raise OverrideError(
            key,
            over[key],
            "applies to a centre line given as points or a CSV; this spec uses segments",
            file=path,
            applies=False,
        )
    data = spec.model_dump(by_alias=True, exclude_none=True, exclude_unset=True)  # what is set stays set, no more
    try:
        return CircuitSpec.model_validate({**data, **over})
    except ValidationError as exc:
        errs = exc.errors(include_url=False)
        key = str(errs[0]["loc"][0]) if errs[0]["loc"] else "option"
        # a union ('page' or a number of units) says why each member refused the value: say them together
        msgs = [e["msg"].removeprefix("Value error, ") for e in errs if e["loc"][:1] == errs[0]["loc"][:1]]
        msg = msgs[0] + "".join(f" or {m.removeprefix('Input should be ')}" for m in msgs[1:])
        value = over.get(key, "")
        if key == "start" and isinstance(value, dict):  # the number typed, not the field made of it
            value = f"{value.get('at', 0.0):g}"
        raise OverrideError(key, value, msg.replace("Input should be", "it should be"), file=path) from None


def csv_path(spec: CircuitSpec, path: Path | str | None) -> Path | None:
    """The centre-line CSV a spec names (None if it names none), relative to the spec file ``path`` when given."""
    if spec.csv is None:
        return None
    csv = Path(spec.csv)
    return Path(path).parent / csv if not csv.is_absolute() and path is not None else csv


def source_points(spec: CircuitSpec, path: Path | None, report) -> np.ndarray:
    """The points of a centre line given as ``points`` or ``csv``, page orientation (y down), cleaned of repeats.

    Raises InputError for points that cannot make a loop. ``report`` locates the spec's lines."""
    if spec.points is not None:
        return _from_real_start(
            _source_points(np.asarray(spec.points, dtype=float), spec, path, report), spec, path, report
        )
    P = _from_real_start(_source_points(read_points(csv_path(spec, path)), spec, path, report), spec, path, report)
    P.flags.writeable = False
    return P


def _from_real_start(P: np.ndarray, spec: CircuitSpec, path: Path | None, report) -> np.ndarray:
    """The closed line ``P`` begun at its real start/finish line: ``real_start_at`` along it from its first point
    (a point put there unless one lies within a millionth of the lap). A distance past the lap is an InputError
    naming the field."""
    d = spec.real_start_at
    if not d:
        return P
    u = arc_lengths(P)
    lap = float(u[-1])
    if d >= lap:
        raise InputError(
            f"real_start_at {d:g} is past the end of the lap: the centre line is {lap:.6g} long (in its own units)",
            file=path,
            line=report.line_of("real_start_at"),
            field="real_start_at",
            hint=f"give a distance from 0 up to {lap:.6g} along the centre line from its first point",
        )
    Q = np.vstack((P, P[:1]))
    i = int(np.searchsorted(u, d, side="right")) - 1
    t = (d - u[i]) / max(u[i + 1] - u[i], 1e-300)
    at = Q[i] + t * (Q[i + 1] - Q[i])
    rest = np.vstack((P[i + 1 :], P[: i + 1]))
    tol = lap * 1e-6
    if np.hypot(*(rest[0] - at)) <= tol:
        return rest
    if np.hypot(*(rest[-1] - at)) <= tol:
        return np.vstack((rest[-1:], rest[:-1]))
    return np.vstack((at, rest))


def _source_points(P: np.ndarray, spec: CircuitSpec, path: Path | None, report) -> np.ndarray:
    if not np.all(np.isfinite(P)):
        raise InputError("points must be finite numbers", file=path, line=report.line_of("points"), field="points")
    P = P * np.array([1.0, -1.0])  # y up (maps, graph paper) → page y down
    span = float(extent(P).max())
    if span <= 0:
        raise InputError("all points are the same", file=path, line=report.line_of("points"), field="points")
    given = len(P)
    P = clean_points(P, span * 1e-6)
    where = {"file": path, "line": report.line_of("points"), "field": "points" if spec.points is not None else "csv"}
    if len(P) < 4:
        raise InputError(
            f"only {len(P)} of the {given} points are distinct (the others repeat their neighbour, or the first "
            "point at the end)",
            hint="give at least four different points round the loop",
            **where,
        )
    # degenerate loops: the spline through them has a cusp (zero speed), so no heading or curvature exists there
    if _flat(P, 1e-9 * span * math.sqrt(len(P))):
        raise InputError(
            "all the points lie on one straight line", hint="a circuit needs points that go round a loop", **where
        )
    back = _turns_back(P)
    if len(back):
        x, y = P[(back[0] + 1) % len(P)] * np.array([1.0, -1.0])
        raise InputError(
            f"the centre line turns straight back on itself at the point ({x:g}, {y:g})",
            hint="remove the point or move it off the line of its neighbours",
            **where,
        )
    from .adapt import crossings_count

    crossings = crossings_count(P * (1000.0 / span))  # counted at the size of a board (its tolerances are mm)
    if crossings > MAX_CROSSINGS:  # a tangle, not a circuit: refused before the work it would make (minutes)
        raise InputError(
            f"the centre line crosses itself {crossings:,} times; a board bridges at most {MAX_CROSSINGS} crossings",
            hint="give the centre line of a circuit, a loop that goes round once (a figure-eight crosses itself once)",
            **where,
        )
    return P


def _turns_back(P: np.ndarray) -> np.ndarray:
    """Indices i of the closed line ``P`` where the segment from point i+1 turns straight back on the one into it
    (their cosine below −1 + 1e-9). Only the turns of more than 90° (a negative dot product: a few, on a real
    line) are measured exactly: half the time of measuring every turn of a 300 000-point CSV."""
    d = np.diff(np.concatenate((P, P[:2])), axis=0)
    dot = np.einsum("ij,ij->i", d[:-1], d[1:])
    i = np.flatnonzero(dot < 0)
    a, b = d[i], d[i + 1]
    cos = dot[i] / (np.hypot(a[:, 0], a[:, 1]) * np.hypot(b[:, 0], b[:, 1]))
    return i[cos < -1 + 1e-9]


def _flat(P: np.ndarray, tol: float) -> bool:
    """Whether the points lie on one straight line: the least singular value of the centred points is ``tol`` or
    less. Every 64th point is tried first: a subset's least singular value is never larger than the whole set's
    (its distances to any line are some of theirs), so a subset clear of ``tol`` settles it for a 300 000-point
    line without the full decomposition (8 of 25 ms of reading it)."""
    for Q in (P[::64], P) if len(P) > 4096 else (P,):
        if np.linalg.svd(Q - Q.mean(axis=0), compute_uv=False)[-1] > tol:
            return False
    return True


def read_points(path) -> np.ndarray:
    """The x, y columns of a centre-line CSV (racetrack-database ``# x_m,y_m,w_tr_right_m,w_tr_left_m`` or a plain
    x,y CSV), read through Paddock's bounded reader and parsed in one numpy pass (a 300 000-point file in a
    fraction of a second). Anything the fast pass does not take as it is (a header, semicolons and decimal commas,
    a bad value, numbers out of range) goes to the line-by-line reader
    (:func:`~generator.track.centerline.read_csv`), which reads it or names the line at fault. Read-only."""
    P = _read_points(read_bytes(path, what="centre-line CSV"), path)
    P.flags.writeable = False
    return P


#: How the one numpy pass reads a centre-line CSV: the first two columns, ``#`` lines skipped.
FAST_PASS = {"delimiter": ",", "comments": "#", "ndmin": 2, "usecols": (0, 1)}


def _plausible(P: np.ndarray | None) -> bool:
    """Points the fast pass may give as they are: 4 to MAX_CSV_POINTS of them, finite, in range, not all at one
    place (anything else goes to the line-by-line reader, which says what is wrong and where)."""
    return (
        P is not None
        and 4 <= len(P) <= MAX_CSV_POINTS
        and bool(np.all(np.isfinite(P)))
        and float(np.abs(P).max()) <= MAX_CSV_COORD
        and float(extent(P).max()) >= MIN_CSV_SPAN
    )


def _count_points(data: bytes, path) -> None:
    """Refuse a CSV of more than MAX_CSV_POINTS points before parsing it: its lines, less comments and blank
    lines, counted in the bytes (a 32 MB file of 8 million short points was parsed whole first, ~1 GB)."""
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if lines <= MAX_CSV_POINTS + 1:  # one header line
        return
    skipped = data.count(b"\n#") + data.startswith(b"#") + data.count(b"\n\n") + data.count(b"\n\r\n")
    points = lines - skipped
    if points > MAX_CSV_POINTS + 1:
        raise InputError(
            f"the centre-line CSV has {points:,} lines of points; Paddock reads at most {MAX_CSV_POINTS:,} points",
            file=path,
            hint="thin the centre line out first (a point every metre or two is plenty)",
        )


def _read_points(data: bytes, path) -> np.ndarray:

    _count_points(data, path)
    # plain ASCII (nearly every centre line) is parsed from the bytes as read: no 10 MB str to decode and copy
    # into a StringIO for a 300 000-point file (53 -> 38 ms); anything else is decoded and checked as UTF-8 first
    text = None if data.isascii() else decode_text(data, path)
    if b";" not in data:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                src = io.BytesIO(data) if text is None else io.StringIO(text)
                P = np.loadtxt(src, **FAST_PASS)
        except (ValueError, IndexError):
            P = None
        if _plausible(P):
            return P
    return read_csv(path, text=data.decode("ascii") if text is None else text)
