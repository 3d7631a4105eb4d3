"""The architecture's boundaries, enforced (docs/architecture.md): the domain and config never import
the Slack edge, imports run one way (down the floors, never in a circle), whoosh stays in the store,
and the edge reaches the domain only through its front door, ``index/__init__.py``."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "index", "config")
FORBIDDEN = {
    "index": ("slack_bolt", "slack_sdk", "aiohttp", "bot"),
    "config": ("slack_bolt", "slack_sdk", "aiohttp", "bot", "index"),
}
ENVIRONMENT_READERS = ("os.environ", "os.getenv", "environ.get")
FRONT_DOOR = "index"
FLOORS: dict[str, int] = {
    # The domain, lowest first. A module imports its own folder, or a lower floor; two parts on the
    # same floor do not import each other.
    "index.analysis": 0,
    "index.model": 0,
    "index.web": 0,
    "index.reading": 1,
    "index.catalog": 2,
    "index.store": 2,
    "index.asking": 3,
    "index.digest": 3,
    "index.generation": 3,
    "index.page_changes": 3,
    "index.indexer": 4,
    "index.wiki": 5,
    FRONT_DOOR: 6,
    # The edge, lowest first (it imports `config` and the domain's front door besides).
    "bot.i18n": 0,
    "bot.memory": 0,
    "bot.errors": 0,
    "bot.llm": 1,
    "bot.state": 1,
    "bot.blocks": 2,
    "bot.slack": 3,
    "bot.digest": 4,
    "bot.answering": 5,
    "bot.conversation": 6,
    "bot.loop": 6,
    "bot.listeners": 7,
    "bot.mcp": 7,
    "bot.serve": 8,
    "bot.cli": 9,
}
PURE = ("bot.blocks", "bot.llm.grounding")
"""Builders and checks that compute only: no Slack SDK, no network, no model client."""
IMPURE = ("slack_bolt", "slack_sdk", "aiohttp", "openai", "bot.slack", "bot.llm.client")


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(REPO).with_suffix("").parts)
    return name.removesuffix(".__init__")


MODULES = {module_name(path): path for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))}


@cache
def imported_modules(path: Path) -> frozenset[str]:
    """Every module ``path`` imports, wherever the import is (in a function, under TYPE_CHECKING):
    ``from package import module`` counts as importing that module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path.relative_to(REPO)}: a relative import"
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                names.add(submodule if submodule in MODULES else node.module)
    return frozenset(names)


def inside(name: str, prefixes: tuple[str, ...] | str) -> bool:
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def part_of(module: str) -> str | None:
    """The floor's part a module belongs to: its folder, or the module itself."""
    parts = [part for part in FLOORS if inside(module, part) and (part != FRONT_DOOR or module == FRONT_DOOR)]
    return max(parts, key=len, default=None)


@pytest.mark.parametrize(
    "path", sorted(p for package in FORBIDDEN for p in (REPO / package).rglob("*.py")), ids=str
)
def test_domain_never_imports_the_edge(path: Path) -> None:
    package = path.relative_to(REPO).parts[0]
    offending = {name for name in imported_modules(path) if inside(name, FORBIDDEN[package])}
    assert not offending, f"{path.relative_to(REPO)} imports {sorted(offending)}"


@pytest.mark.parametrize(
    "path", sorted(p for package in ("index", "bot") for p in (REPO / package).rglob("*.py")), ids=str
)
def test_only_config_reads_the_environment(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not any(reader in text for reader in ENVIRONMENT_READERS), f"{path} reads the environment"


def test_whoosh_lives_in_the_store() -> None:
    users = sorted(
        name
        for name, path in MODULES.items()
        if any(inside(imported, "whoosh") for imported in imported_modules(path))
    )
    assert users == ["index.store.building", "index.store.engine", "index.store.scoring"]


def test_only_the_generations_open_the_engine() -> None:
    """The rest of the domain reads the store through `index.store.values.PassageStore`: another
    engine replaces `index/store/engine.py` alone."""
    users = sorted(name for name, path in MODULES.items() if "index.store.engine" in imported_modules(path))
    assert users == ["index.generation", "index.indexer"]


def test_the_edge_enters_the_domain_only_by_its_front_door() -> None:
    """``bot/`` imports ``index``, never a module inside it; inside ``index/`` nothing imports the
    front door (it imports them)."""
    wrong = sorted(
        f"{name} imports {imported}"
        for name, path in MODULES.items()
        for imported in imported_modules(path)
        if (inside(name, "bot") and inside(imported, FRONT_DOOR) and imported != FRONT_DOOR)
        or (inside(name, FRONT_DOOR) and imported == FRONT_DOOR)
    )
    assert wrong == []


def test_every_module_is_on_a_floor() -> None:
    unplaced = [name for name in MODULES if inside(name, ("bot", "index")) and part_of(name) is None]
    assert unplaced == ["bot"]  # bot/__init__.py: empty


def test_imports_run_down_the_floors() -> None:
    wrong = []
    for name, path in MODULES.items():
        part = part_of(name)
        for imported in imported_modules(path):
            target = part_of(imported)
            if part is None or target is None or target == part or target.split(".")[0] != part.split(".")[0]:
                continue
            if FLOORS[target] >= FLOORS[part]:
                wrong.append(f"{name} (floor {FLOORS[part]}) imports {imported} (floor {FLOORS[target]})")
    assert sorted(wrong) == []


def test_no_import_circle() -> None:
    graph = {
        name: {imported for imported in imported_modules(path) if imported in MODULES and imported != name}
        for name, path in MODULES.items()
    }
    assert circles(graph) == []


def test_builders_stay_pure() -> None:
    wrong = sorted(
        f"{name} imports {imported}"
        for name, path in MODULES.items()
        if inside(name, PURE)
        for imported in imported_modules(path)
        if inside(imported, IMPURE)
    )
    assert wrong == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)
