"""Monaco!'s rule summary content (templates/monaco/summary.yaml + generator/games/monaco/summary.py), checked
against the contract in DEVELOPERS.md: every {placeholder} resolves from values(), every table id exists in
tables() (and every table is shown), tables are well formed, and no 8-word run of monaco.txt is copied."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from generator.games.monaco import summary

ROOT = Path(__file__).resolve().parents[1]
YAML = ROOT / "templates" / "monaco" / "summary.yaml"
RULEBOOK = ROOT.parent / "shared" / "rules" / "monaco.txt"
BLOCK_KINDS = {"text", "list", "steps", "table", "example", "reading", "write_in"}


def data() -> dict:
    return yaml.safe_load(YAML.read_text(encoding="utf-8"))


def strings(node):
    """Every string of the summary (table ids excepted), wherever it sits."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key != "table":
                yield from strings(value)


def filled(credit: bool = True) -> list[str]:
    """Every string with its placeholders filled (``credit`` False: less the title and the source line, which
    name the game and its author as the rulebook does)."""
    values = summary.values()
    d = data()
    if not credit:
        d = {k: v for k, v in d.items() if k not in ("title", "source")}
    return [s.format(**values) for s in strings(d)]


def test_shape_follows_the_contract():
    d = data()
    assert d["title"] and d["source"] == "Monaco! by Gary Mitchell (first draft)"
    for section in d["sections"]:
        assert section["heading"] and section["blocks"]
        for block in section["blocks"]:
            assert len(block) == 1 and set(block) <= BLOCK_KINDS, block


def test_every_placeholder_resolves():
    values = summary.values()
    names = {n for s in strings(data()) for n in re.findall(r"\{(\w+)\}", s)}
    assert names and names <= set(values), sorted(names - set(values))
    assert all(isinstance(v, str) and v for v in values.values())
    for text in filled():
        assert "{" not in text and "}" not in text


def test_every_table_exists_and_is_shown():
    tables = summary.tables()
    used = [b["table"] for s in data()["sections"] for b in s["blocks"] if "table" in b]
    assert set(used) == set(tables)
    for name, table in tables.items():
        assert table["columns"] and table["rows"], name
        for row in table["rows"]:
            assert len(row) == len(table["columns"]), name


def test_tables_agree_with_the_rules():
    t = summary.tables()
    assert [r[1] for r in t["points"]["rows"]] == ["10", "8", "6", "5", "4", "3", "2", "1"]
    assert t["turn_roll"]["rows"] == [["0–6″", "+0"], ["7–12″", "+1"], ["13–18″", "+2"]]
    assert [r[:2] for r in t["ratings"]["rows"]] == [[str(v), str(v)] for v in range(1, 7)]


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKD", text).lower().replace("’", "'").replace("‘", "'")
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)


def test_no_eight_words_copied_from_the_rulebook():
    if not RULEBOOK.is_file():  # a checkout away from the rulebooks (as every other ../shared test skips)
        pytest.skip("no ../shared/rules/monaco.txt")
    book = _words(RULEBOOK.read_text(encoding="utf-8"))
    grams = {tuple(book[i : i + 8]) for i in range(len(book) - 7)}
    for text in filled(credit=False):
        w = _words(text)
        for i in range(len(w) - 7):
            assert tuple(w[i : i + 8]) not in grams, " ".join(w[i : i + 8])


def test_the_worked_examples_add_up():
    v = summary.values()
    assert (v["ex_speed"], v["ex_fast"], v["ex_slow"]) == ("13″", "16″", "10″")  # monaco.txt 6a
    assert (v["ex_add"], v["ex_total"]) == ("2", "6")  # monaco.txt 6c: a 4 plus 2 equals his skill of 6
