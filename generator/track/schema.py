"""The JSON Schema of circuit specs, generated from the pydantic models.

python -m generator.track.schema          # rewrites track_specs/circuit.schema.json
"""

from __future__ import annotations

import json

from ..data import track_specs_dir
from .model import CircuitSpec


def schema_text() -> str:
    schema = CircuitSpec.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://paddock.invalid/circuit.schema.json"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    (track_specs_dir() / "circuit.schema.json").write_text(schema_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
