"""The docs tell the truth about the code (as datasette's tests keep its docs honest): every setting
is in the README's configuration table and nothing else is; every file the README's "How it is
built" list or docs/architecture.md names exists; architecture.md places every folder and loose
module on a floor, and "How it is built" names every module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.settings import Settings

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "index", "config")
README = (REPO / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = REPO / "docs" / "architecture.md"
CODE = re.compile(r"`([^`\s]+)`")
PATH = re.compile(r"^[\w./-]+(?:\.py|\.md|/)$")


def section(markdown: str, title: str) -> str:
    """The text under the ``## title`` heading, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def table_variables(text: str) -> set[str]:
    """The variable names in the first column of a Markdown table."""
    names: set[str] = set()
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            names.update(name for name in CODE.findall(line.split("|")[1]) if name.isupper())
    return names


def bullets(text: str) -> list[str]:
    """Each top-level list item with its continuation lines."""
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith("- "):
            items.append(line)
        elif items and line.startswith("  "):
            items[-1] += " " + line.strip()
    return items


def missing_paths(item: str) -> list[str]:
    """Paths named in one list item that exist nowhere they could mean: from the repository root,
    or inside a folder the item named before (``bot/`` … ``digest/`` … ``days.py``)."""
    return resolved_paths(item)[1]


def resolved_paths(item: str) -> tuple[list[Path], list[str]]:
    """The paths one list item names (each found as `missing_paths` says), and those not found."""
    folders = [REPO]
    found_paths: list[Path] = []
    missing = []
    for name in CODE.findall(item):
        if not PATH.match(name):
            continue
        found = next((folder / name for folder in reversed(folders) if (folder / name).exists()), None)
        if found is None:
            missing.append(name)
        else:
            found_paths.append(found)
            if found.is_dir():
                folders.append(found)
    return found_paths, missing


def code_modules() -> list[Path]:
    """Every module of the three packages but the empty ``__init__.py`` files of a package and the
    handlers of ``bot/listeners/`` (placed by that folder: one handler per surface)."""
    return sorted(
        path
        for package in PACKAGES
        for path in (REPO / package).rglob("*.py")
        if "listeners" not in path.relative_to(REPO).parts
        and not (path.name == "__init__.py" and path.parent.relative_to(REPO).as_posix() != "index")
    )


def code_folders() -> list[str]:
    """``folder/`` for every package folder inside the three packages (``bot/listeners/`` once)."""
    return sorted(
        path.parent.relative_to(REPO).as_posix() + "/"
        for package in PACKAGES
        for path in (REPO / package).glob("*/__init__.py")
    )


def test_every_setting_is_in_the_readme_table_and_nothing_else() -> None:
    documented = table_variables(section(README, "Configuration"))
    declared = {name.upper() for name in Settings.model_fields}
    assert declared - documented == set(), "settings missing from the README's configuration table"
    assert documented - declared == set(), "the README documents variables Settings does not read"


@pytest.mark.parametrize("item", bullets(section(README, "How it is built")), ids=lambda item: item[:40])
def test_how_it_is_built_names_only_files_that_exist(item: str) -> None:
    assert missing_paths(item) == []


def test_architecture_names_only_files_that_exist() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = [name for name in CODE.findall(text) if PATH.match(name) and "/" in name]
    assert named, "docs/architecture.md names no files"
    assert [name for name in named if not (REPO / name).exists()] == []


def test_architecture_places_every_folder_and_loose_module() -> None:
    named = set(CODE.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    loose = [
        path.relative_to(REPO).as_posix()
        for package in ("bot", "index")
        for path in (REPO / package).glob("*.py")
        if path.stat().st_size
    ]
    assert [place for place in [*code_folders(), *loose] if place not in named] == []


def test_how_it_is_built_names_every_module() -> None:
    named = {path for item in bullets(section(README, "How it is built")) for path in resolved_paths(item)[0]}
    assert [str(path.relative_to(REPO)) for path in code_modules() if path not in named] == []


ENV_EXAMPLE = REPO / ".env.example"
ENV_LINE = re.compile(r"^(?:# )?([A-Z][A-Z0-9_]*)=", re.M)


def test_env_example_names_every_setting_once_and_nothing_else() -> None:
    named = ENV_LINE.findall(ENV_EXAMPLE.read_text(encoding="utf-8"))
    declared = {name.upper() for name in Settings.model_fields}
    assert sorted(name for name in set(named) if named.count(name) > 1) == []
    assert declared - set(named) == set(), "settings missing from .env.example"
    assert set(named) - declared == set(), ".env.example names variables Settings does not read"


def test_env_example_copied_as_it_is_is_valid_and_changes_nothing() -> None:
    assert Settings(_env_file=ENV_EXAMPLE).model_dump() == Settings(_env_file=None).model_dump()


MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
MARKDOWN_FILES = sorted({REPO / "README.md", *REPO.glob("docs/*.md"), *REPO.glob("tests/fixtures/*.md")})


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: str(path.relative_to(REPO)))
def test_relative_links_in_the_docs_lead_somewhere(path: Path) -> None:
    targets = MARKDOWN_LINK.findall(path.read_text(encoding="utf-8"))
    local = [target for target in targets if "://" not in target and not target.startswith("mailto:")]
    assert [target for target in local if not (path.parent / target).exists()] == []
