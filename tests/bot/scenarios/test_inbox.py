"""The wiki's inbox through the real server, against the fake Slack and a real bare git repository:
"Ask the wiki to cover this" under an answer that found nothing (and after a 👎), "Save to wiki
inbox" on a thread; the file on the inbox branch (or in the vault's folder), kept until it lands."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from bot.blocks.inbox import SAVE_TO_INBOX, WIKI_ASK
from bot.cli.commands import main
from bot.serve.freshness import Freshener, keep_fresh
from bot.serve.git_sync import GitSync
from bot.serve.wiki_loop import WikiLoop, wiki_loop
from bot.slack.client import build_client
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index.wiki import Wiki
from tests.bot.conftest import RunningBot, running_bot
from tests.bot.fake_slack import (
    CHANNEL_ID,
    USER_ID,
    FakeSlack,
    button_payload,
    find_element,
    mention_event,
    message_shortcut_payload,
    vote_payload,
)
from tests.bot.git_remote import Remote, git
from tests.conftest import eventually
from tests.vaults import SMALL_VAULT, entity, write_vault

QUESTION = "Qwertyzz を開発したのはどこ?"
THREAD = "1700000100.000100"
WAIT_S = 30.0
BRANCH = "sakuin/inbox"


@dataclass
class GitInboxBot:
    bot: RunningBot
    remote: Remote
    sync: GitSync
    wiki: Wiki
    freshener: Freshener


def loop_for(wiki: Wiki) -> Callable[[Settings, AsyncStateStore], WikiLoop]:
    """The wiki's loop as `sakuin serve` makes it, retrying fast."""

    def make(settings: Settings, state: AsyncStateStore) -> WikiLoop:
        return wiki_loop(settings, wiki, state, build_client(settings), retry_base_s=0.2)

    return make


@asynccontextmanager
async def git_inbox_bot(tmp_path: Path, slack: FakeSlack, **overrides: object) -> AsyncIterator[GitInboxBot]:
    """The bot serving a vault cloned from a bare repository, with the live index, the git
    follower and the inbox's delivery running as `sakuin serve` runs them."""
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    vault = tmp_path / "vault"
    sync = GitSync(remote.url, vault, interval=3600)
    await sync.start()
    wiki = Wiki.open(vault, tmp_path / "index")
    freshener = Freshener(wiki)
    tasks = [
        asyncio.create_task(keep_fresh(freshener, vault, tmp_path / "index", scan_interval=3600)),
        asyncio.create_task(sync.follow()),
    ]
    try:
        await eventually(lambda: wiki.state().status == "ready", timeout=WAIT_S, what="the index")
        async with running_bot(
            tmp_path,
            slack,
            wiki,
            sync=sync,
            loop=loop_for(wiki),
            wiki_dir=vault,
            wiki_git_url=remote.url,
            **overrides,
        ) as bot:
            assert bot.loop is not None
            freshener.on_update.append(bot.loop.on_index_update)
            tasks += [asyncio.create_task(work) for work in bot.loop.tasks().values()]
            yield GitInboxBot(bot, remote, sync, wiki, freshener)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def push(running: GitInboxBot, files: dict[str, str], message: str) -> None:
    """Push ``files`` to the tracked branch and wait until the index holds them."""
    updates = running.freshener.updates
    running.remote.commit(files, message)
    running.sync.request_fetch()
    await eventually(
        lambda: running.freshener.updates > updates, timeout=WAIT_S, what=f"the index after {message}"
    )


def branch_files(remote: Remote, branch: str = BRANCH) -> dict[str, str]:
    """The inbox folder's files on ``branch`` of the remote (none when there is no such branch)."""
    if not git(remote.bare, "branch", "--list", branch):
        return {}
    names = git(
        remote.bare, "-c", "core.quotePath=false", "ls-tree", "-r", "--name-only", branch, "--", "inbox/"
    )
    names = names.splitlines()
    return {name: git(remote.bare, "show", f"{branch}:{name}") for name in names}


def frontmatter(text: str) -> dict:
    head, _, _ = text.removeprefix("---\n").partition("\n---\n")
    return yaml.safe_load(head)


async def ask_unanswerable(bot: RunningBot, question: str = QUESTION) -> dict:
    """Mention the bot with a question the wiki cannot answer; the answer as posted."""
    await bot.sender.event(mention_event(question, ts=THREAD))
    (call,) = await bot.slack.wait_for_calls("chat.postMessage")
    bot.slack.calls.clear()
    return call.args


async def click_ask(bot: RunningBot, answer: dict) -> dict:
    """Click "Ask the wiki to cover this" under the answer (the channel's last message); the
    confirmation the user got."""
    bot.slack.calls.clear()
    ts = bot.slack.messages(CHANNEL_ID)[-1]["ts"]
    sent = await bot.sender.interaction(button_payload(answer["blocks"], WIKI_ASK, message_ts=ts))
    assert sent.status == 200
    (confirmation,) = await bot.slack.wait_for_calls("chat.postEphemeral", timeout=WAIT_S)
    return confirmation.args


async def test_a_not_found_answer_files_the_question_on_the_inbox_branch(tmp_path, fake_slack) -> None:
    async with git_inbox_bot(tmp_path, fake_slack) as running:
        bot = running.bot
        answer = await ask_unanswerable(bot)
        assert answer["metadata"]["event_payload"]["status"] == "not_found"
        _, button = find_element(answer["blocks"], WIKI_ASK)
        assert button["text"]["text"] == "Ask the wiki to cover this"

        confirmation = await click_ask(bot, answer)
        assert confirmation["user"] == USER_ID and confirmation["thread_ts"] == THREAD
        assert "Filed for the wiki's maintainers" in str(confirmation["blocks"])
        assert f"branch {BRANCH}" in str(confirmation["blocks"])

        (name, text) = next(iter(branch_files(running.remote).items()))
        assert name.startswith("inbox/sakuin/") and name.endswith("-qwertyzz-を開発したのはどこ.md")
        front = frontmatter(text)
        assert (front["type"], front["status"], front["question"]) == ("request", "open", QUESTION)
        assert front["channel"] == "#general"
        assert (
            front["permalink"] == f"https://fake.slack.com/archives/{CHANNEL_ID}/p{THREAD.replace('.', '')}"
        )
        assert front["closest_pages"][:2] == ["[[ByteDance]]", "[[Minder]]"]
        assert str(front["asked_at"]).startswith("20")
        assert text.rstrip().endswith(QUESTION)
        assert USER_ID not in text
        # The tracked branch is untouched; the vault serves what it did.
        assert "inbox" not in git(running.remote.bare, "ls-tree", "--name-only", "main")
        (request,) = bot.store.inbox_requests()
        assert (request.pushed, request.status, request.file) == (True, "open", name)

        # A second click (another replica, the same user again) files nothing more.
        await click_ask(bot, answer)
        assert len(branch_files(running.remote)) == 1 and len(bot.store.inbox_requests()) == 1


async def test_a_request_made_while_the_remote_is_down_lands_once_it_is_back(
    tmp_path, fake_slack, capsys, monkeypatch
) -> None:
    async with git_inbox_bot(tmp_path, fake_slack) as running:
        bot = running.bot
        answer = await ask_unanswerable(bot)
        away = running.remote.bare.with_name("away.git")
        running.remote.bare.rename(away)
        confirmation = await click_ask(bot, answer)
        assert "Filed for the wiki's maintainers" in str(confirmation["blocks"])
        assert "Not delivered yet" in str(confirmation["blocks"])
        (request,) = bot.store.inbox_requests()
        assert request.pushed is False
        # Retried at the back-off's pace (0.2 s, 0.4 s), not at the delivery task's idle wait (30 s).
        await eventually(lambda: bot.store.inbox_requests()[0].attempts >= 2, timeout=10, what="retries")
        monkeypatch.setenv("STATE_DB", str(bot.settings.state_db))
        capsys.readouterr()
        assert main(["inbox", "--json"]) == 0
        (listed,) = json.loads(capsys.readouterr().out)["requests"]
        assert set(listed) == {"id", "question", "status", "asked_at", "answered_at", "file", "pushed"}
        assert (listed["status"], listed["pushed"], listed["answered_at"]) == ("open", False, None)
        assert listed["question"] == QUESTION and listed["asked_at"].endswith("+09:00")

        away.rename(running.remote.bare)
        await eventually(lambda: bot.store.inbox_requests()[0].pushed, timeout=WAIT_S, what="the push")
        assert len(branch_files(running.remote)) == 1
        assert main(["inbox", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["requests"][0]["pushed"] is True


async def test_without_git_the_request_is_written_into_the_vault_folder(tmp_path, fake_slack, wiki) -> None:
    vault = write_vault(tmp_path / "vault", {"wiki/entities/A.md": "# A\n"})
    overrides = {"wiki_dir": vault, "wiki_inbox_dir": "requests/"}
    async with running_bot(tmp_path, fake_slack, wiki, loop=loop_for(wiki), **overrides) as bot:
        answer = await ask_unanswerable(bot, "Who maintains the zzqxv frobnicator?")
        confirmation = await click_ask(bot, answer)
        assert "in the vault" in str(confirmation["blocks"]) and "`requests/" in str(confirmation["blocks"])
        (written,) = (vault / "requests").iterdir()
        front = frontmatter(written.read_text(encoding="utf-8"))
        assert front["question"] == "Who maintains the zzqxv frobnicator?" and front["status"] == "open"
        assert written.name.endswith("-who-maintains-the-zzqxv-frobnicator.md")


async def test_a_down_vote_offers_to_ask_the_wiki(bot) -> None:
    await bot.sender.event(mention_event("Minder を開発したのはどこ?", ts=THREAD))
    (call,) = await bot.slack.wait_for_calls("chat.postMessage")
    assert WIKI_ASK not in str(call.args["blocks"])  # answered: no button under it
    await bot.sender.interaction(vote_payload(call.args["blocks"], "down", message_ts="1700000200.1"))
    (offer,) = await bot.slack.wait_for_calls("chat.postEphemeral")
    assert offer.args["user"] == USER_ID and offer.args["thread_ts"] == "1700000200.1"
    _, button = find_element(offer.args["blocks"], WIKI_ASK)
    assert "Minder を開発したのはどこ?" in button["value"]


async def test_a_saved_thread_keeps_display_names_and_never_a_user_id(tmp_path, fake_slack) -> None:
    fake_slack.users = {
        USER_ID: {"name": "alice", "profile": {"display_name": "Alice A."}},
        "U0BOB": {"name": "bob", "profile": {"display_name": "", "real_name": "Bob B."}},
    }
    root = {"type": "message", "user": USER_ID, "ts": "1700000500.000100", "text": "Qwertyzz の運用チームは?"}
    fake_slack.threads[(CHANNEL_ID, root["ts"])] = [
        root,
        {
            "user": "U0BOB",
            "ts": "1700000501.000100",
            "thread_ts": root["ts"],
            "text": "<@U0ALICE> 知らない &amp; 調べて",
        },
    ]
    async with git_inbox_bot(tmp_path, fake_slack) as running:
        bot = running.bot
        payload = message_shortcut_payload(SAVE_TO_INBOX, root, response_url=fake_slack.response_url("saved"))
        assert (await bot.sender.interaction(payload)).status == 200
        (confirmation,) = await fake_slack.wait_for_responses("saved", timeout=WAIT_S)
        assert confirmation.body["response_type"] == "ephemeral"
        assert "Filed for the wiki's maintainers" in str(confirmation.body["blocks"])
        (text,) = branch_files(running.remote).values()
        assert frontmatter(text)["question"] == "Qwertyzz の運用チームは?"
        assert "**Alice A.**" in text and "**Bob B.**" in text and "@Alice A. 知らない & 調べて" in text
        assert "U0ALICE" not in text and "U0BOB" not in text


@pytest.mark.parametrize(
    ("ui_language", "label", "filed"),
    [
        ("ja", "Wiki に調べてもらう", "Wiki の管理者に依頼しました"),
        ("en", "Ask the wiki to cover this", "Filed"),
    ],
)
async def test_the_button_and_the_confirmation_speak_the_ui_language(
    tmp_path, fake_slack, wiki, ui_language: str, label: str, filed: str
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    overrides = {"wiki_dir": vault, "ui_language": ui_language}
    async with running_bot(tmp_path, fake_slack, wiki, loop=loop_for(wiki), **overrides) as bot:
        answer = await ask_unanswerable(bot, "Who maintains the zzqxv frobnicator?")
        _, button = find_element(answer["blocks"], WIKI_ASK)
        assert button["text"]["text"] == label
        confirmation = await click_ask(bot, answer)
        assert filed in str(confirmation["blocks"])


# -- answered later, in the same thread -----------------------------------------------------------

QWERTYZZ = {
    "wiki/entities/Qwertyzz.md": entity(
        "Qwertyzz", body="## 概要\n\nQwertyzz は推論基盤。\n\n## 関連\n\n- 開発元: [[ByteDance]]\n"
    )
}


def later_answers(slack: FakeSlack) -> list[dict]:
    return [
        call.args
        for call in slack.calls_to("chat.postMessage")
        if (call.args.get("metadata") or {}).get("event_type") == "sakuin_inbox_answer"
    ]


async def test_a_push_that_adds_the_answering_page_replies_once_in_the_thread(tmp_path, fake_slack) -> None:
    async with git_inbox_bot(tmp_path, fake_slack) as running:
        bot = running.bot
        answer = await ask_unanswerable(bot)
        await click_ask(bot, answer)
        (name,) = branch_files(running.remote)

        running.remote.commit(QWERTYZZ, "add Qwertyzz")
        running.sync.request_fetch()
        await eventually(lambda: later_answers(fake_slack), timeout=WAIT_S, what="the later answer")
        (reply,) = later_answers(fake_slack)
        assert reply["channel"] == CHANNEL_ID and reply["thread_ts"] == THREAD
        assert reply["text"].startswith("The wiki now answers this:")
        assert "The wiki now answers this:" in str(reply["blocks"][0])
        assert "ByteDance" in reply["text"] and "開発元" in str(reply["blocks"])
        payload = reply["metadata"]["event_payload"]
        assert payload["status"] == "relation" and "wiki/entities/Qwertyzz.md" in payload["pages"]
        await eventually(
            lambda: bot.store.inbox_requests()[0].status == "answered", timeout=WAIT_S, what="marked answered"
        )
        assert bot.store.inbox_requests()[0].answered_at is not None
        await eventually(
            lambda: frontmatter(branch_files(running.remote)[name])["status"] == "answered",
            timeout=WAIT_S,
            what="status: answered on the inbox branch",
        )
        front = frontmatter(branch_files(running.remote)[name])
        assert front["question"] == QUESTION and "answered_at" in front

        # The page changes again: the request was answered once, and is not asked again.
        asked, rechecks = bot.loop.answered.asked, bot.loop.answered.rechecks
        await push(
            running,
            {"wiki/entities/Qwertyzz.md": QWERTYZZ["wiki/entities/Qwertyzz.md"] + "\n追記。\n"},
            "edit",
        )
        await eventually(lambda: bot.loop.answered.rechecks > rechecks, timeout=WAIT_S, what="the recheck")
        assert len(later_answers(fake_slack)) == 1 and bot.loop.answered.asked == asked


async def test_a_change_that_does_not_answer_the_request_posts_nothing(tmp_path, fake_slack) -> None:
    async with git_inbox_bot(tmp_path, fake_slack) as running:
        bot = running.bot
        await click_ask(bot, await ask_unanswerable(bot))
        running.remote.commit(
            {"wiki/entities/Other.md": entity("Other", body="MegaScale の運用を開発チームが記録した。")},
            "other",
        )
        rechecks = bot.loop.answered.rechecks
        updates = running.freshener.updates
        running.sync.request_fetch()
        await eventually(lambda: running.freshener.updates > updates, timeout=WAIT_S, what="the update")
        await eventually(lambda: bot.loop.answered.rechecks > rechecks, timeout=WAIT_S, what="the recheck")
        assert later_answers(fake_slack) == []
        assert bot.store.inbox_requests()[0].status == "open"
