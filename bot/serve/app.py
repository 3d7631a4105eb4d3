"""The Bolt app: built explicitly from our Settings, the wiki, the state store and a Web API client.

Nothing here reads the environment. Global middleware, in order after Bolt's own (ssl_check,
signature, authorization by `bot.slack.identity.BotIdentity` (no call to Slack in the way of an ack), the
app's own events, url_verification):

0. replace lone surrogates in the payload (`bot.serve.inbound.clean_payload`): JSON may carry them, and
   no answer could be encoded with one;
1. refuse requests from another workspace when ``SLACK_TEAM_ID`` is set;
2. refuse requests whose ``response_url`` is not Slack's (`bot.serve.inbound.is_slack_response_url`);
3. mark the request trusted (``context[TRUSTED]``): signed (or from the app's own Socket Mode
   connection), ours, answerable;
4. ignore events from bots (the app itself included), so it never answers a bot;
5. hand the listeners the wiki, the settings, the state store, the answer queue, the conversations
   (answering in threads, following them, feedback), each user's UI language and the wiki's inbox
   as the ``wiki``, ``settings``, ``state``, ``answers``, ``conversations``, ``languages`` and
   ``inbox`` arguments (`bot.answering.queue.AnswerQueue`, `bot.slack.user_locale.UserLanguages`,
   `bot.loop.inbox.Inbox`).

Each event is answered once whatever Slack retries; that claim is made after the event is
acknowledged (`bot.listeners.events.once`).

Listeners do their domain work through the answer queue (`bot.answering.queue`), never on the
event loop: the ack path only verifies, routes and responds.

One error handler logs a failed listener with its context and tells the user politely (that the
bot is overloaded, when the answer queue stayed full), but only on a trusted request: one that
failed before it was checked gets one log line and no answer at all, no response_url post and
no Slack call. (Over HTTP, `bot.serve.server` already refused every request whose signature is not
right before Bolt saw it.)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped, warning_token_skipped
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue, Overloaded
from bot.blocks.mrkdwn import strip_mention
from bot.blocks.notices import failure_reply, overloaded_reply
from bot.blocks.reply import Reply
from bot.conversation.conversations import Conversations
from bot.errors import describe_error
from bot.i18n import Language, _, language_for_locale, language_for_question, use_language
from bot.listeners import register_listeners
from bot.loop.inbox import Inbox
from bot.serve.inbound import RefusalLog, clean_payload, is_slack_response_url
from bot.serve.inbox_git import inbox_writer
from bot.slack.delivery import respond_privately, tell_user
from bot.slack.identity import BotIdentity
from bot.slack.user_locale import UserLanguages
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)

SLACK_FAILURES = (SlackApiError, aiohttp.ClientError, TimeoutError)
"""A call to Slack that failed: one line says why, a traceback would say nothing more."""


def _hush_token_notices(record: logging.LogRecord) -> bool:
    """Bolt reads SLACK_BOT_TOKEN from the environment itself and warns that our client and
    `BotIdentity`, which carry the token from Settings, take precedence: they always do."""
    hushed = (warning_client_prioritized_and_token_skipped(), warning_token_skipped())
    return record.getMessage() not in hushed


BOLT_LOG = logging.getLogger("bot.bolt")
BOLT_LOG.addFilter(_hush_token_notices)

Next = Callable[[], Awaitable[None]]

TRUSTED = "sakuin_trusted"
"""The context key set once a request passed Bolt's signature check and ours: only then does the
error handler answer it."""


def create_app(
    settings: Settings,
    wiki: Wiki,
    state: AsyncStateStore,
    client: AsyncWebClient,
    answers: AnswerQueue | None = None,
    identity: BotIdentity | None = None,
    inbox: Inbox | None = None,
) -> AsyncApp:
    """The Bolt app for HTTP (`bot.serve.server`) and Socket Mode (`bot.serve.socket_mode`) alike.

    Events are acknowledged before the listener runs (``process_before_response=False``): a search
    may take longer than Slack's 3 seconds, and the answer is posted afterwards. ``answers`` is
    the queue the listeners answer through (by default one with a thread per core); its owner
    closes it. ``identity`` authorizes each request without calling Slack (`bot.slack.identity`).
    ``inbox`` files the questions users ask the wiki to cover (by default into the vault, or the
    git branch, with no retry but the next filing's: `sakuin serve` runs its delivery loop).
    """
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    app = AsyncApp(
        client=client,
        authorize=identity or BotIdentity(settings, client),
        signing_secret=secret,
        process_before_response=False,
        logger=BOLT_LOG,
    )
    app.use(_clean_payload)
    app.use(_refuse_other_teams(settings))
    app.use(_refuse_foreign_response_urls(settings))
    app.use(_mark_trusted)
    app.use(_ignore_bots)
    inbox = inbox or Inbox(settings, state, inbox_writer(settings))
    languages = UserLanguages(settings.ui_language)
    app.use(_provide(settings, wiki, state, answers or AnswerQueue(), languages, inbox))
    register_listeners(app, settings)
    app.error(_error_handler(RefusalLog(log)))
    return app


async def _clean_payload(body: dict, next: Next) -> None:
    clean_payload(body)
    await next()


def _refuse_other_teams(settings: Settings) -> Callable[..., Awaitable[BoltResponse | None]]:
    refusals = RefusalLog(log)

    async def refuse_other_teams(context: AsyncBoltContext, body: dict, next: Next) -> BoltResponse | None:
        if settings.slack_team_id is None or context.team_id == settings.slack_team_id:
            await next()
            return None
        refusals.refused(
            "refused %s from workspace %s (configured: %s)",
            _kind(body),
            context.team_id,
            settings.slack_team_id,
        )
        if body.get("command"):
            with use_language(language_for_locale(None, settings.ui_language)):
                return BoltResponse(status=200, body=_("Sorry, sakuin is not available in this workspace."))
        return BoltResponse(status=200, body="")

    return refuse_other_teams


def _refuse_foreign_response_urls(settings: Settings) -> Callable[..., Awaitable[BoltResponse | None]]:
    """Slack's response URLs are on its hooks host; any other would make the server post wherever
    the request says. Such a request is acknowledged and otherwise ignored."""
    refusals = RefusalLog(log)

    async def refuse_foreign_response_urls(
        context: AsyncBoltContext, body: dict, next: Next
    ) -> BoltResponse | None:
        url = context.response_url
        if url is None or is_slack_response_url(url, settings.slack_api_url):
            await next()
            return None
        refusals.refused(
            "refused %s from workspace %s: its response_url is not on Slack's hooks host",
            _kind(body),
            context.team_id,
        )
        return BoltResponse(status=200, body="")

    return refuse_foreign_response_urls


async def _mark_trusted(context: AsyncBoltContext, next: Next) -> None:
    """Reached only past Bolt's signature check (or from the app's own Socket Mode connection) and
    the two refusals above."""
    context[TRUSTED] = True
    await next()


def is_from_bot(event: dict, bot_user_id: str | None) -> bool:
    """A bot wrote it (any bot, this app included), or it is our own user's message."""
    message = event.get("message") if isinstance(event.get("message"), dict) else {}
    return bool(
        event.get("bot_id")
        or event.get("bot_profile")
        or event.get("subtype") == "bot_message"
        or message.get("bot_id")
        or (bot_user_id is not None and event.get("user") == bot_user_id)
    )


async def _ignore_bots(context: AsyncBoltContext, body: dict, next: Next) -> BoltResponse | None:
    event = body.get("event")
    if (
        body.get("type") == "event_callback"
        and isinstance(event, dict)
        and is_from_bot(event, context.bot_user_id)
    ):
        log.debug("ignored a %s event from a bot", event.get("type"))
        return BoltResponse(status=200, body="")
    await next()
    return None


def _provide(
    settings: Settings,
    wiki: Wiki,
    state: AsyncStateStore,
    answers: AnswerQueue,
    languages: UserLanguages,
    inbox: Inbox,
) -> Callable[..., Awaitable[None]]:
    conversations = Conversations(wiki, settings, state, answers)

    async def provide(context: AsyncBoltContext, next: Next) -> None:
        context["wiki"] = wiki
        context["settings"] = settings
        context["state"] = state
        context["answers"] = answers
        context["conversations"] = conversations
        context["languages"] = languages
        context["inbox"] = inbox
        await next()

    return provide


def _error_handler(unverified: RefusalLog) -> Callable[[Exception, dict, AsyncBoltContext], Awaitable[None]]:
    """`handle_error` for trusted requests; one that failed before it was trusted is not answered
    (it may be forged: its channel, user and response_url are anyone's), only logged, through
    ``unverified``."""

    async def handle_any_error(error: Exception, body: dict, context: AsyncBoltContext) -> None:
        if context.get(TRUSTED):
            await handle_error(error, body, context)
        else:
            unverified.refused(
                "a request failed before it was verified (%s): not answered", type(error).__name__
            )

    return handle_any_error


async def handle_error(error: Exception, body: dict, context: AsyncBoltContext) -> None:
    """Log what failed for whom, then apologise to the user where they asked."""
    event = body.get("event") if isinstance(body.get("event"), dict) else {}
    channel = event.get("channel") or body.get("channel_id") or (body.get("channel") or {}).get("id")
    overloaded = isinstance(error, Overloaded)
    outage = isinstance(error, SLACK_FAILURES)
    log.log(
        logging.WARNING if overloaded else logging.ERROR,
        "listener failed on %s (team %s, user %s, channel %s): %s",
        _kind(body),
        context.team_id,
        context.user_id,
        channel,
        describe_error(error) if outage else error,
        exc_info=None if overloaded or outage else error,
    )
    try:
        with use_language(apology_language(context, event)):
            await _apologise(context, event, channel, overloaded_reply() if overloaded else failure_reply())
    except Exception as apology_error:  # the user cannot be told; the log above is what is left
        log.error("could not tell the user about the failure: %s", apology_error)


def apology_language(context: AsyncBoltContext, event: dict[str, Any]) -> Language:
    """The language of the question that failed, or of the user who clicked or typed a command.

    No Slack call here: the user's cached language, else the fallback.
    """
    settings: Settings | None = context.get("settings")
    ui_language = settings.ui_language if settings is not None else "auto"
    if event.get("type") in ("app_mention", "message") and event.get("text"):
        return language_for_question(strip_mention(event["text"], context.bot_user_id), ui_language)
    languages: UserLanguages | None = context.get("languages")
    if languages is None:
        return language_for_locale(None, ui_language)
    return languages.cached(context.user_id)


async def _apologise(
    context: AsyncBoltContext, event: dict[str, Any], channel: str | None, apology: Reply
) -> None:
    if context.respond is not None and context.respond.response_url:
        await respond_privately(context.respond, apology)
        return
    if not channel or event.get("type") not in ("app_mention", "message"):
        return
    in_thread = (
        event.get("thread_ts") if channel.startswith("D") else event.get("thread_ts") or event.get("ts")
    )
    await tell_user(context.client, channel, event.get("user"), apology, thread_ts=in_thread)


def _kind(body: dict) -> str:
    if body.get("command"):
        return f"command {body['command']}"
    if body.get("type") == "event_callback":
        return f"event {(body.get('event') or {}).get('type')}"
    if body.get("type") == "block_actions":
        action_ids = ",".join(action.get("action_id", "?") for action in body.get("actions") or [])
        return f"action {action_ids}"
    return f"request {body.get('type')}"
