"""Which channel messages are follow-ups: the pure rules, before any state is looked up.

A message in a thread is a follow-up for sakuin when a person wrote it as a new message (not an
edit, a deletion or another subtype), it has text, and it does not address anyone: a message
that mentions sakuin is answered as a mention (Slack sends it as ``app_mention`` too), and one
that mentions someone else is meant for them. Whether sakuin follows that thread at all is the
state store's answer (`bot.state.threads`), asked only for messages that pass these rules.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from bot.blocks.mrkdwn import unescape

FOLLOWED_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})
"""New messages written by a person (a reply also sent to the channel, one with a file)."""

STOP_WORDS = frozenset({"stop", "やめて", "止めて", "ストップ"})
"""Typed alone in a followed thread, these end the following (compared NFKC-folded)."""

_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_BROADCAST = re.compile(r"<!(?:here|channel|everyone|subteam\^[A-Z0-9]+)(?:\|[^>]*)?>")
_TRAILING_PUNCTUATION = "!！.。、,， "


class Kind(Enum):
    IGNORE = "ignore"
    """Not for the follow-up logic: not in a thread, not a person's new message, or a mention of sakuin."""
    ASK = "ask"
    """A question for sakuin if it follows the thread."""
    STOP = "stop"
    """"stop" / "やめて": end the following."""
    CHATTER = "chatter"
    """Meant for someone else: not answered, but the thread is not silent."""


@dataclass(frozen=True)
class FollowUp:
    kind: Kind
    channel: str = ""
    thread_ts: str = ""
    text: str = ""
    """The message as the person typed it (Slack's escaping undone)."""


IGNORED = FollowUp(Kind.IGNORE)


def classify(event: dict, bot_user_id: str | None) -> FollowUp:
    """What a ``message`` event outside a DM is for, by the rules above."""
    channel, thread_ts, ts = event.get("channel"), event.get("thread_ts"), event.get("ts")
    text = (event.get("text") or "").strip()
    if (
        event.get("channel_type") == "im"
        or event.get("subtype") not in FOLLOWED_SUBTYPES
        or event.get("bot_id")
        or not event.get("user")
        or not channel
        or not thread_ts
        or thread_ts == ts
    ):
        return IGNORED
    mentioned = set(_MENTION.findall(text))
    if bot_user_id is not None and bot_user_id in mentioned:
        return IGNORED
    if mentioned or _BROADCAST.search(text):
        return FollowUp(Kind.CHATTER, channel, thread_ts, unescape(text))
    if not text:
        return IGNORED
    kind = Kind.STOP if is_stop(text) else Kind.ASK
    return FollowUp(kind, channel, thread_ts, unescape(text))


def addresses_anyone(text: str) -> bool:
    """The message (as Slack sends it) mentions a user (sakuin included) or a group, or broadcasts."""
    return bool(_MENTION.search(text) or _BROADCAST.search(text))


def is_stop(text: str) -> bool:
    folded = unicodedata.normalize("NFKC", text).casefold().strip().rstrip(_TRAILING_PUNCTUATION)
    return folded in STOP_WORDS
