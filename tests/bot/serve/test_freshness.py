"""The live index: real files, the real watcher, queries running all along."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import shutil
import threading
import weakref
from pathlib import Path

import pytest
from filelock import FileLock

from bot.serve.freshness import Freshener, keep_fresh
from index.indexer import LOCK_FILE
from index.wiki import Wiki
from tests.conftest import eventually
from tests.vaults import SMALL_VAULT, entity, write_vault

WAIT_S = 30.0


class Readers:
    """Lookups and searches in a thread for as long as the test runs; counts failures."""

    def __init__(self, wiki: Wiki) -> None:
        self.wiki, self.errors, self.answers = wiki, [], 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                assert self.wiki.lookup("ByteDance").match is not None
                self.wiki.search("Minder を開発したのは?")
                self.answers += 1
            except Exception as error:
                self.errors.append(error)

    def __enter__(self) -> Readers:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture
async def live(tmp_path: Path):
    """A vault followed by `keep_fresh`, once the index is built and the watcher is watching."""
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)
    task = asyncio.create_task(keep_fresh(freshener, vault, tmp_path / "index", scan_interval=60))
    await asyncio.wait_for(freshener.watching.wait(), WAIT_S)
    await eventually(lambda: freshener.updates and not freshener.running, timeout=WAIT_S, what="1st build")
    assert wiki.state().status == "ready"
    yield vault, wiki, freshener
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_edit_add_delete_rename_while_queries_run(live) -> None:
    vault, wiki, _ = live
    with Readers(wiki) as readers:
        (vault / "wiki/entities/Volcano Engine.md").write_text(entity("Volcano Engine"))
        await eventually(lambda: wiki.lookup("Volcano Engine").match is not None, timeout=WAIT_S)

        (vault / "wiki/entities/MegaScale.md").write_text(
            entity("MegaScale", body="Qwertyzz という語を含む。")
        )
        await eventually(
            lambda: [h.path for h in wiki.search("Qwertyzz").hits] == ["wiki/entities/MegaScale.md"],
            timeout=WAIT_S,
        )

        (vault / "wiki/entities/Anna Stub.md").unlink()
        await eventually(lambda: wiki.card("wiki/entities/Anna Stub.md") is None, timeout=WAIT_S)

        os.rename(vault / "wiki/entities/Minder.md", vault / "wiki/entities/Minder System.md")
        await eventually(lambda: wiki.card("wiki/entities/Minder System.md") is not None, timeout=WAIT_S)
        assert "wiki/entities/ByteDance.md" in {
            r.path for r in wiki.card("wiki/entities/Minder System.md").backlinks
        }
    assert readers.errors == [] and readers.answers > 0


async def test_a_page_saved_as_the_first_build_ends_is_not_left_to_the_scan(tmp_path: Path) -> None:
    """The watches are in place before the first build reads the vault: a page saved the moment
    that build is done (before, the watcher only started then) is indexed at once."""
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)

    def save_a_page(_report: object) -> None:
        if freshener.updates == 1:
            (vault / "wiki/entities/Kite Labs.md").write_text(entity("Kite Labs"), encoding="utf-8")

    freshener.on_update.append(save_a_page)
    task = asyncio.create_task(keep_fresh(freshener, vault, tmp_path / "index", scan_interval=3600))
    try:
        await eventually(lambda: freshener.updates == 2, timeout=WAIT_S, what="the update after the build")
        assert wiki.lookup("Kite Labs").match is not None
    finally:
        task.cancel()


async def test_a_burst_of_files_is_coalesced(live, tmp_path: Path) -> None:
    """500 files in five waves, each seen by the watcher while the first update waits for the
    index's write lock (held here): every trigger meanwhile folds into one more update."""
    vault, wiki, freshener = live
    pages_before, updates_before, triggers_before = wiki.state().pages, freshener.updates, freshener.triggers
    with FileLock(str(tmp_path / "index" / LOCK_FILE)):
        for wave in range(5):
            seen = freshener.triggers
            for n in range(wave * 100, wave * 100 + 100):
                (vault / f"wiki/concepts/バースト{n}.md").write_text(entity(f"バースト{n}", kind="concept"))
            await eventually(lambda seen=seen: freshener.triggers > seen, timeout=WAIT_S, what=f"wave {wave}")
        held = freshener.triggers - triggers_before
    await eventually(lambda: wiki.state().pages == pages_before + 500, timeout=120, what="500 pages")
    await eventually(lambda: not freshener.running, timeout=WAIT_S, what="the last update")
    late = freshener.triggers - triggers_before - held
    assert held >= 5 and freshener.updates - updates_before <= 2 + late
    assert wiki.lookup("バースト499").match is not None


async def test_triggers_during_an_update_are_not_lost(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)
    await freshener.refresh()
    first = freshener.updates
    (vault / "wiki/entities/Late.md").write_text(entity("Late"))
    await asyncio.gather(*(freshener.refresh() for _ in range(20)))
    assert wiki.lookup("Late").match is not None
    assert freshener.updates - first <= 2


class _Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def test_the_index_is_set_aside_from_the_collector_until_it_is_replaced(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    freshener = Freshener(Wiki.open(vault, tmp_path / "index"))
    held = _Cycle()
    gone = weakref.ref(held)
    try:
        await freshener.refresh()
        del held
        gc.collect()
        assert gone() is not None and gc.get_freeze_count() > 0  # set aside with the loaded state
        (vault / "wiki/entities/Late.md").write_text(entity("Late"))
        await freshener.refresh()
        assert gone() is None  # an update frees what the replaced state held, cycles included
        assert freshener.wiki.lookup("Late").match is not None
    finally:
        gc.unfreeze()


async def test_a_failed_update_keeps_the_previous_index(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)
    await freshener.refresh()
    (tmp_path / "index" / "write.lock").unlink()
    (tmp_path / "index" / "write.lock").mkdir()
    (vault / "wiki/entities/Never.md").write_text(entity("Never"))
    await freshener.refresh()
    assert wiki.lookup("ByteDance").match is not None
    assert wiki.state().last_error is not None


async def test_a_file_problem_is_logged_once_per_change_of_the_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Rescans read nothing new: the empty page and the bad date are not logged again at each one.
    A change of the file logs it again, and so does the first update after a restart."""
    vault = write_vault(
        tmp_path / "vault",
        {
            **SMALL_VAULT,
            "wiki/entities/Empty.md": "",
            "wiki/entities/Bad Date.md": "---\ncreated: 2026-02-30\n---\n# Bad Date\n",
        },
    )

    def logged() -> list[str]:
        return [record.getMessage() for record in caplog.records if record.name == "sakuin.freshness"]

    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)
    with caplog.at_level(logging.WARNING, logger="sakuin.freshness"):
        for _ in range(3):
            await freshener.refresh()
        assert sorted(logged()) == [
            "indexed wiki/entities/Bad Date.md with a problem: "
            "frontmatter field 'created' dropped: '2026-02-30' is not a valid date",
            "skipped wiki/entities/Empty.md: empty file",
        ]
        caplog.clear()
        (vault / "wiki/entities/Empty.md").write_text(" \n")  # changed, still empty
        for _ in range(3):
            await freshener.refresh()
        assert logged() == ["skipped wiki/entities/Empty.md: empty file"]
        caplog.clear()
        restarted = Freshener(Wiki.open(vault, tmp_path / "index"))
        for _ in range(2):
            await restarted.refresh()
        assert len(logged()) == 2


async def test_an_update_removing_most_of_the_vault_is_logged_loudly_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    freshener = Freshener(Wiki.open(vault, tmp_path / "index"))
    await freshener.refresh()
    shutil.rmtree(vault / "wiki")
    with caplog.at_level(logging.WARNING, logger="sakuin.freshness"):
        await freshener.refresh()
        await freshener.refresh()
    warned = [r for r in caplog.records if r.name == "sakuin.freshness" and "were removed" in r.getMessage()]
    assert len(warned) == 1 and warned[0].levelno == logging.WARNING
    assert warned[0].getMessage().startswith("12 of the vault's 12 files were removed at ")
