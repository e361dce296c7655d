"""Installs are reproducible (issue 52): every package the app and its tests need is pinned in
requirements.lock to the version the tests passed with, and .ci/setup installs within it."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_every_dependency_is_pinned_in_the_lock_and_setup_installs_within_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in [*project["dependencies"], *project["optional-dependencies"]["dev"]]}
    pinned = dict(
        (m[1].lower().replace("_", "-"), m[2])
        for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+)$", (ROOT / "requirements.lock").read_text(), re.M)
        for m in [re.match(r"^([A-Za-z0-9_.-]+)==(\S+)$", m[0])]
    )
    assert wanted <= set(pinned), sorted(wanted - set(pinned))
    assert "-c requirements.lock" in (ROOT / ".ci" / "setup").read_text()
