"""No template line longer than 160 characters (djLint's max_line_length, pyproject.toml).

djLint lays out tags and template blocks but does not break a run of inline markup: such a run is
broken by hand where the page draws no whitespace, or kept together in ``{% spaceless %}``
(docs/web.md, "Templates and scripts"). Characters, not bytes: a "·" counts as one.
"""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
LIMIT = 160


def test_no_template_line_is_longer_than_160_characters():
    long = [
        f"{path.relative_to(TEMPLATES)}:{number} ({len(line)})"
        for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > LIMIT
    ]
    assert long == [], f"template lines over {LIMIT} characters: break them where the page draws no whitespace"


def test_no_template_holds_what_leaving_out_indentation_would_change():
    """The templates are sent without each line's indentation (scorekeeping/config/templates.py):
    that changes nothing drawn but in a <pre>, in a <textarea>'s text over several lines, and in a
    blocktranslate over several lines without ``trimmed`` (its message id would lose its indents)."""
    found = []
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(TEMPLATES)
        if re.search(r"<pre\b", text):
            found.append(f"{name}: <pre>")
        textareas = re.finditer(r"<textarea\b[^>]*>(.*?)</textarea>", text, re.S)
        found += [f"{name}: a textarea over lines" for m in textareas if "\n" in m[1]]
        blocks = r"{%\s*blocktranslate(?P<args>[^%]*)%}(?P<body>.*?){%\s*endblocktranslate\s*%}"
        for m in re.finditer(blocks, text, re.S):
            if "\n" in m["body"] and "trimmed" not in m["args"]:
                found.append(f"{name}: a blocktranslate over lines without trimmed")
    assert found == []


def test_a_page_is_sent_without_its_templates_indentation(client):
    html = client.get("/rules/mexican/").content.decode()
    assert re.search(r"\n[ \t]+<", html) is None
