"""Slack's agent messaging experience (``AGENT_EXPERIENCE=agent``, ``agent_view`` in the manifest).

Users talk to sakuin in the app's Messages tab: opening it sets the suggested prompts of
`bot.conversation.assistant` at its top (`bot.listeners.events.app_home_opened`), and each question there
(``message.im``) gets Slack's loading status in its thread while the wiki is searched, then the
answer a mention gets (`bot.listeners.events.message_agent`). Slack clears the status when the
answer is posted; a status Slack refuses (a scope missing) never holds up the answer.
"""

from __future__ import annotations

import logging

import aiohttp
from slack_bolt.context.set_status.async_set_status import AsyncSetStatus
from slack_sdk.errors import SlackApiError

from bot.conversation.assistant import STATUS
from bot.errors import describe_error
from bot.i18n import N_, _

log = logging.getLogger(__name__)

LOADING_MESSAGES = (
    N_("Looking up the names in your question…"),
    N_("Reading the pages that mention them…"),
    N_("Finding the sentence that answers…"),
)
"""What Slack's loading indicator cycles through (at most 10), after `bot.conversation.assistant.STATUS`."""


def loading_messages() -> list[str]:
    """The loading messages, in the language being composed in."""
    return [_(message) for message in LOADING_MESSAGES]


async def show_loading(set_status: AsyncSetStatus | None, channel: str) -> None:
    """Slack's loading status on the question's thread (bolt's ``set_status``:
    ``assistant.threads.setStatus`` with ``loading_messages``), in the language set by the caller."""
    if set_status is None:
        return
    try:
        await set_status(status=_(STATUS), loading_messages=loading_messages())
    except (SlackApiError, aiohttp.ClientError, TimeoutError) as error:
        log.warning("no loading status in %s (answering anyway): %s", channel, describe_error(error))
