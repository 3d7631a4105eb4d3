"""Watched pages: ``/wiki watch NAME`` (resolved as ``/entity`` resolves it), ``unwatch NAME`` and
``watching``, and the one message a channel gets when a page it watches changes.

A change is noted at each index update (`PageWatchers.on_index_update`); once
``WATCH_COALESCE_MINUTES`` have passed since the first change not told (``0``: at once), one process
leases the watch, compares the page with the snapshot the channel was last told of
(`index.page_changes`) and posts what changed: relation lines added or removed by label, sources
newly linked, the summary's new sentences, the page renamed (found again by its old title) or
gone. A change that means nothing in those terms (whitespace, frontmatter dates) posts nothing.
The messages are in the workspace's language (``UI_LANGUAGE``; ``auto``: Japanese), as the digest.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import not_ready_reply
from bot.blocks.reply import Reply
from bot.blocks.watches import (
    change_reply,
    name_needed_reply,
    not_a_page_reply,
    unwatched_reply,
    watched_reply,
    watching_reply,
)
from bot.i18n import default_language, use_language
from bot.loop.inbox import wait_for_event
from bot.slack.delivery import post_reply
from bot.state.store import AsyncStateStore
from bot.state.watches import PageWatch
from config.settings import Settings
from index import IndexNotReady, IndexReport, PageChange, PageSnapshot, Wiki, page_change, snapshot_of

log = logging.getLogger("sakuin.watches")

WATCH_WORDS = frozenset({"watch", "ウォッチ", "監視"})
UNWATCH_WORDS = frozenset({"unwatch", "ウォッチ解除", "監視解除"})
WATCHING_WORDS = frozenset({"watching", "ウォッチ一覧", "監視一覧", "ウォッチ中"})
LEASE_S = 120.0
IDLE_S = 60.0
"""How often changes noted by another process are looked for, when nothing is due."""
MAX_CHANNELS = 1000
"""The user's channels App Home looks among (one page of ``users.conversations``)."""
RETRY_S = 10.0
"""The wait before telling again a change Slack could not be reached for."""


def watch_subcommand(text: str) -> tuple[str, str] | None:
    """``("watch" | "unwatch" | "watching", NAME)`` for the text after ``/wiki``, else None."""
    word, _space, rest = text.strip().partition(" ")
    folded = word.casefold()
    for name, words in (("watch", WATCH_WORDS), ("unwatch", UNWATCH_WORDS), ("watching", WATCHING_WORDS)):
        if folded in words:
            return name, " ".join(rest.split())
    return None


@dataclass(frozen=True)
class Resolved:
    path: str | None
    title: str | None
    snapshot: str | None
    candidates: tuple[str, ...] = ()


def resolve_page(wiki: Wiki, name: str) -> Resolved:
    """The page ``name`` means, as ``/entity`` finds it, with its snapshot."""
    lookup = wiki.lookup(name)
    card = wiki.card(lookup.match.path) if lookup.match is not None and not lookup.ambiguous else None
    if card is None:
        return Resolved(None, None, None, tuple(candidate.title for candidate in lookup.candidates[:5]))
    return Resolved(card.path, card.title, snapshot_of(card).to_json())


async def watch_command(
    subcommand: str,
    name: str,
    channel: str,
    wiki: Wiki,
    state: AsyncStateStore,
    settings: Settings,
    answers: AnswerQueue,
) -> Reply:
    """The private answer to ``/wiki watch|unwatch|watching``, after doing it (the name resolved
    in the answer queue, as every listener's call of the wiki)."""
    if subcommand == "watching":
        return watching_reply([watch.title for watch in await state.page_watches(channel)])
    if not name:
        return name_needed_reply(settings.wiki_command)
    if subcommand == "unwatch":
        watched = await state.page_watches(channel)
        mine = [watch for watch in watched if watch.title.casefold() == name.casefold()]
        if not mine:
            try:
                resolved = await answers.run(resolve_page, wiki, name)
            except IndexNotReady:
                resolved = Resolved(None, None, None)
            mine = [watch for watch in watched if watch.path == resolved.path]
        for watch in mine:
            await state.unwatch_page(channel, watch.path)
        return unwatched_reply(mine[0].title if mine else None)
    try:
        resolved = await answers.run(resolve_page, wiki, name)
    except IndexNotReady:
        return not_ready_reply()
    if resolved.path is None or resolved.title is None or resolved.snapshot is None:
        return not_a_page_reply(name, resolved.candidates)
    new = await state.watch_page(channel, resolved.path, resolved.title, resolved.snapshot)
    return watched_reply(resolved.title, new=new)


def change_now(wiki: Wiki, watch: PageWatch) -> tuple[PageChange, PageSnapshot | None, str | None]:
    """What changed on the watched page since the snapshot, its new snapshot and its URL. A page no
    longer at its path is looked for by its old title (renamed), else it is gone."""
    old = PageSnapshot.from_json(watch.snapshot) or PageSnapshot(watch.path, watch.title)
    card = wiki.card(watch.path)
    if card is None:
        lookup = wiki.lookup(old.title)
        if lookup.match is not None and not lookup.ambiguous and lookup.match.path != watch.path:
            card = wiki.card(lookup.match.path)
    new = snapshot_of(card) if card is not None else None
    return page_change(old, new), new, card.url if card is not None else None


class PageWatchers:
    """Tells watching channels what changed, coalesced and once."""

    def __init__(
        self,
        settings: Settings,
        wiki: Wiki,
        state: AsyncStateStore,
        client: AsyncWebClient,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings, self.wiki, self.state, self.client = settings, wiki, state, client
        self._clock = clock
        self._wake = asyncio.Event()
        self._noting: set[asyncio.Task[None]] = set()
        self._released = False
        self.told = 0
        """Messages posted (for tests and logs)."""
        self.looked = 0
        """Changes looked at, told or not."""

    @property
    def window_s(self) -> float:
        return self.settings.watch_coalesce_minutes * 60

    def on_index_update(self, report: IndexReport) -> None:
        paths: Sequence[str] = (*report.changed_paths, *report.removed_paths)
        task = asyncio.create_task(self._note(paths, every=report.rebuilt), name="watch-changes")
        self._noting.add(task)
        task.add_done_callback(self._noting.discard)

    async def _note(self, paths: Sequence[str], *, every: bool) -> None:
        try:
            watched = {watch.path for watch in await self.state.page_watches()}  # a read, no write lock
            # A build from nothing names no change: every watched page is compared.
            paths = sorted(watched) if every else [path for path in paths if path in watched]
            marked = await self.state.note_page_changes(paths) if paths else 0
            if marked:
                log.info("noted a change of %d watched page(s)", marked)
                self._wake.set()
        except Exception:
            log.exception("could not note the changes of watched pages")

    async def run(self) -> None:
        while True:
            try:
                await self.tell_due()
                first = await self.state.next_page_change()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("telling the changes of watched pages failed; trying again")
                first = None
            wait = IDLE_S if first is None else min(max(first + self.window_s - self._clock(), 0.05), IDLE_S)
            if self._released:
                wait, self._released = max(wait, RETRY_S), False
            await wait_for_event(self._wake, wait)
            self._wake.clear()

    async def tell_due(self) -> int:
        """Post each change whose window has passed; how many messages were posted."""
        owner = uuid.uuid4().hex
        due = await self.state.claim_page_changes(owner, self._clock() - self.window_s, LEASE_S)
        posted = 0
        for watch in due:
            posted += await self._tell(watch, owner)
        return posted

    async def _tell(self, watch: PageWatch, owner: str) -> int:
        self.looked += 1
        try:
            change, new, url = await asyncio.to_thread(change_now, self.wiki, watch)
        except IndexNotReady:
            await self.state.release_page_change(watch, owner)
            return 0
        told = 0
        if not change.empty:
            with use_language(default_language(self.settings.ui_language)):
                reply = change_reply(change, url, watch.channel)
            try:
                await post_reply(self.client, watch.channel, reply)
                told = 1
                self.told += 1
                log.info("told %s that %s changed", watch.channel, watch.path)
            except SlackApiError as error:  # refused (not in the channel, archived): not retried
                log.warning("could not tell %s that %s changed: %s", watch.channel, watch.path, error)
            except (aiohttp.ClientError, TimeoutError) as error:
                log.warning(
                    "Slack unreachable telling %s of %s (retrying): %s", watch.channel, watch.path, error
                )
                await self.state.release_page_change(watch, owner)
                self._released = True
                return 0
        await self.state.finish_page_change(
            watch,
            owner,
            path_now=new.path if new is not None else None,
            title=new.title if new is not None else watch.title,
            snapshot=new.to_json() if new is not None else watch.snapshot,
        )
        return told


async def watched_in_channels_of(
    client: AsyncWebClient, state: AsyncStateStore, user: str
) -> dict[str, list[str]]:
    """The titles of the pages watched in the channels ``user`` is in (channel id → titles), for
    App Home; none when Slack does not say which channels those are."""
    watches = await state.page_watches()
    if not watches:
        return {}
    try:
        response = await client.users_conversations(
            user=user, types="public_channel,private_channel", exclude_archived=True, limit=MAX_CHANNELS
        )
    except (SlackApiError, aiohttp.ClientError, TimeoutError) as error:
        log.info("could not list the channels of %s for App Home: %s", user, error)
        return {}
    channels = {channel.get("id") for channel in response.get("channels") or []}
    found: dict[str, list[str]] = {}
    for watch in watches:
        if watch.channel in channels:
            found.setdefault(watch.channel, []).append(watch.title)
    return found
