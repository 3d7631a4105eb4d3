"""``/wiki QUERY``, ``/wiki help`` and ``/wiki digest [YYYY-MM-DD]``: acknowledged at once (saying so
when the bot is busy), answered privately through ``response_url`` (a digest preview in several
messages) in the user's language."""

from __future__ import annotations

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import replies_for_text
from bot.blocks.mrkdwn import unescape
from bot.i18n import use_language
from bot.slack.delivery import acknowledge_command, respond_privately
from bot.slack.user_locale import UserLanguages
from config.settings import Settings
from index import Wiki


async def handle_wiki_command(
    ack: AsyncAck,
    command: dict,
    respond: AsyncRespond,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    languages: UserLanguages,
    answers: AnswerQueue,
) -> None:
    await acknowledge_command(ack, answers.full, languages.cached(command.get("user_id")))
    text = f"{settings.wiki_command} {unescape(command.get('text') or '').strip()}"
    with use_language(await languages.language(client, command.get("user_id"))):
        replies = await answers.run(replies_for_text, text, wiki, settings)
    for reply in replies:
        await respond_privately(respond, reply)
