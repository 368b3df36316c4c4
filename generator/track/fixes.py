"""What would mend a circuit that does not build, as typed data: each kind of :class:`~generator.problems.Fix` a
check suggests, in one class that says itself in the spec's words (:meth:`spec_text`) and as the command line's
options (:meth:`option_text`), gives the request that follows it (:meth:`apply`) and the values worth trying when
the one suggested does not build (:meth:`ladder`; the search keeps the first that builds).

    SmoothingFix  'smoothing: N'          --smoothing N
    FitFix        'fit: N' (a longer lap)  --fit N [--paper P --tile-onto T]
    LanesFix      'lanes: N'              --lanes N
    OrientationFix 'orientation: …'       --paper P-orientation
    PaperFix      'paper: P' [tiled]      --paper P [--tile-onto T]
    CrossingFix   'crossings: [{kind}]'   --crossing bridge|tunnel
    StartAutoFix  (Paddock places it)     --start auto
    StartAtFix    'start: {at: N}'        --start N
    GridFix       'grid: N'               --grid N
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..problems import Fix
from .load import override
from .request import BoardRequest

#: Ladders a failing fix climbs: smoothing (mm) × these, lap length (units) × these.
SMOOTHING_LADDER = (1, 2, 4, 8)
FIT_LADDER = (1, 1.5, 2)


def _size(name: str) -> str:
    return name.upper() if name.startswith("a") else name


def paper_option(choice) -> str:
    """The --paper value that asks for ``choice`` (a bare name means landscape on the command line)."""
    return choice.name if choice.orientation in (None, "landscape") else f"{choice.name}-{choice.orientation}"


class CircuitFix(Fix):
    """A fix of a circuit spec: what the request becomes when it is followed (by default the same spec, on the
    fix's paper), and the values to try (by default its own)."""

    def apply(self, request: BoardRequest) -> BoardRequest:
        return request.replace(paper=self.paper if self.paper is not None else request.paper)

    def ladder(self, request: BoardRequest) -> list:
        return [self.value]

    def _overridden(self, request: BoardRequest) -> BoardRequest:
        """The request with the spec field overridden, as the command line's option does: the start line and
        the grid as the spec gives them, the crossing as asked."""
        spec = override(request.spec, {self.field: self.value}, request.source)
        return request.respec(spec, start=None, grid_asked=False, paper=self.paper or request.paper)


@dataclass(frozen=True)
class SmoothingFix(CircuitFix):
    field: ClassVar[str] = "smoothing"

    def spec_text(self) -> str:
        return f"smooth the centre line more ('smoothing: {self.value:g}'; now {self.now:g} mm)"

    def option_text(self) -> str:
        v = self.value
        return f"smooth the centre line more (--smoothing {v:g}, or 'smoothing: {v:g}' in a spec; now {self.now:g} mm)"

    def apply(self, request: BoardRequest) -> BoardRequest:
        return self._overridden(request)

    def ladder(self, request: BoardRequest) -> list:
        return sorted({min(500.0, float(self.value) * f) for f in SMOOTHING_LADDER})


@dataclass(frozen=True)
class FitFix(CircuitFix):
    """A longer lap (``fit: N`` units), on a larger ``paper`` tiled onto ``tile_onto`` (an example)."""

    field: ClassVar[str] = "fit"

    def spec_text(self) -> str:
        p, t = self.paper, self.tile_onto
        eg = f", e.g. {_size(p.name)} tiled onto {_size(t)}" if p and t else ""
        return f"make it bigger ('fit: {self.value}' for a {self.value}-unit lap on a larger paper{eg})"

    def option_text(self) -> str:
        eg = f", e.g. --paper {paper_option(self.paper)} --tile-onto {self.tile_onto}" if self.paper else ""
        return f"make it bigger (--fit {self.value} for a {self.value}-unit lap on a larger paper{eg})"

    def apply(self, request: BoardRequest) -> BoardRequest:
        return self._overridden(request)

    def ladder(self, request: BoardRequest) -> list:
        if not isinstance(self.value, int):
            return [self.value]
        return sorted({min(2000, round(self.value * f / 5) * 5) for f in FIT_LADDER})


@dataclass(frozen=True)
class LanesFix(CircuitFix):
    field: ClassVar[str] = "lanes"

    def spec_text(self) -> str:
        return f"fewer lanes ('lanes: {self.value}')"

    def option_text(self) -> str:
        return f"fewer lanes (--lanes {self.value} / 'lanes: {self.value}')"

    def apply(self, request: BoardRequest) -> BoardRequest:
        return self._overridden(request)


@dataclass(frozen=True)
class OrientationFix(CircuitFix):
    """The same paper turned: ``paper`` the one that fits."""

    field: ClassVar[str] = "orientation"

    def spec_text(self) -> str:
        if self.paper is None:
            return super().spec_text()
        return f"use {self.paper.resolve(self.value).label} ('orientation: {self.value}')"

    def option_text(self) -> str:
        if self.paper is None:
            return super().option_text()
        return f"use --paper {paper_option(self.paper)} (in the spec: 'orientation: {self.value}')"


@dataclass(frozen=True)
class PaperFix(CircuitFix):
    """A larger paper (``paper``), printed whole or tiled onto ``tile_onto``."""

    field: ClassVar[str] = "paper"

    def spec_text(self) -> str:
        if self.tile_onto:
            return f"tile it onto {_size(self.tile_onto)} sheets ('paper: {self.value}', printed in tiles)"
        return f"print it there ('paper: {self.value}')"

    def option_text(self) -> str:
        if self.tile_onto:
            p = paper_option(self.paper)
            return f"tile it onto {_size(self.tile_onto)} sheets: --paper {p} --tile-onto {self.tile_onto}"
        return f"print it there (--paper {paper_option(self.paper)}; in the spec 'paper: {self.value}')"


@dataclass(frozen=True)
class CrossingFix(CircuitFix):
    """Every undeclared self-crossing drawn as a ``bridge`` or a ``tunnel``."""

    field: ClassVar[str] = "crossing"

    def spec_text(self) -> str:
        return f"declare it as a {self.value} ('crossings: [{{kind: {self.value}}}]')"

    def option_text(self) -> str:
        v = self.value
        return f"draw it as a {v} (--crossing {v}, or 'crossings: [{{kind: {v}}}]' in a spec)"

    def apply(self, request: BoardRequest) -> BoardRequest:
        return super().apply(request).replace(crossing=self.value)


@dataclass(frozen=True)
class StartAutoFix(CircuitFix):
    """Paddock places the start line (where the grid stands on straight track)."""

    field: ClassVar[str] = "start"

    def option_text(self) -> str:
        return "let Paddock place the start line (--start auto)"

    def apply(self, request: BoardRequest) -> BoardRequest:
        return super().apply(request).replace(start="auto")


@dataclass(frozen=True)
class StartAtFix(CircuitFix):
    """The start line at ``start.at`` ``value``, as given."""

    field: ClassVar[str] = "start.at"

    def option_text(self) -> str:
        return f"--start {self.value:g} (or 'start: {{at: {self.value:g}}}' in a spec)"

    def apply(self, request: BoardRequest) -> BoardRequest:
        spec = request.spec
        spec = spec.model_copy(update={"start": spec.start.model_copy(update={"at": self.value})})
        return super().apply(request).respec(spec, start="placed")


@dataclass(frozen=True)
class GridFix(CircuitFix):
    """A smaller grid, its start line placed for it as the build places it."""

    field: ClassVar[str] = "grid"

    def option_text(self) -> str:
        return f"--grid {self.value} (or 'grid: {self.value}' in the spec)"

    def apply(self, request: BoardRequest) -> BoardRequest:
        spec = request.spec.model_copy(update={"grid": self.value})
        return super().apply(request).respec(spec, grid_asked=True)

    def ladder(self, request: BoardRequest) -> list:
        """The most cars that build, of a few fewer (whole rows)."""
        step = max(1, request.spec.lanes)
        return sorted({max(step, self.value * k // 4 // step * step) for k in (4, 3, 2, 1)}, reverse=True)


KINDS: dict[str, type[Fix]] = {
    k.field: k
    for k in (
        SmoothingFix,
        FitFix,
        LanesFix,
        OrientationFix,
        PaperFix,
        CrossingFix,
        StartAutoFix,
        StartAtFix,
        GridFix,
    )
}


def fix_for(field: str, value, **kw) -> Fix:
    """The fix of a circuit spec's ``field`` set to ``value`` (what ``as_dict`` gives, read back)."""
    return KINDS[field](value, **kw)


def with_value(fix: Fix, value) -> Fix:
    """``fix`` with another value (a rung of its ladder)."""
    return replace(fix, value=value)
