"""The wiki's inbox files and texts: names, frontmatter, a saved thread, the answered status, the
Slack text a thread is saved from; and a push over https whose token never shows (bot/loop/inbox.py,
bot/serve/inbox_git.py, bot/loop/inbox_thread.py)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from bot.blocks.inbox import answered_later_reply
from bot.blocks.reply import Reply
from bot.i18n import use_language
from bot.loop.answered_later import AnsweredLater
from bot.loop.inbox import (
    Asked,
    Inbox,
    ThreadMessage,
    VaultFolder,
    answered_text,
    landed_text,
    request_markdown,
    slug,
)
from bot.loop.inbox_thread import plain_text
from bot.serve.inbox_git import InboxBranch
from bot.slack.client import build_client
from bot.state.requests import InboxRequest
from bot.state.store import AsyncStateStore, open_state_store
from tests.bot.git_remote import GitHttp, Remote, git
from tests.conftest import make_settings
from tests.vaults import SMALL_VAULT

TOKYO = ZoneInfo("Asia/Tokyo")
ASKED_AT = datetime(2026, 10, 15, 10, 12, 31, tzinfo=TOKYO)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Qwertyzz を開発したのはどこ?", "qwertyzz-を開発したのはどこ"),
        ("Who builds the ＺＺＱ engine?!", "who-builds-the-zzq-engine"),
        ("../../etc/passwd", "etc-passwd"),
        ("???", "request"),
        ("word " * 30, "word-word-word-word-word-word-word-word-word-word-word-word"),
    ],
)
def test_slug(question: str, expected: str) -> None:
    assert slug(question) == expected


def asked(**fields: object) -> Asked:
    values: dict = {
        "kind": "answer",
        "question": "Qwertyzz を開発したのはどこ?",
        "channel": "C0GENERAL",
        "channel_name": "general",
        "message_ts": "1.1",
        "thread_ts": "1.1",
        "permalink": "https://fake.slack.com/archives/C0GENERAL/p11",
        "closest": ("wiki/entities/ByteDance.md", "wiki/sources/@2025__NSDI__Minder.md"),
        "lang": "ja",
    }
    values.update(fields)
    return Asked(**values)


def test_a_request_file_has_its_frontmatter_and_the_question() -> None:
    text = request_markdown(asked(), ASKED_AT)
    head, _, body = text.removeprefix("---\n").partition("\n---\n")
    assert yaml.safe_load(head) == {
        "type": "request",
        "status": "open",
        "asked_at": "2026-10-15T10:12:31+09:00",
        "channel": "#general",
        "permalink": "https://fake.slack.com/archives/C0GENERAL/p11",
        "question": "Qwertyzz を開発したのはどこ?",
        "closest_pages": ["[[ByteDance]]", "[[@2025__NSDI__Minder]]"],
    }
    assert body.strip() == "Qwertyzz を開発したのはどこ?"
    assert yaml.safe_load(request_markdown(asked(channel="D0ALICE"), ASKED_AT).split("---")[1])[
        "channel"
    ] == ("direct message")


def test_a_saved_thread_is_the_body_under_display_names() -> None:
    thread = (
        ThreadMessage("Alice *A*", ASKED_AT.timestamp(), "最初の質問"),
        ThreadMessage("Bob", ASKED_AT.timestamp() + 60, "@Alice 返事"),
    )
    text = request_markdown(asked(kind="thread", thread=thread), ASKED_AT)
    first = "**Alice A** · 2026-10-15 10:12\n\n最初の質問"
    assert f"## Thread\n\n{first}\n\n**Bob** · 2026-10-15 10:13\n\n@Alice 返事" in text


@pytest.mark.parametrize(
    ("slack", "expected"),
    [
        ("<@U0ALICE> 見て", "@Alice 見て"),
        ("<@U0NOBODY|old> hi", "@someone hi"),
        ("<#C0123|research> で", "#research で"),
        ("<!here> &amp; &lt;b&gt;", "@here & <b>"),
        (
            "<https://example.com/a|the paper> and <https://example.com/b>",
            "the paper (https://example.com/a) and https://example.com/b",
        ),
    ],
)
def test_plain_text_of_a_slack_message(slack: str, expected: str) -> None:
    assert plain_text(slack, {"U0ALICE": "Alice"}) == expected


def test_answered_sets_the_status_and_keeps_the_agents_edits() -> None:
    when = datetime(2026, 10, 20, 9, 0, tzinfo=TOKYO)
    edited = request_markdown(asked(), ASKED_AT).replace("status: open", "status: in-progress") + "\nNotes.\n"
    text = answered_text(edited, when)
    front = yaml.safe_load(text.split("---")[1])
    assert front["status"] == "answered" and front["answered_at"] == "2026-10-20T09:00:00+09:00"
    assert text.endswith("\nNotes.\n") and answered_text(text, when) == text
    assert answered_text("no frontmatter", when) == "no frontmatter"


def request(**fields: object) -> InboxRequest:
    values: dict = {
        "id": "r1",
        "question": "q",
        "channel": "C",
        "thread_ts": "1.1",
        "file": "inbox/sakuin/x.md",
        "content": "---\nstatus: open\n---\n\nq\n",
        "asked_at": 1.0,
        "lang": "en",
    }
    values.update(fields)
    return InboxRequest(**values)


@pytest.mark.parametrize(
    ("status", "existing", "written"),
    [
        ("open", None, "---\nstatus: open\n---\n\nq\n"),
        ("open", "the agents' version", None),  # written once, never over their edits
        ("answered", None, None),  # the agents removed it: it stays removed
        (
            "answered",
            "---\nstatus: open\n---\n\nq\n",
            "---\nstatus: answered\nanswered_at: '1970-01-01T09:00:02+09:00'\n---\n\nq\n",
        ),
    ],
)
def test_what_lands_over_what_is_there(status: str, existing: str | None, written: str | None) -> None:
    assert landed_text(request(status=status, answered_at=2.0), existing, TOKYO) == written


@pytest.fixture
def remote(tmp_path: Path) -> Remote:
    return Remote(tmp_path / "git", SMALL_VAULT)


async def test_a_push_over_https_never_puts_the_token_on_a_command_line(
    tmp_path: Path, remote: Remote
) -> None:
    token = "ghp-inbox-push-token-4242"
    async with GitHttp(remote, "x-access-token", token) as server:
        settings = make_settings(tmp_path, wiki_git_url=server.url, wiki_dir=tmp_path / "vault")
        with open_state_store(settings.state_db) as store:
            inbox = Inbox(settings, AsyncStateStore(store), InboxBranch.from_settings(settings))
            filed, created = await inbox.file(asked())
        assert created and filed.pushed, filed.error
        assert server.authorized and server.exposed == []
    names = git(remote.bare, "-c", "core.quotePath=false", "ls-tree", "-r", "--name-only", "sakuin/inbox")
    assert filed.file in names.splitlines()
    config = (tmp_path / "index.inbox-git" / ".git" / "config").read_text(encoding="utf-8")
    assert token not in config


def test_the_later_answer_is_in_the_questions_language() -> None:
    answer = Reply(
        "ByteDance — Qwertyzz の開発元",
        ({"type": "section"},),
        metadata={"event_payload": {"status": "relation"}},
    )
    with use_language("ja"):
        reply = answered_later_reply(answer, "r1")
    assert reply.text.startswith("Wiki がこの質問に答えられるようになりました:")
    assert reply.metadata == {
        "event_type": "sakuin_inbox_answer",
        "event_payload": {"status": "relation", "request": "r1"},
    }


async def test_requests_older_than_the_answer_days_expire_and_are_not_asked(tmp_path: Path, wiki) -> None:
    settings = make_settings(tmp_path, inbox_answer_days=30)
    now = 1_800_000_000.0
    with open_state_store(settings.state_db) as store:
        state = AsyncStateStore(store)
        inbox = Inbox(settings, state, VaultFolder(tmp_path / "vault", settings.wiki_inbox_dir, TOKYO))
        later = AnsweredLater(settings, wiki, state, build_client(settings), inbox, clock=lambda: now)
        for request_id, days in (("old", 31), ("new", 1)):
            store.add_request(request(id=request_id, file=f"{request_id}.md", asked_at=now - days * 86400))
        assert await later.recheck(["wiki/entities/ByteDance.md"]) == 0
        assert {r.id: r.status for r in store.inbox_requests()} == {"old": "expired", "new": "open"}
        assert later.asked == 0  # "q" meets nothing
