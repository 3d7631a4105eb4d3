"""Which channel messages are follow-ups (the pure rules; the thread store decides the rest)."""

from __future__ import annotations

import pytest

from bot.conversation.followups import Kind, classify, is_stop
from tests.bot.fake_slack import BOT_USER_ID, thread_message_event

THREAD, TS = "1700000000.000100", "1700000001.000100"


@pytest.mark.parametrize(
    ("event", "kind"),
    [
        (thread_message_event("それを本番で運用しているのは?", THREAD, TS), Kind.ASK),
        (thread_message_event("who else worked on it?", THREAD, TS, subtype="thread_broadcast"), Kind.ASK),
        (thread_message_event("この図の件は?", THREAD, TS, subtype="file_share"), Kind.ASK),
        (thread_message_event("stop", THREAD, TS), Kind.STOP),
        (thread_message_event("  やめて。 ", THREAD, TS), Kind.STOP),
        (thread_message_event("ＳＴＯＰ！", THREAD, TS), Kind.STOP),
        (thread_message_event("stop the training job?", THREAD, TS), Kind.ASK),
        (thread_message_event("<@U0BOB> 見てもらえますか", THREAD, TS), Kind.CHATTER),
        (thread_message_event("<@U0BOB|bob> stop", THREAD, TS), Kind.CHATTER),
        (thread_message_event("<!subteam^S0INFRA> 誰か分かる?", THREAD, TS), Kind.CHATTER),
        (thread_message_event(f"<@{BOT_USER_ID}> それは?", THREAD, TS), Kind.IGNORE),  # app_mention answers
        (thread_message_event(f"<@U0BOB> <@{BOT_USER_ID}> それは?", THREAD, TS), Kind.IGNORE),
        (thread_message_event("top of the channel", TS, TS), Kind.IGNORE),  # the thread's parent
        ({**thread_message_event("no thread", THREAD, TS), "thread_ts": None}, Kind.IGNORE),
        (thread_message_event("edited", THREAD, TS, subtype="message_changed"), Kind.IGNORE),
        (thread_message_event("deleted", THREAD, TS, subtype="message_deleted"), Kind.IGNORE),
        (thread_message_event("bot", THREAD, TS, bot_id="B0OTHER"), Kind.IGNORE),
        (thread_message_event("dm", THREAD, TS, channel_type="im"), Kind.IGNORE),
        (thread_message_event("", THREAD, TS, subtype="file_share"), Kind.IGNORE),
        ({**thread_message_event("no user", THREAD, TS), "user": None}, Kind.IGNORE),
    ],
)
def test_classify(event, kind):
    follow_up = classify(event, BOT_USER_ID)
    assert follow_up.kind is kind
    if kind is not Kind.IGNORE:
        assert follow_up.thread_ts == THREAD and follow_up.channel == event["channel"]


def test_the_text_is_given_as_typed():
    follow_up = classify(thread_message_event("A &amp; B &lt;とは&gt;", THREAD, TS), BOT_USER_ID)
    assert follow_up.text == "A & B <とは>"


@pytest.mark.parametrize(
    ("text", "stop"),
    [("stop", True), ("Stop.", True), ("止めて", True), ("ストップ", True), ("stopping", False), ("", False)],
)
def test_is_stop(text, stop):
    assert is_stop(text) is stop
