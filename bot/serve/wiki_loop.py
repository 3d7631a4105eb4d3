"""The wiki's loop while the bot runs: questions filed in its inbox land (bot/loop/inbox.py), are asked
again when the vault changes and answered in their thread (bot/loop/answered_later.py), and watched
pages tell their channels what changed (bot/loop/watches.py). `WikiLoop` holds the three; `sakuin
serve` and `sakuin socket` run its tasks beside the Slack app, and hand it every index update.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass

from slack_sdk.web.async_client import AsyncWebClient

from bot.loop.answered_later import AnsweredLater
from bot.loop.inbox import RETRY_BASE_S, Inbox
from bot.loop.watches import PageWatchers
from bot.serve.inbox_git import inbox_writer
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import IndexReport, Wiki


@dataclass
class WikiLoop:
    inbox: Inbox
    answered: AnsweredLater
    watchers: PageWatchers

    def on_index_update(self, report: IndexReport) -> None:
        """An update changed the index (called by `bot.serve.freshness.Freshener`, on the event loop)."""
        self.answered.on_index_update(report)
        self.watchers.on_index_update(report)

    def tasks(self) -> dict[str, Coroutine[object, object, None]]:
        """The background tasks, by name."""
        return {
            "inbox": self.inbox.run(),
            "inbox-answers": self.answered.run(),
            "watches": self.watchers.run(),
        }


def wiki_loop(
    settings: Settings,
    wiki: Wiki,
    state: AsyncStateStore,
    client: AsyncWebClient,
    *,
    retry_base_s: float = RETRY_BASE_S,
) -> WikiLoop:
    inbox = Inbox(settings, state, inbox_writer(settings), retry_base_s=retry_base_s)
    return WikiLoop(
        inbox,
        AnsweredLater(settings, wiki, state, client, inbox),
        PageWatchers(settings, wiki, state, client),
    )
