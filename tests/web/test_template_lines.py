"""No template line longer than 160 characters (djLint's max_line_length, pyproject.toml).

djLint lays out tags and template blocks but does not break a run of inline markup: such a run is
broken by hand where the page draws no whitespace, or kept together in ``{% spaceless %}``
(docs/web.md, "Templates and scripts"). Characters, not bytes: a "·" counts as one.
"""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LIMIT = 160


def test_no_template_line_is_longer_than_160_characters():
    long = [
        f"{path.relative_to(TEMPLATES)}:{number} ({len(line)})"
        for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > LIMIT
    ]
    assert long == [], f"template lines over {LIMIT} characters: break them where the page draws no whitespace"
