"""Posting the digest exactly once, end to end: a real vault and index, the real state store, the
real Slack client against the fake Slack Web API, and real processes killed mid-run."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from bot.answering.replies import MAX_PREVIEW_MESSAGES, digest_preview
from bot.blocks.digest import SOURCES_PER_MESSAGE
from bot.cli.digest import digest_command, digest_json
from bot.digest.channel_run import DIGEST_EVENT, RetryPolicy
from bot.digest.days import due_day, yesterday
from bot.digest.posting import post_digest, post_until_settled
from bot.digest.schedule import run_due_digests, schedule_digest
from bot.slack.client import build_client
from bot.state.store import AsyncStateStore, open_state_store
from config.settings import Settings
from index.wiki import Wiki
from tests.bot.fake_slack import FakeSlack
from tests.conftest import REPO, eventually, make_settings
from tests.vaults import digest_vault, source_page, write_vault

CHANNEL, OTHER_CHANNEL = "C0DIGEST", "C0RESEARCH"
DAY = date(2026, 10, 14)
FAST = RetryPolicy(backoff_s=0.05, max_backoff_s=0.1, run_backoff_s=0.05, max_run_backoff_s=0.1)


def settings_for(tmp_path: Path, slack: FakeSlack, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "wiki_dir": tmp_path / "vault",
        "slack_bot_token": "xoxb-test",
        "slack_api_url": slack.api_url,
        "digest_channel": (CHANNEL,),
    }
    values.update(overrides)
    return make_settings(tmp_path, **values)


@pytest.fixture
async def slack():
    async with FakeSlack() as fake:
        yield fake


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", digest_vault(DAY))


def open_wiki(settings: Settings) -> Wiki:
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir, settings.wiki_base_url)
    wiki.update()
    return wiki


LATER_S = 3600.0
"""Past any lease: LEASE_S plus the longest wait a dead process could have leased for."""


@contextmanager
def state_file(settings: Settings, *, later_s: float = 0.0) -> Iterator[AsyncStateStore]:
    """The state file as the code under test uses it; ``later_s`` sees it that many seconds later
    (an expired lease, a passed back-off). ``.store`` reads it directly."""
    with open_state_store(settings.state_db, clock=lambda: time.time() + later_s) as store:
        yield AsyncStateStore(store)


CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"


async def start_cli(settings: Settings, *args: str) -> asyncio.subprocess.Process:
    """``sakuin digest`` in its own process, configured through the environment like cron would."""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "WIKI_DIR": str(settings.wiki_dir),
        "INDEX_DIR": str(settings.index_dir),
        "STATE_DB": str(settings.state_db),
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": settings.slack_api_url,
        "DIGEST_CHANNEL": ",".join(settings.digest_channel),
        "LOG_LEVEL": "WARNING",
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CLI,
        "digest",
        *args,
        cwd=settings.state_db.parent,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def kill(process: asyncio.subprocess.Process) -> None:
    process.send_signal(signal.SIGKILL)
    await process.wait()


def paper_paths(count: int) -> list[str]:
    return [f"wiki/sources/@2025__NSDI__Paper {n:02d}.md" for n in range(count)]


# -- the digest itself ----------------------------------------------------------------------


async def test_json_contract_lists_exactly_the_new_sources(tmp_path: Path, vault: Path, capsys) -> None:
    settings = make_settings(tmp_path, wiki_dir=vault)
    assert await digest_command(settings, DAY, dry_run=True, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"date", "sources", "pages"} and data["date"] == DAY.isoformat()
    assert [source["path"] for source in data["sources"]] == paper_paths(3)
    assert data["pages"] == [
        {"path": path, "title": f"Paper {n:02d} & <Co>", "type": "source", "new_by": "frontmatter:created"}
        for n, path in enumerate(paper_paths(3))
    ]
    assert all(
        set(source) == {"path", "title", "venue", "year", "summary", "cited_by"} for source in data["sources"]
    )
    first = data["sources"][0]
    assert (first["title"], first["venue"], first["year"]) == ("Paper 00 & <Co>", "NSDI", 2025)
    assert first["summary"].startswith("- 一行目の紹介")
    assert sorted(first["cited_by"]) == ["wiki/concepts/異常検知.md", "wiki/entities/Jane Doe.md"]


@pytest.mark.parametrize(("include", "expected"), [(False, 3), (True, 4)])
async def test_unpublished_sources_follow_the_setting(
    tmp_path: Path, vault: Path, capsys, include, expected
) -> None:
    chapter = source_page(
        "Book - Chapter 1",
        created=DAY.isoformat(),
        stamp=f"{DAY} 23:00",
        venue="OReilly",
        year=2022,
        publish="false",
    )
    write_vault(vault, {"wiki/sources/@2022__OReilly__Book - Chapter 1 序.md": chapter})
    settings = make_settings(tmp_path, wiki_dir=vault, digest_include_unpublished=include)
    assert await digest_command(settings, DAY, dry_run=True, as_json=True) == 0
    assert len(json.loads(capsys.readouterr().out)["sources"]) == expected


async def test_dry_run_prints_and_posts_nothing(
    tmp_path: Path, slack: FakeSlack, vault: Path, capsys
) -> None:
    settings = settings_for(tmp_path, slack)
    assert await digest_command(settings, DAY, dry_run=True, as_json=False) == 0
    printed = capsys.readouterr().out
    assert "Paper 02 & <Co>" in printed and "New sources" in printed
    assert slack.calls == []


async def test_posting_with_json_prints_the_digest_every_time(
    tmp_path: Path, slack: FakeSlack, vault: Path, capsys
) -> None:
    settings = settings_for(tmp_path, slack)
    for status in ("posted", "already"):
        assert await digest_command(settings, DAY, dry_run=False, as_json=True) == 0
        printed = capsys.readouterr()
        assert [s["path"] for s in json.loads(printed.out)["sources"]] == paper_paths(3)
        assert f"digest {DAY} {CHANNEL}: {status}" in printed.err
    assert len(slack.messages(CHANNEL)) == 1


async def test_preview_shows_an_empty_day_too(tmp_path: Path, vault: Path) -> None:
    settings = make_settings(tmp_path, wiki_dir=vault)
    wiki = open_wiki(settings)
    assert len(digest_preview(DAY.isoformat(), wiki, settings)) == 1
    empty = digest_preview((DAY + timedelta(days=3)).isoformat(), wiki, settings)
    assert len(empty) == 1 and "No new sources" in empty[0].text


async def test_a_long_preview_ends_with_the_command_for_its_own_day(tmp_path: Path) -> None:
    """The last message of a preview too long for Slack names the day to run the dry run for."""
    count = MAX_PREVIEW_MESSAGES * SOURCES_PER_MESSAGE + 1
    vault = write_vault(tmp_path / "vault", digest_vault(DAY, count=count))
    settings = make_settings(tmp_path, wiki_dir=vault, digest_max_items=1000)
    replies = digest_preview(DAY.isoformat(), open_wiki(settings), settings)
    assert len(replies) == MAX_PREVIEW_MESSAGES
    assert replies[-1].blocks[0]["text"]["text"] == (
        f"…and 2 more digest messages. Run `sakuin digest --date {DAY} --dry-run` to see them all."
    )


# -- posting once ---------------------------------------------------------------------------


async def test_posts_once_per_channel_with_metadata(tmp_path: Path, slack: FakeSlack, vault: Path) -> None:
    settings = settings_for(tmp_path, slack, digest_channel=(CHANNEL, OTHER_CHANNEL))
    wiki = open_wiki(settings)
    with state_file(settings) as state:
        first = await post_digest(settings, wiki, build_client(settings), state, DAY)
        calls = len(slack.calls)
        second = await post_digest(settings, wiki, build_client(settings), state, DAY)
    assert [c.status for c in first.channels] == ["posted", "posted"]
    assert [c.status for c in second.channels] == ["already", "already"]
    assert len(slack.calls) == calls
    for channel in (CHANNEL, OTHER_CHANNEL):
        (message,) = slack.messages(channel)
        assert message["metadata"] == {
            "event_type": DIGEST_EVENT,
            "event_payload": {"day": DAY.isoformat(), "part": 0, "parts": 1},
        }
        assert message["blocks"][0]["text"]["text"] == f"New sources · {DAY} (3)"
    assert first.channels[0].messages == (slack.messages(CHANNEL)[0]["ts"],)
    assert digest_json(first.digest)["sources"][0]["path"] == paper_paths(1)[0]


async def test_many_sources_are_split_and_each_part_posted_once(tmp_path: Path, slack: FakeSlack) -> None:
    write_vault(tmp_path / "vault", digest_vault(DAY, count=2 * SOURCES_PER_MESSAGE + 1))
    settings = settings_for(tmp_path, slack)
    with state_file(settings) as state:
        outcome = await post_digest(settings, open_wiki(settings), build_client(settings), state, DAY)
    assert len(outcome.channels[0].messages) == 3
    assert slack.parts(CHANNEL) == [(DAY.isoformat(), 0), (DAY.isoformat(), 1), (DAY.isoformat(), 2)]
    assert all(len(m["blocks"]) <= 50 for m in slack.messages(CHANNEL))


async def test_a_wiki_without_source_pages_announces_its_new_pages(tmp_path: Path, capsys) -> None:
    def entity_page(title: str, created: str) -> str:
        return f"---\ntype: entity\ntitle: {title}\ncreated: {created}\n---\n\n# {title}\n\n{title}.\n"

    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/Harold.md": entity_page("Harold", "2026-03-02"),
            "wiki/entities/William.md": entity_page("William", "2026-01-10"),
            "wiki/log.md": "## [2026-03-02] enrich | Hastings\n- Enriched: [[William]]\n",
        },
    )
    settings = make_settings(tmp_path, wiki_dir=vault)
    assert await digest_command(settings, date(2026, 3, 2), dry_run=True, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sources"] == []
    assert data["pages"] == [
        {
            "path": "wiki/entities/Harold.md",
            "title": "Harold",
            "type": "entity",
            "new_by": "frontmatter:created",
        }
    ]
    assert data["updated"] == {
        "total": 1,
        "pages": [{"path": "wiki/entities/William.md", "title": "William", "type": "entity"}],
    }
    assert await digest_command(settings, date(2026, 3, 2), dry_run=True, as_json=False) == 0
    printed = capsys.readouterr().out
    assert "New pages · 2026-03-02 (1)" in printed and "Harold" in printed and "Updated: William" in printed


@pytest.mark.parametrize(("max_items", "messages"), [(25, 1), (30, 3)])
async def test_a_big_day_is_summarised_and_posted_once(
    tmp_path: Path, slack: FakeSlack, capsys, max_items: int, messages: int
) -> None:
    write_vault(tmp_path / "vault", digest_vault(DAY, count=30))
    settings = settings_for(tmp_path, slack, digest_max_items=max_items)
    with state_file(settings) as state:
        first = await post_digest(settings, open_wiki(settings), build_client(settings), state, DAY)
        second = await post_digest(settings, open_wiki(settings), build_client(settings), state, DAY)
    assert [first.channels[0].status, second.channels[0].status] == ["posted", "already"]
    posted = slack.messages(CHANNEL)
    assert len(posted) == messages
    assert posted[0]["blocks"][0]["text"]["text"] == f"New sources · {DAY} (30)"
    assert await digest_command(settings, DAY, dry_run=True, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["sources"]) == 30
    if max_items == 25:
        assert data["summary"]["new"] == 30 and data["summary"]["by_folder"] == {"wiki/sources": 30}
        assert data["summary"]["most_linked"][0] == paper_paths(1)[0]
    else:
        assert "summary" not in data


@pytest.mark.parametrize(("post_empty", "messages"), [(False, 0), (True, 1)])
async def test_an_empty_day(
    tmp_path: Path, slack: FakeSlack, vault: Path, post_empty: bool, messages: int
) -> None:
    settings = settings_for(tmp_path, slack, digest_post_empty=post_empty)
    empty_day = DAY + timedelta(days=5)
    with state_file(settings) as state:
        outcome = await post_digest(settings, open_wiki(settings), build_client(settings), state, empty_day)
        run = state.store.run(empty_day.isoformat(), CHANNEL)
    assert outcome.channels[0].status == ("posted" if post_empty else "empty")
    assert len(slack.messages(CHANNEL)) == messages
    assert run is not None and run.done


# -- Slack failing --------------------------------------------------------------------------


async def test_429_waits_for_retry_after_and_posts_once(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    slack.fail("chat.postMessage", status=429, retry_after=1)
    started = time.monotonic()
    with state_file(settings) as state:
        outcome = await post_digest(
            settings, open_wiki(settings), build_client(settings), state, DAY, policy=FAST
        )
    assert outcome.channels[0].status == "posted"
    assert time.monotonic() - started >= 1.0
    assert [c.status for c in slack.calls if c.method == "chat.postMessage"] == [429, 200]
    assert len(slack.calls_to("conversations.history")) == 1, "only the check before the first post"
    assert len(slack.messages(CHANNEL)) == 1


@pytest.mark.parametrize("inject", ["500", "drop", "lost-answer"])
async def test_uncertain_failures_are_reconciled_before_posting_again(
    tmp_path: Path, slack: FakeSlack, vault: Path, inject: str
) -> None:
    settings = settings_for(tmp_path, slack)
    if inject == "500":
        slack.fail("chat.postMessage", status=500)
    elif inject == "drop":
        slack.drop("chat.postMessage")
    else:
        slack.lose_answer()
    with state_file(settings) as state:
        outcome = await post_digest(
            settings, open_wiki(settings), build_client(settings), state, DAY, policy=FAST
        )
    assert outcome.channels[0].status == "posted"
    assert len(slack.messages(CHANNEL)) == 1
    assert outcome.channels[0].messages == (slack.messages(CHANNEL)[0]["ts"],)
    assert len(slack.calls_to("conversations.history")) == 2, "before the first post, and after the failure"
    assert len(slack.calls_to("chat.postMessage")) == 1
    assert len(slack.calls_to("chat.postMessage", answered=False)) == (1 if inject == "lost-answer" else 2)


async def test_a_blind_retry_would_post_twice(tmp_path: Path, slack: FakeSlack) -> None:
    """Why posting does not use the client's own retries: a lost answer is retried blindly."""
    settings = settings_for(tmp_path, slack)
    slack.lose_answer()
    await build_client(settings).chat_postMessage(channel=CHANNEL, text="hello")
    assert len(slack.messages(CHANNEL)) == 2


async def test_an_outage_fails_the_run_and_a_later_run_posts_once(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    slack.fail("chat.postMessage", status=500, times=FAST.attempts)
    with state_file(settings) as state:
        failed = await post_digest(settings, wiki, build_client(settings), state, DAY, policy=FAST)
        run = state.store.run(DAY.isoformat(), CHANNEL)
        backing_off = await post_digest(settings, wiki, build_client(settings), state, DAY, policy=FAST)
    assert failed.channels[0].status == "failed" and "500" in (failed.channels[0].error or "")
    assert run is not None and not run.done and run.status == "failed" and run.inflight == 0
    assert backing_off.channels[0].status == "failed"
    assert slack.messages(CHANNEL) == []
    assert len(slack.calls_to("conversations.history")) == FAST.attempts, (
        "before each post but the first retry"
    )
    with state_file(settings, later_s=60) as later:
        retried = await post_digest(settings, wiki, build_client(settings), later, DAY, policy=FAST)
        assert later.store.run(DAY.isoformat(), CHANNEL).done
    assert retried.channels[0].status == "posted"
    assert len(slack.messages(CHANNEL)) == 1


async def test_a_refused_post_is_not_retried_in_the_run(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    slack.answer("chat.postMessage", {"ok": False, "error": "channel_not_found"})
    with state_file(settings) as state:
        outcome = await post_digest(
            settings, open_wiki(settings), build_client(settings), state, DAY, policy=FAST
        )
        run = state.store.run(DAY.isoformat(), CHANNEL)
    assert outcome.channels[0].status == "failed" and "channel_not_found" in (outcome.channels[0].error or "")
    assert len(slack.calls_to("chat.postMessage")) == 1
    assert run is not None and not run.done


async def test_a_lost_state_file_does_not_post_twice(tmp_path: Path, slack: FakeSlack, vault: Path) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    with state_file(settings) as state:
        first = await post_digest(settings, wiki, build_client(settings), state, DAY)
    for leftover in settings.state_db.parent.glob(settings.state_db.name + "*"):
        leftover.unlink()
    with state_file(settings) as fresh:
        again = await post_digest(settings, wiki, build_client(settings), fresh, DAY)
        assert fresh.store.run(DAY.isoformat(), CHANNEL).done
    assert again.channels[0].status == "posted" and again.channels[0].messages == first.channels[0].messages
    assert len(slack.messages(CHANNEL)) == 1


@pytest.mark.parametrize("crashed_mid_post", [False, True])
async def test_history_without_scope(
    tmp_path: Path, slack: FakeSlack, vault: Path, crashed_mid_post: bool
) -> None:
    """Without channels:history a fresh run still posts; a run that may already have posted waits."""
    settings = settings_for(tmp_path, slack)
    slack.answer(
        "conversations.history", {"ok": False, "error": "missing_scope", "needed": "channels:history"}
    )
    with state_file(settings) as state:
        if crashed_mid_post:
            state.store.claim_run(DAY.isoformat(), CHANNEL, "dead", 1)
            state.store.begin_part(DAY.isoformat(), CHANNEL, "dead", 0, 1)
    with state_file(settings, later_s=LATER_S) as later:
        outcome = await post_digest(
            settings, open_wiki(settings), build_client(settings), later, DAY, policy=FAST
        )
    expected = ("failed", 0) if crashed_mid_post else ("posted", 1)
    assert (outcome.channels[0].status, len(slack.messages(CHANNEL))) == expected
    if crashed_mid_post:
        assert "missing_scope" in (outcome.channels[0].error or "")


# -- crashes, restarts, and two processes ---------------------------------------------------


async def test_crash_between_post_and_record_does_not_post_twice(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    slack.hold_post(1)
    process = await start_cli(settings, "--date", DAY.isoformat())
    await asyncio.wait_for(slack.held.wait(), 60)
    await kill(process)
    (posted,) = slack.messages(CHANNEL)
    with state_file(settings) as state:
        crashed = state.store.run(DAY.isoformat(), CHANNEL)
        assert (
            crashed is not None
            and crashed.status == "running"
            and crashed.inflight == 0
            and crashed.posted == {}
        )
        restarted_at_once = await post_digest(settings, wiki, build_client(settings), state, DAY)
    assert restarted_at_once.channels[0].status == "busy"
    with state_file(settings, later_s=LATER_S) as later:
        resumed = await post_digest(settings, wiki, build_client(settings), later, DAY)
        assert later.store.run(DAY.isoformat(), CHANNEL).done
    assert resumed.channels[0].status == "posted"
    assert resumed.channels[0].messages == (posted["ts"],)
    assert slack.messages(CHANNEL) == [posted]


@pytest.mark.parametrize("second_part", ["reached-slack", "never-arrived"])
async def test_restart_in_the_middle_of_a_run_posts_each_part_once(
    tmp_path: Path, slack: FakeSlack, second_part: str
) -> None:
    write_vault(tmp_path / "vault", digest_vault(DAY, count=SOURCES_PER_MESSAGE + 2))
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    if second_part == "reached-slack":
        slack.hold_post(2)
    else:
        slack.drop_post(2)
    process = await start_cli(settings, "--date", DAY.isoformat())
    if second_part == "reached-slack":
        await asyncio.wait_for(slack.held.wait(), 60)
    else:
        await eventually(
            lambda: any(c.status == 0 for c in slack.calls_to("chat.postMessage", answered=False)),
            timeout=60,
            what="the dropped post",
        )
    await kill(process)
    assert len(slack.messages(CHANNEL)) == (2 if second_part == "reached-slack" else 1)
    searched = len(slack.calls_to("conversations.history"))
    with state_file(settings, later_s=LATER_S) as later:
        resumed = await post_digest(settings, wiki, build_client(settings), later, DAY)
    assert resumed.channels[0].status == "posted"
    assert slack.parts(CHANNEL) == [(DAY.isoformat(), 0), (DAY.isoformat(), 1)]
    assert len(slack.calls_to("conversations.history")) == searched + 1


async def test_two_processes_started_together_post_once(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack, digest_channel=(CHANNEL, OTHER_CHANNEL))
    open_wiki(settings)
    processes = [await start_cli(settings, "--date", DAY.isoformat()) for _ in range(2)]
    results = [await process.communicate() for process in processes]
    assert [process.returncode for process in processes] == [0, 0], results
    assert len(slack.messages(CHANNEL)) == 1 and len(slack.messages(OTHER_CHANNEL)) == 1
    said = b"".join(out + err for out, err in results).decode()
    assert said.count(": posted") == 2 and said.count(": already") == 2, said


async def test_a_run_by_hand_that_waited_for_a_channel_says_what_it_posted(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    """Another process holds one channel: the command posts the other, waits, takes the held one
    over when its lease ends, and reports both as posted (not the first as "already")."""
    settings = settings_for(tmp_path, slack, digest_channel=(CHANNEL, OTHER_CHANNEL))
    with state_file(settings) as state:
        state.store.claim_run(DAY.isoformat(), OTHER_CHANNEL, "elsewhere", 1.5)
        outcome = await post_until_settled(settings, open_wiki(settings), build_client(settings), state, DAY)
    assert [(channel.channel, channel.status) for channel in outcome.channels] == [
        (CHANNEL, "posted"),
        (OTHER_CHANNEL, "posted"),
    ]
    assert len(slack.messages(CHANNEL)) == 1 and len(slack.messages(OTHER_CHANNEL)) == 1


async def test_two_runners_in_one_loop_post_once(tmp_path: Path, slack: FakeSlack, vault: Path) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    with state_file(settings) as one, state_file(settings) as two:
        outcomes = await asyncio.gather(
            *(post_digest(settings, wiki, build_client(settings), state, DAY) for state in (one, two))
        )
    assert sorted(o.channels[0].status for o in outcomes) in (["busy", "posted"], ["already", "posted"])
    assert len(slack.messages(CHANNEL)) == 1


# -- the schedule ---------------------------------------------------------------------------


def jst(text: str) -> datetime:
    return datetime.fromisoformat(text + "+09:00")


@pytest.mark.parametrize(
    ("now", "posted_days"),
    [
        pytest.param("2026-10-15T08:59:59", [], id="before-time"),
        pytest.param("2026-10-15T09:00:00", ["2026-10-14"], id="at-time"),
        pytest.param("2026-10-15T23:30:00", ["2026-10-14"], id="down-at-time-posts-on-start"),
        pytest.param("2026-10-16T08:00:00", [], id="next-day-too-late-for-the-14th"),
        pytest.param("2026-10-16T09:00:00", [], id="15th-is-empty"),
    ],
)
async def test_schedule_step(tmp_path: Path, slack: FakeSlack, vault: Path, now: str, posted_days) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    with state_file(settings) as state:
        wait = await run_due_digests(settings, wiki, build_client(settings), state, jst(now), owner="test")
    assert sorted({day for day, _ in slack.parts(CHANNEL)}) == posted_days
    assert 0 < wait <= 86400


async def test_schedule_waits_for_the_time_then_posts_once(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    client = build_client(settings)
    with state_file(settings) as state:
        wait = await run_due_digests(settings, wiki, client, state, jst("2026-10-15T08:59:00"), owner="a")
        assert wait == pytest.approx(60)
        for now in ("2026-10-15T09:00:00", "2026-10-15T09:01:00", "2026-10-15T18:00:00"):
            wait = await run_due_digests(settings, wiki, client, state, jst(now), owner="b")
    assert slack.parts(CHANNEL) == [(DAY.isoformat(), 0)]
    assert wait == pytest.approx(15 * 3600)


async def test_schedule_retries_a_failed_day_on_a_later_day(
    tmp_path: Path, slack: FakeSlack, vault: Path
) -> None:
    settings = settings_for(tmp_path, slack)
    wiki = open_wiki(settings)
    client = build_client(settings)
    slack.fail("chat.postMessage", status=500, times=FAST.attempts)
    with state_file(settings) as state:
        await run_due_digests(
            settings, wiki, client, state, jst("2026-10-15T09:00:00"), owner="a", policy=FAST
        )
        assert slack.messages(CHANNEL) == []
    with state_file(settings, later_s=60) as later:
        await run_due_digests(
            settings, wiki, client, later, jst("2026-10-16T09:00:00"), owner="b", policy=FAST
        )
    assert slack.parts(CHANNEL) == [(DAY.isoformat(), 0)]


async def test_schedule_posts_on_start_when_the_time_has_passed(tmp_path: Path, slack: FakeSlack) -> None:
    day = yesterday(make_settings(tmp_path))
    write_vault(tmp_path / "vault", digest_vault(day))
    settings = settings_for(tmp_path, slack, digest_time="00:00")
    wiki = open_wiki(settings)
    with state_file(settings) as state:
        task = asyncio.create_task(schedule_digest(settings, wiki, build_client(settings), state))
        try:
            await slack.wait_for_calls("chat.postMessage", timeout=30)
            await asyncio.sleep(0.5)
        finally:
            task.cancel()
    assert slack.parts(CHANNEL) == [(day.isoformat(), 0)]
    assert open_state_store(settings.state_db).run(day.isoformat(), CHANNEL).done


@pytest.mark.parametrize(
    ("now", "zone", "at", "due"),
    [
        ("2026-10-14T23:30:00+00:00", "Asia/Tokyo", "08:00", date(2026, 10, 14)),
        ("2026-10-14T23:30:00+00:00", "UTC", "08:00", date(2026, 10, 13)),
        ("2026-10-14T23:30:00+00:00", "Asia/Tokyo", "09:00", None),
        ("2026-10-14T07:30:00+00:00", "UTC", "08:00", None),
        ("2026-10-14T22:59:00+00:00", "Asia/Tokyo", "08:00", None),
        ("2026-10-15T00:00:00+09:00", "Asia/Tokyo", "00:00", date(2026, 10, 14)),
    ],
)
def test_due_day_in_the_digest_zone(tmp_path: Path, now: str, zone: str, at: str, due: date | None) -> None:
    settings = make_settings(tmp_path, digest_tz=zone, digest_time=at)
    assert due_day(settings, datetime.fromisoformat(now)) == due
