"""The docs name only what the repository holds: every path they cite exists, none points outside
the repository, and the rules documents are cited by title, not by a source file's id."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = ("referee/", "scorekeeping/", "templates/", "static/", "tests/", "docs/", "locale/", ".ci/")
SUFFIXES = (".py", ".md", ".html", ".js", ".toml", "/")
CODE = re.compile(r"`([^`\n]+)`")
SOURCE_ID = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
DOCUMENT_NUMBER = re.compile(r"\b[Dd]ocuments? \d{3}\b")  # "document 001": the same id, shortened


def cited_paths(text):
    """The backticked repository paths of ``text``: a ``:name`` after one is dropped."""
    for match in CODE.finditer(text):
        path = match.group(1).strip().split(":", 1)[0]
        if path.startswith(TOP) and path.endswith(SUFFIXES) and " " not in path:
            yield path


def exists(path):
    if "*" in path:
        return any(ROOT.glob(path.rstrip("/")))
    return (ROOT / path).is_dir() if path.endswith("/") else (ROOT / path).is_file()


def test_the_scan_finds_the_paths_it_should():
    found = list(cited_paths("`scorekeeping/models.py:Game`, `docs/` and `tests/browser/*.py`; `a/b.py`, `x`"))
    assert found == ["scorekeeping/models.py", "docs/", "tests/browser/*.py"]
    assert not exists("scorekeeping/selectors.py") and exists("scorekeeping/selectors/")
    assert exists("tests/browser/test_*.py") and not exists("tests/browser/nothing_*.py")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_a_doc_names_exists(doc):
    missing = sorted({path for path in cited_paths(doc.read_text()) if not exists(path)})
    assert missing == [], f"{doc.name} names paths the repository does not hold: {missing}"


@pytest.mark.parametrize("doc", [*DOCS, ROOT / "locale" / "glossary.toml"], ids=lambda p: p.name)
def test_no_doc_points_outside_the_repository_or_cites_a_source_id(doc):
    """The rules documents are cited by title ("How to Play Mexican Rummy"), as docs/rules.md does."""
    text = doc.read_text()
    assert "../shared" not in text
    assert SOURCE_ID.findall(text) == []
    assert DOCUMENT_NUMBER.findall(text) == []
