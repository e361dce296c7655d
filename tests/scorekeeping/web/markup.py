"""Rendered markup as a browser reads it, for tests that look for tags in a row.

djLint lays the templates out (docs/web.md): a long tag's attributes go on lines of their own, and
block boxes (a paragraph, a table cell, a list item) on lines of their own. A browser draws no
whitespace for either, so a test may read the page without it.
"""

import re

_TAG = re.compile(r"<[a-zA-Z][^>]*>")
_SPACE = re.compile(r"\s+")
BLOCKS = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
]
_AROUND_BLOCK = re.compile(rf"\s*(</?(?:{'|'.join(BLOCKS)})\b[^>]*>)\s*")


def tags_on_one_line(html: str) -> str:
    """The page with the whitespace between a tag's attributes made one space."""
    return _TAG.sub(lambda tag: _SPACE.sub(" ", tag.group()), html)


def without_layout(html: str) -> str:
    """The page with its tags on one line and no whitespace beside a block box's tags (where a
    browser draws none). Not for <pre> or <textarea>, whose whitespace is their content."""
    return _AROUND_BLOCK.sub(r"\1", tags_on_one_line(html))
