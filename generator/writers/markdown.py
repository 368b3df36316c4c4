"""Markdown: a rule summary as text for a club website or a forum post — the same sections, blocks and tables as
its pages (tables as pipe tables, as GitHub and most forums show them).

    text = markdown(summary)   # summary: a generator.compose.summary.Summary

A file format, like the other writers: it renders the summary model and knows no game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..compose.summary import Summary, Table

WRITE_IN_MD = "\\_\\_\\_\\_"  # a blank to write on: four underscores, escaped so Markdown shows them


def _md_cell(v: str | None) -> str:
    if v is None:
        return WRITE_IN_MD
    return v.replace("|", "\\|").replace("\n", " ")


def markdown_table(table: Table) -> list[str]:
    n = len(table.columns)
    lines = ["| " + " | ".join(_md_cell(c) for c in table.columns) + " |"]
    marks = [":---:" if align == "middle" else "---" for align in table.align()]
    lines.append("| " + " | ".join(marks) + " |")
    for row in table.rows:
        cells = [_md_cell(v) for v in row] + [""] * (n - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(summary: Summary) -> str:
    """The summary as Markdown: the same sections, blocks and tables, for a club website or a forum post."""
    out = [f"# {summary.title}", ""]
    if summary.subtitle:
        out += [f"*{summary.subtitle}*", ""]
    for s in summary.sections:
        out += [f"## {s.heading}" + (" *(optional)*" if s.optional else ""), ""]
        for b in s.blocks:
            if b.kind == "text":
                out += [b.text, ""]
            elif b.kind == "list":
                out += [f"- {i}" for i in b.items] + [""]
            elif b.kind == "steps":
                out += [f"{k + 1}. {i}" for k, i in enumerate(b.items)] + [""]
            elif b.kind == "table":
                out += markdown_table(b.table) + [""]
            elif b.kind == "example":
                title = f" — {b.title}" if b.title and b.title != "Example" else ""
                out += [f"> **Example{title}.** {b.text}", ""]
            elif b.kind == "reading":
                out += [f"> **Paddock’s reading of the rulebook:** {b.text}", ""]
            else:
                out += [f"**{b.text}:** {WRITE_IN_MD}", ""]
    out += ["---", "", f"*{summary.credit}. Summary in Paddock’s own words.*", ""]
    return "\n".join(out)

