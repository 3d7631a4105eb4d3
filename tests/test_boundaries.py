"""The architecture's boundary, enforced: the domain and config never import the Slack edge."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "index": ("slack_bolt", "slack_sdk", "aiohttp", "bot"),
    "config": ("slack_bolt", "slack_sdk", "aiohttp", "bot", "index"),
}
ENVIRONMENT_READERS = ("os.environ", "os.getenv", "environ.get")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    "path", sorted(p for package in FORBIDDEN for p in (REPO / package).rglob("*.py")), ids=str
)
def test_domain_never_imports_the_edge(path: Path) -> None:
    package = path.relative_to(REPO).parts[0]
    offending = {
        name
        for name in imported_modules(path)
        for banned in FORBIDDEN[package]
        if name == banned or name.startswith(banned + ".")
    }
    assert not offending, f"{path.relative_to(REPO)} imports {sorted(offending)}"


@pytest.mark.parametrize(
    "path", sorted(p for package in ("index", "bot") for p in (REPO / package).rglob("*.py")), ids=str
)
def test_only_config_reads_the_environment(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not any(reader in text for reader in ENVIRONMENT_READERS), f"{path} reads the environment"


def test_whoosh_lives_in_one_module() -> None:
    users = sorted(
        str(path.relative_to(REPO))
        for path in (REPO / "index").rglob("*.py")
        if any(name == "whoosh" or name.startswith("whoosh.") for name in imported_modules(path))
    )
    assert users == ["index/store/engine.py"]
