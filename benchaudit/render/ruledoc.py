"""A rule's documentation as HTML for the report.

Rule docstrings are written for a terminal (``benchaudit explain``): ``**What.**``
leads, ````n```` literals and ``Bad::`` followed by an indented example. Those
are Markdown as well, except the ``::`` that introduces an example, so the text
goes through markdown-it-py (CommonMark, raw HTML off: a docstring cannot
inject markup) after each ``::`` becomes ``:``.
"""

from __future__ import annotations

import re

_EXAMPLE_LEAD = re.compile(r"::[ \t]*$", re.M)


def rule_doc_html(doc: str) -> str:
    """The documentation as HTML, the first line (code, name, severity) left out."""
    from markdown_it import MarkdownIt

    body = doc.split("\n", 1)[1] if "\n" in doc else doc
    md = MarkdownIt("commonmark", {"html": False, "linkify": False})
    return str(md.render(_EXAMPLE_LEAD.sub(":", body.strip("\n"))))
