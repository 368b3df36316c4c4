"""The JSON Schema of MotoX course specs, generated from the pydantic model.

python -m generator.games.motox.schema          # rewrites templates/motox/course.schema.json
"""

from __future__ import annotations

import json


def schema_text() -> str:
    from .course import CourseSpec

    schema = CourseSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://paddock.invalid/motox-course.schema.json"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    from ...data import templates_dir

    (templates_dir() / "motox" / "course.schema.json").write_text(schema_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
