"""What a fresh clone installs: `make demo` the app alone, `make test` the test tools besides; the
product code never needs a test tool; the distribution keeps the design card's packages and script."""

from __future__ import annotations

import ast
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PRODUCT = ("bot", "index", "config")
DEV_MODULES = {"pytest", "_pytest", "pytest_asyncio", "ruff", "psutil"}
"""The modules of pyproject.toml's `dev` extra."""


def recipe(target: str, venv: Path) -> list[str]:
    """The commands `make TARGET` runs from a fresh clone (no virtual environment yet)."""
    # --no-print-directory: run under `make test` itself (MAKELEVEL set), make would add its
    # "Entering/Leaving directory" lines to the recipe.
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", target, f"VENV={venv}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_the_demo_installs_the_app_and_the_tests_add_their_tools(tmp_path: Path) -> None:
    demo, test = recipe("demo", tmp_path / "venv"), recipe("test", tmp_path / "venv")
    installs = [line for line in demo if "pip install" in line and "--upgrade pip" not in line]
    assert [line.split()[-1] for line in installs] == ["."]
    assert any(line.endswith("sakuin index") for line in demo)
    assert any(line.endswith("-e '.[dev]'") for line in test) and test[-1].split()[0].endswith("/pytest")
    assert set(PYPROJECT["project"]["optional-dependencies"]) == {"dev"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize(
    "path",
    sorted(path for package in PRODUCT for path in (REPO / package).rglob("*.py")),
    ids=lambda path: str(path.relative_to(REPO)),
)
def test_the_product_imports_no_test_tool(path: Path) -> None:
    """`pip install -e .` (what `make demo` installs) is enough to run every module of the app."""
    assert imported_modules(path) & DEV_MODULES == set()


def test_the_distribution_keeps_the_design_packages_and_the_script() -> None:
    """Top-level `bot`, `index`, `config` (README "How it is built": why not one `sakuin` package)."""
    assert PYPROJECT["project"]["scripts"] == {"sakuin": "bot.cli:main"}
    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == [f"{p}*" for p in PRODUCT]
