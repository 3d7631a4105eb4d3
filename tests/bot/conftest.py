"""Fixtures for the Slack edge: the example vault's wiki (built once), settings, the fake Slack."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from index.wiki import Wiki
from tests.bot.fake_slack import FakeSlack
from tests.conftest import EXAMPLE_VAULT

BASE_URL = "https://wiki.example.com/"


@pytest.fixture(scope="session")
def wiki_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example vault indexed once per test session (Wiki objects opened on it are cheap)."""
    index_dir = tmp_path_factory.mktemp("example-index") / "index"
    Wiki.open(EXAMPLE_VAULT, index_dir).update()
    return index_dir


@pytest.fixture(scope="session")
def wiki(wiki_index: Path) -> Wiki:
    return Wiki.open(EXAMPLE_VAULT, wiki_index)


@pytest.fixture(scope="session")
def linked_wiki(wiki_index: Path) -> Wiki:
    """The same index, with page URLs (``WIKI_BASE_URL`` set)."""
    return Wiki.open(EXAMPLE_VAULT, wiki_index, BASE_URL)


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as slack:
        yield slack
