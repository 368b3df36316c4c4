"""Where Paddock's shipped data lives: ``templates/`` (layouts, tables, rule texts) and ``track_specs/``.

In a source checkout they are the top-level folders; in an installed wheel they are inside the package as
``generator/_templates`` and ``generator/_track_specs``. Game facts are read from here, never typed into code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .paths import is_shipped, shown, templates_dir, track_specs_dir  # noqa: F401  (found in paths.py, used from here)


@cache
def template(relative: str) -> Any:
    """A YAML file under templates/, parsed (cached: game facts are read once) with line numbers, keys given twice
    refused, by the loader for Paddock's own files (see :func:`generator.specs.parse_yaml`)."""
    from .specs import parse_yaml

    path = templates_dir() / relative
    return parse_yaml(path.read_text(encoding="utf-8"), path, trusted=True)[0]
