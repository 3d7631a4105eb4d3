"""The daily digest: posted exactly once per (day, channel), on a schedule or from the CLI.

How one run stays exactly-once (docs/digest.md has the operator's view):

1. **Claim.** A process takes the (day, channel) run in the state store with a lease (owner and
   expiry) in one SQLite transaction. A done run, or one leased by a live process, is not taken.
2. **Plan.** The messages are rendered once and frozen in the run, so a resumed run posts exactly
   the parts still missing, with the same content.
3. **Mark, post, record.** Before each ``chat.postMessage`` the part is marked *in flight*
   (committed); after Slack answers, its ``ts`` is recorded. Each message carries metadata
   (``event_type`` ``sakuin_digest``, the day and the part).
4. **Look first.** Before a run's first post, and whenever a part's outcome is unknown (marked in
   flight by a process that died, a 5xx, a dropped connection, a timeout), the channel history is
   searched for that metadata before posting. A 429 is known not to have posted, so it just waits
   ``Retry-After``.
5. **Done** is written only after Slack confirmed every part. A run that fails is released with a
   back-off and retried later, never marked done.

The client from ``build_client`` retries 5xx and dropped connections by itself; a blind retry of
``chat.postMessage`` could post twice, so posting goes through a copy without automatic retries
and this module retries after reconciling instead.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from uuid import uuid4

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.digest import digest_messages
from bot.replies import Reply
from bot.state import DigestRun, LeaseLost, StateStore, open_state_store
from config.settings import Settings, SettingsError, require
from index.model import Digest
from index.wiki import IndexNotReady, Wiki

log = logging.getLogger(__name__)

DIGEST_EVENT = "sakuin_digest"
LEASE_S = 120.0
"""Longer than one Slack call (slack_client.TIMEOUT_S = 30 s) plus our own bookkeeping: the lease is
renewed before every call, so it cannot expire while a post is in flight."""
MAX_HISTORY_PAGES = 50
"""At most 10,000 messages of channel history are searched for a day's digest."""
RETRY_DAYS = 7
"""Unfinished runs this many days back are still retried by the schedule."""
INDEX_WAIT_S = 10.0
BUSY_POLL_S = 1.0
"""How often ``sakuin digest`` looks again while another process holds a run."""
MAX_SLEEP_S = 60.0
"""The schedule wakes at least this often, so clock changes and DST never delay it by much."""

POSTED, ALREADY, EMPTY, BUSY, FAILED, NOT_READY = "posted", "already", "empty", "busy", "failed", "not-ready"
SETTLED = frozenset({POSTED, ALREADY, EMPTY})


@dataclass(frozen=True)
class RetryPolicy:
    """How hard one run tries before it gives up, and how long a failed run waits to be retried."""

    attempts: int = 5
    """Per message: 5xx answers, dropped connections and timeouts before the run fails."""
    backoff_s: float = 2.0
    max_backoff_s: float = 60.0
    rate_limit_waits: int = 10
    """Per message: 429 answers waited out (each for its ``Retry-After``)."""
    max_retry_after_s: float = 300.0
    run_backoff_s: float = 60.0
    """A failed run is claimable again after this, doubled per attempt, up to ``max_run_backoff_s``."""
    max_run_backoff_s: float = 3600.0

    def wait_after(self, failures: int) -> float:
        return min(self.backoff_s * 2 ** (failures - 1), self.max_backoff_s)

    def run_wait_after(self, attempts: int) -> float:
        return min(self.run_backoff_s * 2 ** max(attempts - 1, 0), self.max_run_backoff_s)


@dataclass(frozen=True)
class ChannelOutcome:
    """What happened in one channel: ``posted``, ``already`` (an earlier run posted it), ``empty``
    (nothing to post), ``busy`` (another process holds the run), ``failed`` or ``not-ready``."""

    channel: str
    status: str
    messages: tuple[str, ...] = ()
    """The ``ts`` of every part in the channel."""
    error: str | None = None
    retry_at: float | None = None
    """Epoch seconds after which the run may be tried again (busy, failed)."""


@dataclass(frozen=True)
class DigestOutcome:
    day: str
    channels: tuple[ChannelOutcome, ...]
    digest: Digest | None = None

    @property
    def settled(self) -> bool:
        return all(outcome.status in SETTLED for outcome in self.channels)


class DeliveryError(Exception):
    """A message could not be delivered after the retries of one run."""


def new_owner() -> str:
    """A lease owner id: which host and process holds a run (shown in logs and the state file)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid4().hex[:8]}"


def yesterday(settings: Settings, now: datetime | None = None) -> date:
    """The default digest day: yesterday in DIGEST_TZ."""
    now = now or datetime.now(UTC)
    return now.astimezone(settings.zone).date() - timedelta(days=1)


def due_at(settings: Settings, day: date) -> datetime:
    """When the digest of ``day`` is due: DIGEST_TIME on the next day, in DIGEST_TZ."""
    return datetime.combine(day + timedelta(days=1), settings.digest_time, tzinfo=settings.zone)


def due_day(settings: Settings, now: datetime) -> date | None:
    """The day whose digest is due at ``now`` (yesterday, once today's DIGEST_TIME has passed)."""
    day = yesterday(settings, now)
    return day if now >= due_at(settings, day) else None


async def post_digest(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    store: StateStore,
    day: date,
    *,
    owner: str | None = None,
    policy: RetryPolicy | None = None,
    ignore_backoff: bool = False,
) -> DigestOutcome:
    """Post the digest of ``day`` to every DIGEST_CHANNEL that has not had it yet.

    Safe to call any number of times from any number of processes: each channel gets the day's
    messages once. ``ignore_backoff`` retries a failed run at once (a run asked for by hand).
    """
    owner = owner or new_owner()
    policy = policy or RetryPolicy()
    day_s = day.isoformat()
    outcomes: dict[str, ChannelOutcome] = {}
    runs: dict[str, DigestRun] = {}
    for channel in settings.digest_channel:
        run = store.claim_run(day_s, channel, owner, LEASE_S, ignore_backoff=ignore_backoff)
        if run is None:
            outcomes[channel] = _unclaimed(store.run(day_s, channel), channel)
        else:
            runs[channel] = run
    digest, plan = None, []
    if any(run.plan is None for run in runs.values()):
        try:
            digest = await asyncio.to_thread(_fresh_digest, settings, wiki, day)
        except BaseException as error:
            for channel in runs:
                store.fail_run(
                    day_s, channel, owner, f"digest not computed: {_describe(error)}", INDEX_WAIT_S
                )
            if not isinstance(error, IndexNotReady):
                raise
            for channel in runs:
                outcomes[channel] = ChannelOutcome(
                    channel, NOT_READY, error=str(error), retry_at=time.time() + INDEX_WAIT_S
                )
            runs = {}
        else:
            plan = [
                reply.message() for reply in digest_messages(digest, post_empty=settings.digest_post_empty)
            ]
    posting = _without_retries(client)
    oldest = datetime.combine(day, datetime.min.time(), tzinfo=settings.zone).timestamp()
    for channel, run in runs.items():
        channel_run = ChannelRun(store, client, posting, channel, owner, policy, oldest)
        outcomes[channel] = await channel_run.deliver(run, plan)
    return DigestOutcome(day_s, tuple(outcomes[channel] for channel in settings.digest_channel), digest)


async def preview_digest(settings: Settings, wiki: Wiki, day: date | None) -> list[Reply]:
    """The digest of ``day`` (default yesterday) as it would be posted, for ``/wiki digest [D]``.

    An empty day still gets one message saying so, since someone asked.
    """
    digest = await asyncio.to_thread(_day_digest, settings, wiki, day or yesterday(settings))
    return digest_messages(digest, post_empty=True)


def digest_json(digest: Digest) -> dict:
    """The contract's JSON shape (product.md)."""
    return {
        "date": digest.date,
        "sources": [
            {
                "path": item.path,
                "title": item.title,
                "venue": item.venue,
                "year": item.year,
                "summary": item.summary,
                "cited_by": [ref.path for ref in item.cited_by if ref.path],
            }
            for item in digest.items
        ],
    }


class ChannelRun:
    """One claimed (day, channel) run: plan, then mark-post-record each part, then finish or fail."""

    def __init__(
        self,
        store: StateStore,
        client: AsyncWebClient,
        posting: AsyncWebClient,
        channel: str,
        owner: str,
        policy: RetryPolicy,
        oldest: float,
    ) -> None:
        """``oldest``: epoch seconds where the search of the channel history starts."""
        self.store, self.client, self.posting = store, client, posting
        self.channel, self.owner, self.policy, self.oldest = channel, owner, policy, oldest
        self.day = ""

    async def deliver(self, run: DigestRun, plan: list[dict]) -> ChannelOutcome:
        """Post the parts ``run`` still misses (its frozen plan, else ``plan``, frozen now).

        Before the first post of a run, and after a crash left a part in flight, the channel is
        searched once for parts already there: a lost state file, another replica with its own
        state file, or a crash between post and record would otherwise mean a second post.
        """
        self.day = run.day
        try:
            frozen = (
                run.plan
                if run.plan is not None
                else self.store.set_plan(run.day, self.channel, self.owner, plan)
            )
            posted = dict(run.posted)
            if frozen and (not posted or run.inflight is not None):
                found = await self._search_first(strict=run.inflight is not None)
                for part, ts in sorted(found.items()):
                    if part < len(frozen) and part not in posted:
                        log.info(
                            "digest %s %s part %d is already in the channel (%s)",
                            run.day,
                            self.channel,
                            part,
                            ts,
                        )
                        self.store.record_part(run.day, self.channel, part, ts)
                        posted[part] = ts
            for part, message in enumerate(frozen):
                if part not in posted:
                    posted[part] = await self._deliver_part(part, len(frozen), message)
                    self.store.record_part(run.day, self.channel, part, posted[part])
            self.store.finish_run(run.day, self.channel, self.owner)
        except LeaseLost:
            log.warning("digest %s %s: another process took the run over", run.day, self.channel)
            return _unclaimed(self.store.run(run.day, self.channel), self.channel)
        except (DeliveryError, SlackApiError, aiohttp.ClientError, TimeoutError, OSError) as error:
            wait = self.policy.run_wait_after(run.attempts)
            self.store.fail_run(run.day, self.channel, self.owner, _describe(error), wait)
            log.error(
                "digest %s %s failed (attempt %d), retrying in %.0f s: %s",
                run.day,
                self.channel,
                run.attempts,
                wait,
                _describe(error),
            )
            return ChannelOutcome(self.channel, FAILED, error=_describe(error), retry_at=time.time() + wait)
        ts = tuple(posted[part] for part in sorted(posted))
        log.info("digest %s %s: %d message(s) in the channel", run.day, self.channel, len(ts))
        return ChannelOutcome(self.channel, POSTED if frozen else EMPTY, ts)

    async def _search_first(self, *, strict: bool) -> dict[int, str]:
        """The parts already in the channel. When no part is known to be in flight (``strict``
        False), a refusal such as ``missing_scope`` only costs this extra check: log and go on."""
        self.store.renew_lease(self.day, self.channel, self.owner, LEASE_S)
        try:
            return await self._posted_parts()
        except SlackApiError as error:
            if strict or error.response.status_code >= 500 or error.response.status_code == 429:
                raise
            log.warning(
                "digest %s %s: cannot read the channel history (%s); add the channels:history scope so a"
                " lost state file cannot cause a second post",
                self.day,
                self.channel,
                _describe(error),
            )
            return {}

    async def _deliver_part(self, part: int, parts: int, message: dict) -> str:
        """Post one part and return its ``ts``.

        A 429 is certain not to have posted: wait ``Retry-After`` and post again. 5xx answers,
        dropped connections and timeouts are uncertain: back off, search the channel for the
        part, and post again only if it is not there.
        """
        failures = rate_limited = 0
        uncertain = False
        while True:
            try:
                if uncertain:
                    self.store.renew_lease(self.day, self.channel, self.owner, LEASE_S)
                    found = (await self._posted_parts()).get(part)
                    if found:
                        log.info(
                            "digest %s %s part %d reached Slack (%s)", self.day, self.channel, part, found
                        )
                        return found
                self.store.begin_part(self.day, self.channel, self.owner, part, LEASE_S)
                uncertain = True
                try:
                    return await self._post(part, parts, message)
                except SlackApiError as error:
                    if error.response.status_code != 429:
                        raise
                    uncertain = False
                    rate_limited += 1
                    if rate_limited > self.policy.rate_limit_waits:
                        raise DeliveryError(f"still rate limited after {rate_limited} waits") from error
                    await self._wait(_retry_after(error, self.policy.max_retry_after_s))
                    continue
            except SlackApiError as error:
                if error.response.status_code < 500 and error.response.status_code != 429:
                    raise
                failures += 1
                last: Exception = error
            except (aiohttp.ClientError, TimeoutError, OSError) as error:
                failures += 1
                last = error
            if failures >= self.policy.attempts:
                raise DeliveryError(f"gave up after {failures} tries: {_describe(last)}") from last
            log.warning("digest %s %s part %d: %s; retrying", self.day, self.channel, part, _describe(last))
            await self._wait(self.policy.wait_after(failures))

    async def _post(self, part: int, parts: int, message: dict) -> str:
        response = await self.posting.chat_postMessage(
            channel=self.channel,
            text=message["text"],
            blocks=message["blocks"],
            metadata={
                "event_type": DIGEST_EVENT,
                "event_payload": {"day": self.day, "part": part, "parts": parts},
            },
            unfurl_links=False,
            unfurl_media=False,
        )
        return str(response["ts"])

    async def _posted_parts(self) -> dict[int, str]:
        """Part number → ``ts`` of this day's digest messages in the channel (found by metadata)."""
        found: dict[int, str] = {}
        cursor = None
        for _ in range(MAX_HISTORY_PAGES):
            response = await self.client.conversations_history(
                channel=self.channel,
                oldest=f"{max(self.oldest, 0):.6f}",
                include_all_metadata=True,
                limit=200,
                cursor=cursor,
            )
            for message in response.get("messages") or ():
                metadata = message.get("metadata") or {}
                payload = metadata.get("event_payload") or {}
                part = payload.get("part")
                if (
                    metadata.get("event_type") == DIGEST_EVENT
                    and payload.get("day") == self.day
                    and isinstance(part, int)
                ):
                    found.setdefault(part, str(message["ts"]))
            cursor = (response.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                break
        return found

    async def _wait(self, seconds: float) -> None:
        """Sleep with the lease extended to cover the sleep."""
        self.store.renew_lease(self.day, self.channel, self.owner, LEASE_S + seconds)
        await asyncio.sleep(seconds)


async def schedule_digest(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    store: StateStore,
    *,
    clock: Callable[[], datetime] | None = None,
    policy: RetryPolicy | None = None,
) -> None:
    """Post each day's digest at DIGEST_TIME in DIGEST_TZ, forever (run it as a background task).

    A process started after today's DIGEST_TIME posts yesterday's digest at once if no process has;
    a failed run is retried with back-off, also on later days (up to RETRY_DAYS back).
    """
    if not settings.digest_channel:
        log.info("DIGEST_CHANNEL is not set: the daily digest is off")
        return
    owner = new_owner()
    clock = clock or (lambda: datetime.now(UTC))
    log.info(
        "digest schedule: %s %s to %s",
        settings.digest_time.strftime("%H:%M"),
        settings.digest_tz,
        ", ".join(settings.digest_channel),
    )
    while True:
        try:
            wait = await run_due_digests(settings, wiki, client, store, clock(), owner=owner, policy=policy)
        except Exception:
            log.exception("digest schedule step failed")
            wait = (policy or RetryPolicy()).run_backoff_s
        await asyncio.sleep(min(max(wait, 1.0), MAX_SLEEP_S))


async def run_due_digests(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    store: StateStore,
    now: datetime,
    *,
    owner: str,
    policy: RetryPolicy | None = None,
) -> float:
    """One step of the schedule: post what is due now; return the seconds until the next step."""
    days = {
        run.day
        for run in store.unfinished_runs(_days_back(settings, now))
        if run.channel in settings.digest_channel
    }
    due = due_day(settings, now)
    if due is not None:
        days.add(due.isoformat())
    next_day = yesterday(settings, now) + timedelta(days=1 if due is not None else 0)
    waits = [(due_at(settings, next_day) - now).total_seconds()]
    for day in sorted(days):
        outcome = await post_digest(
            settings, wiki, client, store, date.fromisoformat(day), owner=owner, policy=policy
        )
        for channel in outcome.channels:
            if channel.status == NOT_READY:
                waits.append(INDEX_WAIT_S)
            elif channel.retry_at is not None:
                waits.append(channel.retry_at - time.time())
    return max(min(waits), 0.0)


async def run_digest_command(settings: Settings, day: date | None, dry_run: bool, as_json: bool) -> int:
    """``sakuin digest [--date D] [--dry-run] [--json]``: one run, for cron or by hand.

    Prints the JSON contract with ``--json``; prints the messages instead of posting with
    ``--dry-run``; otherwise posts to every DIGEST_CHANNEL that has not had the day yet and exits
    0 once Slack confirmed it (or it was posted before), 1 when it could not be delivered.
    """
    day = day or yesterday(settings)
    if not dry_run:
        require(settings, "slack_bot_token")
        if not settings.digest_channel:
            raise SettingsError("missing setting DIGEST_CHANNEL: required to post the digest")
    if not settings.wiki_dir.is_dir():
        raise SettingsError(f"invalid setting WIKI_DIR: {settings.wiki_dir} is not a folder")
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir, settings.wiki_base_url)
    if dry_run:
        digest = await asyncio.to_thread(_fresh_digest, settings, wiki, day)
        if as_json:
            print(json.dumps(digest_json(digest), ensure_ascii=False, indent=2))
        else:
            _print_messages(digest_messages(digest, post_empty=True))
        return 0
    from bot.slack_client import build_client

    with open_state_store(settings.state_db) as store:
        outcome = await _post_until_settled(settings, wiki, build_client(settings), store, day)
    if as_json:
        digest = outcome.digest or await asyncio.to_thread(_day_digest, settings, wiki, day)
        print(json.dumps(digest_json(digest), ensure_ascii=False, indent=2))
    for channel in outcome.channels:
        line = f"digest {outcome.day} {channel.channel}: {channel.status}"
        extra = (
            f" ({len(channel.messages)} message(s))"
            if channel.messages
            else f": {channel.error}"
            if channel.error
            else ""
        )
        print(line + extra, file=sys.stderr if as_json or channel.status not in SETTLED else sys.stdout)
    return 0 if outcome.settled else 1


async def _post_until_settled(
    settings: Settings, wiki: Wiki, client: AsyncWebClient, store: StateStore, day: date
) -> DigestOutcome:
    """Post once by hand; when another process holds a channel's run, wait for it to finish or for
    its lease to expire (then take over), so the command never ends with the day undelivered."""
    owner = new_owner()
    deadline = time.time() + 3 * LEASE_S
    while True:
        outcome = await post_digest(settings, wiki, client, store, day, owner=owner, ignore_backoff=True)
        busy = [channel for channel in outcome.channels if channel.status == BUSY]
        if not busy or time.time() > deadline:
            return outcome
        await asyncio.sleep(BUSY_POLL_S)


def _fresh_digest(settings: Settings, wiki: Wiki, day: date) -> Digest:
    """Bring the index up to date with the vault, then compute the day's digest from it: a source
    saved just before the run must not be missed (its day would not come again)."""
    try:
        wiki.update()
    except Exception:
        if wiki.state().status != "ready":
            raise IndexNotReady("the index could not be built") from None
        log.warning("digest: index update failed; using the last good index", exc_info=True)
    return _day_digest(settings, wiki, day)


def _day_digest(settings: Settings, wiki: Wiki, day: date) -> Digest:
    """The day's sources, counted in DIGEST_TZ."""
    return wiki.new_sources(day, zone=settings.zone, include_unpublished=settings.digest_include_unpublished)


def _print_messages(replies: list[Reply]) -> None:
    from rich.console import Console

    from bot.terminal import render_reply

    console = Console(highlight=False, soft_wrap=True, markup=False)
    for reply in replies:
        render_reply(reply, console)


def _without_retries(client: AsyncWebClient) -> AsyncWebClient:
    """The same client (token, base_url, timeout) with no automatic retries, for posting."""
    posting = copy.copy(client)
    posting.retry_handlers = []
    return posting


def _unclaimed(run: DigestRun | None, channel: str) -> ChannelOutcome:
    if run is None:
        return ChannelOutcome(channel, BUSY, retry_at=time.time() + 1.0)
    if run.done:
        return ChannelOutcome(channel, ALREADY, tuple(run.posted[part] for part in sorted(run.posted)))
    if run.owner is not None:
        return ChannelOutcome(channel, BUSY, error=f"held by {run.owner}", retry_at=run.lease_until)
    return ChannelOutcome(channel, FAILED, error=run.error, retry_at=run.next_attempt_at)


def _is_done(run: DigestRun | None) -> bool:
    return run is not None and run.done


def _retry_after(error: SlackApiError, limit: float) -> float:
    try:
        seconds = float(error.response.headers.get("Retry-After", 1))
    except (TypeError, ValueError):
        seconds = 1.0
    return min(max(seconds, 0.0), limit)


def _days_back(settings: Settings, now: datetime) -> str:
    return (now.astimezone(settings.zone).date() - timedelta(days=RETRY_DAYS)).isoformat()


def _describe(error: BaseException) -> str:
    if isinstance(error, SlackApiError):
        data = error.response.data if isinstance(error.response.data, dict) else {}
        return f"Slack {error.response.status_code} {data.get('error') or ''}".strip()
    return f"{type(error).__name__}: {error}".strip()
