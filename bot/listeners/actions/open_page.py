"""Open a page's card: a related page, a search hit, or the candidate the user chose.

In a private answer the card replaces the message in place. Clicked in a public message (a
thread answer, an unfurl), the card is shown to the clicking user only, so nobody else's view
changes under them. The card is in the clicking user's language.
"""

from __future__ import annotations

from functools import partial

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import card_reply
from bot.blocks.buttons import HASHED_PREFIX
from bot.blocks.reply import Reply
from bot.i18n import use_language
from bot.slack.delivery import respond_busy, respond_privately
from bot.slack.user_locale import UserLanguages
from index import IndexNotReady, Wiki


async def handle_open_page(
    ack: AsyncAck,
    action: dict,
    body: dict,
    respond: AsyncRespond,
    client: AsyncWebClient,
    wiki: Wiki,
    languages: UserLanguages,
    answers: AnswerQueue,
) -> None:
    await ack()
    value = action.get("value") or (action.get("selected_option") or {}).get("value") or ""
    with use_language(await languages.language(client, (body.get("user") or {}).get("id"))):
        reply = await answers.run(card_for_value, value, wiki, on_busy=partial(respond_busy, respond))
    in_place = bool((body.get("container") or {}).get("is_ephemeral"))
    await respond_privately(respond, reply, replace=in_place)


def card_for_value(value: str, wiki: Wiki) -> Reply:
    return card_reply(page_path(value, wiki), wiki)


def page_path(value: str, wiki: Wiki) -> str:
    """The page a button value names: its path, or for a path too long for a select, its digest."""
    if not value.startswith(HASHED_PREFIX):
        return value
    try:
        return wiki.page_for_token(value.removeprefix(HASHED_PREFIX)) or value
    except IndexNotReady:
        return value
