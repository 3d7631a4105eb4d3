"""``/wiki QUERY``, ``/wiki help``, ``/wiki digest [YYYY-MM-DD]`` and ``/wiki watch|unwatch NAME``,
``/wiki watching`` (bot/loop/watches.py): acknowledged at once (saying so when the bot is busy),
answered privately through ``response_url`` (a digest preview in several messages) in the user's
language."""

from __future__ import annotations

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import replies_for_text
from bot.blocks.mrkdwn import unescape
from bot.i18n import use_language
from bot.loop.watches import watch_command, watch_subcommand
from bot.slack.delivery import acknowledge_command, respond_privately
from bot.slack.user_locale import UserLanguages
from bot.state.store import AsyncStateStore
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
    state: AsyncStateStore,
) -> None:
    await acknowledge_command(ack, answers.full, languages.cached(command.get("user_id")))
    asked = unescape(command.get("text") or "").strip()
    watching = watch_subcommand(asked)
    if watching is not None and command.get("channel_id"):
        with use_language(await languages.language(client, command.get("user_id"))):
            reply = await watch_command(*watching, command["channel_id"], wiki, state, settings, answers)
        await respond_privately(respond, reply)
        return
    text = f"{settings.wiki_command} {asked}"
    with use_language(await languages.language(client, command.get("user_id"))):
        replies = await answers.run(replies_for_text, text, wiki, settings)
    for reply in replies:
        await respond_privately(respond, reply)
