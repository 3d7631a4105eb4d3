"""Events API: mentions, direct messages, thread follow-ups, the Home tab and shared wiki links."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext

from bot.conversation.followups import Kind, classify
from bot.listeners.events.app_home_opened import handle_app_home_opened, shows_tab
from bot.listeners.events.app_mention import answers_mention, handle_app_mention
from bot.listeners.events.link_shared import handle_link_shared, unfurls_links
from bot.listeners.events.message_im import answers_direct_message, handle_message
from bot.listeners.events.message_thread import handle_thread_message
from bot.listeners.events.once import once_per_event


async def may_be_follow_up(event: dict, context: AsyncBoltContext) -> bool:
    return classify(event, context.bot_user_id).kind is not Kind.IGNORE


async def ignore_event() -> None:
    """Every event no listener will answer (channel chatter, a DM's edits and deletions, a mention
    inside a DM, another tab opened, a link without WIKI_BASE_URL): acknowledged (Bolt answers an
    unmatched event with 404), and not claimed, so it costs no write to the state store, and an
    outage of the store has no failure to apologise for."""


def register(app: AsyncApp) -> None:
    # Each listener's matcher is its own filter, applied before the claim; Bolt runs the first
    # listener that matches.
    app.event("app_mention", matchers=[answers_mention])(once_per_event(handle_app_mention))
    app.event("message", matchers=[answers_direct_message])(once_per_event(handle_message))
    app.event("message", matchers=[may_be_follow_up])(once_per_event(handle_thread_message))
    app.event("app_home_opened", matchers=[shows_tab])(once_per_event(handle_app_home_opened))
    app.event("link_shared", matchers=[unfurls_links])(once_per_event(handle_link_shared))
    for kind in ("app_mention", "message", "app_home_opened", "link_shared"):
        app.event(kind)(ignore_event)
