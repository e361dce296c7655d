"""The house's shape, checked (issue 52): no module over 400 lines outside the rules engine (whose
modules each hold one part of the rules, and the migrations, which Django writes)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 400


def test_no_module_outside_the_engine_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for package in ("referee", "scorekeeping")
        for path in (ROOT / package).rglob("*.py")
        if "engine" not in path.parts and "migrations" not in path.parts
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}, "split these by job (docs/architecture.md)"


def test_the_test_tree_mirrors_the_source():
    """A test lives beside what it tests: tests/referee/engine/ for the engine, tests/referee/ for the
    referee's pages and API, tests/scorekeeping/<package>/ for the site's (web, api, webkit,
    bench), tests/browser/ for what only a browser shows, tests/ for the site whole (the servers,
    the fuzzers, the docs, the languages)."""
    folders = {
        str(path.parent.relative_to(ROOT / "tests"))
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.parent != ROOT / "tests" and "browser" not in path.parts
    }
    assert folders and {folder for folder in folders if not (ROOT / folder / "__init__.py").exists()} == set()
