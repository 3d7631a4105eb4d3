"""Events API: mentions, direct messages (the agent experience's Messages tab too), thread
follow-ups, questions in answer channels, the ask reaction, the Home tab and shared wiki links."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext

from bot.conversation.followups import Kind, classify
from bot.listeners.events.app_home_opened import handle_app_home_opened, shows_tab
from bot.listeners.events.app_mention import answers_mention, handle_app_mention
from bot.listeners.events.link_shared import handle_link_shared, unfurls_links
from bot.listeners.events.message_agent import handle_agent_message
from bot.listeners.events.message_channels import answers_channel_question, handle_channel_question
from bot.listeners.events.message_im import answers_direct_message, handle_message
from bot.listeners.events.message_thread import handle_thread_message
from bot.listeners.events.once import once_per_event
from bot.listeners.events.reaction_added import answers_reaction, handle_reaction_added
from config.settings import Settings


async def may_be_follow_up(event: dict, context: AsyncBoltContext) -> bool:
    return classify(event, context.bot_user_id).kind is not Kind.IGNORE


async def ignore_event() -> None:
    """Every event no listener will answer (channel chatter, a DM's edits and deletions, a mention
    inside a DM, another tab opened, a link without WIKI_BASE_URL): acknowledged (Bolt answers an
    unmatched event with 404), and not claimed, so it costs no write to the state store, and an
    outage of the store has no failure to apologise for."""


def register(app: AsyncApp, settings: Settings) -> None:
    # Each listener's matcher is its own filter, applied before the claim; Bolt runs the first
    # listener that matches.
    direct_message = handle_agent_message if settings.experience == "agent" else handle_message
    app.event("app_mention", matchers=[answers_mention])(once_per_event(handle_app_mention))
    app.event("message", matchers=[answers_direct_message])(once_per_event(direct_message))
    app.event("message", matchers=[answers_channel_question])(once_per_event(handle_channel_question))
    app.event("message", matchers=[may_be_follow_up])(once_per_event(handle_thread_message))
    app.event("app_home_opened", matchers=[shows_tab])(once_per_event(handle_app_home_opened))
    app.event("link_shared", matchers=[unfurls_links])(once_per_event(handle_link_shared))
    app.event("reaction_added", matchers=[answers_reaction])(once_per_event(handle_reaction_added))
    for kind in ("app_mention", "message", "app_home_opened", "link_shared", "reaction_added"):
        app.event(kind)(ignore_event)
