"""Events, verification and the health check through the real server, against a fake Slack."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sqlite3
import time
from urllib.parse import urlencode

import pytest

from bot.serve.server import without_paths
from index.wiki import Wiki
from tests.bot.block_kit import assert_valid_blocks, assert_valid_view, message_text
from tests.bot.conftest import APP_TOKEN, BOT_TOKEN, SIGNING_SECRET, running_bot
from tests.bot.fake_slack import (
    BOT_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    DM_CHANNEL_ID,
    OTHER_TEAM_ID,
    USER_ID,
    SlackSender,
    direct_message,
    mention_event,
)
from tests.conftest import EXAMPLE_VAULT
from tests.vaults import SMALL_VAULT, write_vault

QUIET_S = 0.5
"""How long to keep listening for a message that must not come."""


async def posted(bot, count: int = 1) -> list:
    calls = await bot.slack.wait_for_calls("chat.postMessage", count)
    await asyncio.sleep(QUIET_S)
    calls = bot.slack.calls_to("chat.postMessage")
    assert len(calls) == count, f"{len(calls)} messages posted, expected {count}"
    for call in calls:
        assert_valid_blocks(call.args["blocks"])
    return calls


async def nothing_posted(bot) -> None:
    await asyncio.sleep(QUIET_S)
    assert bot.slack.calls_to("chat.postMessage") == []


async def test_mention_is_answered_in_its_thread_with_the_answer_first(bot):
    sent = await bot.sender.event(mention_event("Minder を開発したのはどこ?", ts="1700000100.000100"))
    assert sent.status == 200 and sent.seconds < 3
    (call,) = await posted(bot)
    assert call.args["channel"] == CHANNEL_ID and call.args["thread_ts"] == "1700000100.000100"
    first = call.args["blocks"][0]
    assert first["type"] == "rich_text"
    assert first["elements"][0]["elements"][0]["text"] == "ByteDance"
    assert call.token == BOT_TOKEN


async def test_a_mention_asking_for_a_number_opens_with_the_sentence_that_states_it(bot):
    await bot.sender.event(mention_event("XPUTimer は何 GPU の本番クラスタで動いた?", ts="1700000110.000100"))
    (call,) = await posted(bot)
    first = call.args["blocks"][0]
    assert first["type"] == "rich_text"
    runs = first["elements"][0]["elements"]
    assert {"type": "text", "text": "6,000 GPU", "style": {"bold": True}} in runs
    links = [run for run in runs if run["type"] == "link"]
    assert links and links[0]["url"].startswith("https://wiki.example.com/") and "*" not in json.dumps(runs)


async def test_mention_inside_a_thread_answers_in_that_thread(bot):
    await bot.sender.event(
        mention_event("MegaScale とは", ts="1700000300.000100", thread_ts="1700000000.000001")
    )
    (call,) = await posted(bot)
    assert call.args["thread_ts"] == "1700000000.000001"


async def test_reply_in_channel_when_threads_are_off(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, reply_in_thread=False) as bot:
        await bot.sender.event(mention_event("MegaScale とは"))
        (call,) = await posted(bot)
    assert call.args.get("thread_ts") is None and call.args["channel"] == CHANNEL_ID


async def test_slack_retries_of_an_event_are_answered_once(bot):
    event = mention_event("Minder を開発したのはどこ?")
    first = await bot.sender.event(event, event_id="Ev0RETRY")
    retries = [await bot.sender.event(event, event_id="Ev0RETRY", retry_num=n) for n in (1, 2, 3)]
    assert [r.status for r in [first, *retries]] == [200] * 4
    await posted(bot, count=1)
    await bot.sender.event(
        mention_event("Minder を開発したのはどこ?", ts="1700000999.000100"), event_id="Ev0OTHER"
    )
    await posted(bot, count=2)  # a different event is a different question


async def test_a_retry_that_is_the_first_delivery_is_answered(bot):
    await bot.sender.event(mention_event("MegaScale とは"), event_id="Ev0ONLYRETRY", retry_num=1)
    await posted(bot, count=1)


async def test_direct_messages_are_answered_in_the_dm(bot):
    await bot.sender.event(direct_message("ByteDance の関連プロダクトは?"))
    (call,) = await posted(bot)
    assert call.args["channel"] == DM_CHANNEL_ID and call.args.get("thread_ts") is None
    assert "MegaScale" in message_text(call.args["blocks"])


@pytest.mark.parametrize(
    "event",
    [
        direct_message("hello", bot_id=BOT_ID, user=BOT_USER_ID),  # our own answer, echoed back
        direct_message("I am another bot", bot_id="B0OTHER", subtype="bot_message"),
        direct_message("edited", subtype="message_changed"),
        direct_message("not a DM", channel_type="channel", channel=CHANNEL_ID),
        mention_event("I am a bot mentioning you", bot_id="B0OTHER"),
        mention_event("in a DM", channel=DM_CHANNEL_ID),  # answered by the message.im event instead
    ],
)
async def test_never_answers_itself_other_bots_or_edits(bot, event):
    sent = await bot.sender.event(event)
    assert sent.status == 200
    await nothing_posted(bot)


def claimed(bot) -> list[str]:
    """The event ids the state store holds claims for."""
    with sqlite3.connect(bot.settings.state_db) as db:
        return sorted(row[0] for row in db.execute("SELECT event_id FROM seen_events"))


@pytest.mark.parametrize(
    ("event", "overrides"),
    [
        (direct_message("edited", subtype="message_changed"), {}),
        (direct_message("", subtype="message_deleted"), {}),
        (direct_message("I am another bot", bot_id="B0OTHER", subtype="bot_message"), {}),
        (direct_message("joined", subtype="channel_join"), {}),
        (mention_event("in a DM", channel=DM_CHANNEL_ID), {}),
        (direct_message("chatter", channel_type="channel", channel=CHANNEL_ID), {}),
        ({"type": "app_home_opened", "user": USER_ID, "channel": "D0HOME", "tab": "messages"}, {}),
        ({"type": "app_home_opened", "user": USER_ID, "channel": "D0HOME", "tab": "about"}, {}),
        (
            {"type": "link_shared", "channel": CHANNEL_ID, "message_ts": "1.2", "links": [{"url": "x"}]},
            {"wiki_base_url": None},
        ),
    ],
    ids=[
        "dm-edit",
        "dm-deletion",
        "dm-bot",
        "dm-join",
        "mention-in-dm",
        "channel-chatter",
        "messages-tab",
        "about-tab",
        "link-without-base-url",
    ],
)
async def test_an_event_the_bot_ignores_is_not_claimed(tmp_path, fake_slack, linked_wiki, event, overrides):
    """The listener's own filter runs before the claim: an ignored event costs no write to the
    state store (and an outage of the store nothing to apologise for)."""
    settings = {"wiki_base_url": "https://wiki.example.com/", **overrides}
    async with running_bot(tmp_path, fake_slack, linked_wiki, **settings) as bot:
        sent = await bot.sender.event(event, event_id="Ev0IGNORED")
        assert sent.status == 200
        await bot.sender.event(direct_message("Minder とは"), event_id="Ev0ANSWERED")
        await posted(bot)
        assert claimed(bot) == ["Ev0ANSWERED"]
    assert fake_slack.calls_to("chat.postEphemeral") == [] and fake_slack.calls_to("views.publish") == []


async def test_mentions_only_in_allowed_channels(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, allowed_channels="C0ALLOWED,C0OTHER") as bot:
        await bot.sender.event(mention_event("MegaScale とは"))
        (refusal,) = await fake_slack.wait_for_calls("chat.postEphemeral")
        assert refusal.args["user"] == USER_ID and "do not answer in this channel" in refusal.args["text"]
        await nothing_posted(bot)
        await bot.sender.event(mention_event("MegaScale とは", channel="C0ALLOWED"))
        (call,) = await posted(bot)
    assert call.args["channel"] == "C0ALLOWED"


async def test_events_from_other_workspaces_are_refused(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, slack_team_id="T0FAKE") as bot:
        sent = await bot.sender.event(mention_event("MegaScale とは"), team_id=OTHER_TEAM_ID)
        assert sent.status == 200
        await nothing_posted(bot)


async def test_hostile_mention_is_escaped(bot):
    hostile = '<!channel> <!here|here> <@U0BOSS> &lt;script&gt; "quoted" *bold* MegaScale'
    await bot.sender.event(mention_event(hostile))
    (call,) = await posted(bot)
    payload = json.dumps(call.args, ensure_ascii=False)
    assert "<!channel>" not in payload and "<!here" not in payload and "<@U0BOSS>" not in payload
    assert "<script>" not in payload


async def test_a_5000_character_mention_gets_a_polite_answer(bot):
    await bot.sender.event(mention_event("訓練" * 2500))
    (call,) = await posted(bot)
    assert "Sorry, that is 5,000 characters long" in message_text(call.args["blocks"])


async def test_a_failing_listener_apologises_and_logs_with_context(bot, caplog):
    bot.slack.fail("chat.postMessage", status=500, retry_after=None, times=3)  # every retry fails too
    await bot.sender.event(mention_event("MegaScale とは"))
    (apology,) = await bot.slack.wait_for_calls("chat.postEphemeral")
    assert apology.args["user"] == USER_ID and "Sorry, something went wrong" in apology.args["text"]
    assert "listener failed on event app_mention (team T0FAKE, user U0ALICE" in caplog.text


async def test_home_tab_shows_recent_sources_and_usage(bot):
    await bot.sender.event(
        {
            "type": "app_home_opened",
            "user": USER_ID,
            "channel": "D0HOME",
            "tab": "home",
            "event_ts": "1700000400.000100",
        }
    )
    (call,) = await bot.slack.wait_for_calls("views.publish")
    assert call.args["user_id"] == USER_ID
    view = call.args["view"]
    assert_valid_view(view)
    text = message_text(view["blocks"])
    assert "Recent sources" in text and "`/entity NAME`" in text and "NSDI" in text


async def test_messages_tab_does_not_publish_home(bot):
    await bot.sender.event(
        {
            "type": "app_home_opened",
            "user": USER_ID,
            "channel": "D0HOME",
            "tab": "messages",
            "event_ts": "1700000400.000100",
        }
    )
    await asyncio.sleep(QUIET_S)
    assert bot.slack.calls_to("views.publish") == []


async def test_wiki_links_unfurl_into_a_card(bot):
    event = {
        "type": "link_shared",
        "channel": CHANNEL_ID,
        "user": USER_ID,
        "message_ts": "1700000500.000100",
        "links": [
            {"domain": "wiki.example.com", "url": "https://wiki.example.com/wiki/entities/ByteDance"},
            {"domain": "wiki.example.com", "url": "https://wiki.example.com/wiki/entities/Nobody"},
        ],
        "event_ts": "1700000500.000100",
    }
    await bot.sender.event(event)
    (call,) = await bot.slack.wait_for_calls("chat.unfurl")
    unfurls = call.args["unfurls"]
    assert list(unfurls) == ["https://wiki.example.com/wiki/entities/ByteDance"]
    blocks = unfurls["https://wiki.example.com/wiki/entities/ByteDance"]["blocks"]
    assert_valid_blocks(blocks)
    assert "ByteDance" in message_text(blocks)


async def test_no_unfurl_without_a_wiki_base_url(tmp_path, fake_slack, wiki):
    async with running_bot(tmp_path, fake_slack, wiki) as bot:
        await bot.sender.event(
            {
                "type": "link_shared",
                "channel": CHANNEL_ID,
                "user": USER_ID,
                "message_ts": "1.2",
                "links": [{"url": "https://wiki.example.com/wiki/x"}],
            }
        )
        await asyncio.sleep(QUIET_S)
    assert fake_slack.calls_to("chat.unfurl") == []


@pytest.mark.parametrize(
    ("timestamp_offset", "signature"),
    [
        (0, "v0=" + "0" * 64),  # forged
        (0, "v1=whatever"),
        (-6 * 60, None),  # correctly signed, but 6 minutes old
        (+6 * 60, None),  # from the future
    ],
)
async def test_bad_and_stale_signatures_get_401(bot, timestamp_offset, signature):
    body = urlencode(
        {
            "command": "/entity",
            "text": "ByteDance",
            "team_id": "T0FAKE",
            "response_url": bot.slack.response_url("forged"),
        }
    )
    sent = await bot.sender.post(
        body,
        "application/x-www-form-urlencoded",
        timestamp=int(time.time()) + timestamp_offset,
        signature=signature,
    )
    assert sent.status == 401
    event = json.dumps(bot.sender.event_body(mention_event("MegaScale")))
    sent = await bot.sender.post(
        event, "application/json", timestamp=int(time.time()) + timestamp_offset, signature=signature
    )
    assert sent.status == 401
    await asyncio.sleep(QUIET_S)
    assert bot.slack.responses_to("forged") == [] and bot.slack.calls_to("chat.postMessage") == []


async def test_a_request_signed_with_another_secret_gets_401(bot):
    async with SlackSender(bot.sender.url, SIGNING_SECRET + "x") as forger:
        sent = await forger.command("/entity", "ByteDance", response_url=bot.slack.response_url("f"))
    assert sent.status == 401


async def test_url_verification_echoes_the_challenge(bot):
    body = json.dumps(
        {
            "token": "legacy",
            "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
            "type": "url_verification",
        }
    )
    sent = await bot.sender.post(body, "application/json")
    assert sent.status == 200 and sent.json() == {
        "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"
    }


async def test_ssl_check_is_answered_without_a_signature(bot):
    sent = await bot.sender.post(
        "ssl_check=1&token=legacy", "application/x-www-form-urlencoded", signature="v0=not-checked"
    )
    assert sent.status == 200


async def test_healthz_reports_the_index_state(bot, linked_wiki):
    status, body = await bot.get("/healthz")
    assert status == 200
    assert body["status"] == "ready" and body["pages"] == linked_wiki.state().pages and body["updated_at"]


async def test_healthz_says_when_the_state_file_was_deleted_and_opened_anew(bot, caplog):
    _, body = await bot.get("/healthz")
    assert body["state"] == {"reopened": False, "reopened_at": None, "warning": None}
    await bot.sender.event(mention_event("MegaScale とは", ts="1700000300.000100"), event_id="Ev0FIRST")
    await posted(bot)
    bot.settings.state_db.unlink()
    await bot.sender.event(mention_event("Minder とは", ts="1700000301.000100"), event_id="Ev0SECOND")
    await posted(bot, count=2)
    _, body = await bot.get("/healthz")
    assert body["state"]["reopened"] is True and body["state"]["reopened_at"]
    assert "deleted or replaced while serving" in body["state"]["warning"]
    assert "was deleted while in use" in caplog.text
    kept = sqlite3.connect(bot.settings.state_db).execute("SELECT event_id FROM seen_events").fetchall()
    assert kept == [("Ev0SECOND",)]  # the claim made after the deletion is in the file at the path


async def test_healthz_says_why_the_index_failed_but_not_where(tmp_path, fake_slack):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    wiki = Wiki.open(EXAMPLE_VAULT, blocker / "index")
    with pytest.raises(NotADirectoryError):
        wiki.update()
    assert str(tmp_path) in (wiki.state().last_error or "")
    async with running_bot(tmp_path, fake_slack, wiki) as bot:
        status, body = await bot.get("/healthz")
    assert status == 200 and body["status"] == "error"
    assert body["error"] == "NotADirectoryError: [Errno 20] Not a directory: '…/index'"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "FileNotFoundError: [Errno 2] No such file: '/srv/a b/vault'",
            "FileNotFoundError: [Errno 2] No such file: '…/vault'",
        ),
        (
            'PermissionError: "/srv/x/state.sqlite3" is read-only',
            'PermissionError: "…/state.sqlite3" is read-only',
        ),
        ("cannot read /srv/wiki/a.md, /srv/wiki/b.md: denied", "cannot read …/a.md, …/b.md: denied"),
        ("git: could not create work tree dir (/srv/vault)", "git: could not create work tree dir (…/vault)"),
        ("fetch https://git.example/team/wiki.git failed", "fetch https://git.example/team/wiki.git failed"),
        ("clone file:///srv/git/wiki.git failed", "clone file:///srv/git/wiki.git failed"),
        ("3/4 pages, ./relative/path, ~/home/x", "3/4 pages, ./relative/path, ~/home/x"),
        ("ValueError: bad frontmatter", "ValueError: bad frontmatter"),
        (None, None),
    ],
)
def test_error_texts_lose_their_paths(text, shown):
    assert without_paths(text) == shown


async def test_tokens_never_appear_in_logs(bot, caplog):
    caplog.set_level(logging.DEBUG)
    await bot.sender.event(mention_event("MegaScale とは"))
    await posted(bot)
    sent = await bot.sender.command("/entity", "ByteDance", response_url=bot.slack.response_url("t"))
    assert sent.status == 200
    await bot.slack.wait_for_responses("t")
    assert caplog.records, "expected debug logs to inspect"
    for secret in (BOT_TOKEN, APP_TOKEN, SIGNING_SECRET):
        assert secret not in caplog.text


async def test_healthz_warns_when_an_update_removed_most_of_the_vault(tmp_path, fake_slack):
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "own-index")
    wiki.update()
    async with running_bot(tmp_path, fake_slack, wiki) as bot:
        status, body = await bot.get("/healthz")
        assert status == 200 and body["status"] == "ready" and body["warning"] is None
        shutil.rmtree(vault / "wiki")  # the checkout of a force-pushed empty tree
        wiki.update()
        status, body = await bot.get("/healthz")
    assert status == 200 and body["pages"] == 0
    assert body["warning"].startswith("12 of the vault's 12 files were removed at ")
