"""The site's templates as they are sent: each line's indentation left out when a template is read.

The templates are indented for people (djLint formats them, docs/web.md); a phone needs none of
it. Read once per process by the cached loader, so no request pays for it: the house-rules editor
went from 244 KB to 83 KB before compression. Leading white space is all that goes, so a line
break still separates what it separated (HTML collapses it to one space either way). No template
holds a ``<pre>``, a ``<textarea>`` whose text spans lines, or a ``blocktranslate`` without
``trimmed`` over several lines (its message id would change): ``tests/web/test_template_lines.py``
checks each.
"""

from __future__ import annotations

import re

from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader

INDENT = re.compile(r"^[ \t]+", re.MULTILINE)


class Loader(FilesystemLoader):
    """Django's file system loader, each template's indentation left out."""

    def get_contents(self, origin: Origin) -> str:
        return INDENT.sub("", super().get_contents(origin))
