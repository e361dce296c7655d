"""Rendered markup as a browser reads it, for tests that look for a tag's attributes in a row."""

import re

_TAG = re.compile(r"<[a-zA-Z][^>]*>")
_SPACE = re.compile(r"\s+")


def tags_on_one_line(html: str) -> str:
    """The page with the whitespace between a tag's attributes made one space. djLint spreads a long
    tag's attributes over lines (templates/, docs/web.md); a browser reads them the same."""
    return _TAG.sub(lambda tag: _SPACE.sub(" ", tag.group()), html)
