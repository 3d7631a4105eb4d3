"""One claimed (day, channel) run: post the parts still missing, exactly once each.

The steps of `bot.digest.posting`'s protocol that happen in one channel: freeze the plan, look in
the channel first, then mark, post and record each part; finish, or give the run back. Every
state call goes through `AsyncStateStore`, so a locked state file never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from enum import StrEnum

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.state.digest_runs import DigestRun, LeaseLost
from bot.state.store import AsyncStateStore

log = logging.getLogger(__name__)

DIGEST_EVENT = "sakuin_digest"
"""The ``event_type`` of the metadata every digest message carries (with the day and the part)."""
LEASE_S = 120.0
"""Longer than one Slack call (slack_client.TIMEOUT_S = 30 s) plus our own bookkeeping: the lease is
renewed before every call, so it cannot expire while a post is in flight."""
MAX_HISTORY_PAGES = 50
"""At most 10,000 messages of channel history are searched for a day's digest."""


class ChannelStatus(StrEnum):
    """What one attempt did in one channel (not the recorded `RunStatus` of the run)."""

    POSTED = "posted"
    ALREADY = "already"
    """An earlier run posted it."""
    EMPTY = "empty"
    """Nothing to post (an empty day without DIGEST_POST_EMPTY)."""
    BUSY = "busy"
    """Another process holds the run."""
    FAILED = "failed"
    """This attempt could not deliver; the run is retried later."""
    NOT_READY = "not-ready"
    """The index could not be built yet."""

    @property
    def settled(self) -> bool:
        """The channel has the day's digest (or needs none): nothing is left to do."""
        return self in (ChannelStatus.POSTED, ChannelStatus.ALREADY, ChannelStatus.EMPTY)


@dataclass(frozen=True)
class ChannelOutcome:
    channel: str
    status: ChannelStatus
    messages: tuple[str, ...] = ()
    """The ``ts`` of every part in the channel."""
    error: str | None = None
    retry_at: float | None = None
    """Epoch seconds after which the run may be tried again (busy, failed)."""


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


class DeliveryError(Exception):
    """A message could not be delivered after the retries of one run."""


class ChannelRun:
    """One claimed (day, channel) run: plan, then mark-post-record each part, then finish or fail."""

    def __init__(
        self,
        state: AsyncStateStore,
        client: AsyncWebClient,
        posting: AsyncWebClient,
        run: DigestRun,
        owner: str,
        policy: RetryPolicy,
        oldest: float,
    ) -> None:
        """``posting``: ``client`` without automatic retries; ``oldest``: epoch seconds where the
        search of the channel history starts."""
        self.state, self.client, self.posting = state, client, posting
        self.run, self.owner, self.policy, self.oldest = run, owner, policy, oldest
        self.day, self.channel = run.day, run.channel

    async def deliver(self, plan: list[dict]) -> ChannelOutcome:
        """Post the parts the run still misses (its frozen plan, else ``plan``, frozen now).

        Before the first post of a run, and after a crash left a part in flight, the channel is
        searched once for parts already there: a lost state file, another replica with its own
        state file, or a crash between post and record would otherwise mean a second post.
        """
        run = self.run
        try:
            frozen = (
                run.plan
                if run.plan is not None
                else await self.state.set_plan(self.day, self.channel, self.owner, plan)
            )
            posted = dict(run.posted)
            if frozen and (not posted or run.inflight is not None):
                found = await self._search_first(strict=run.inflight is not None)
                for part, ts in sorted(found.items()):
                    if part < len(frozen) and part not in posted:
                        log.info(
                            "digest %s %s part %d is already in the channel (%s)",
                            self.day,
                            self.channel,
                            part,
                            ts,
                        )
                        await self.state.record_part(self.day, self.channel, part, ts)
                        posted[part] = ts
            for part, message in enumerate(frozen):
                if part not in posted:
                    posted[part] = await self._deliver_part(part, len(frozen), message)
                    await self.state.record_part(self.day, self.channel, part, posted[part])
            await self.state.finish_run(self.day, self.channel, self.owner)
        except LeaseLost:
            log.warning("digest %s %s: another process took the run over", self.day, self.channel)
            return outcome_of(await self.state.run(self.day, self.channel), self.channel)
        except (DeliveryError, SlackApiError, aiohttp.ClientError, TimeoutError, OSError) as error:
            wait = self.policy.run_wait_after(run.attempts)
            await self.state.fail_run(self.day, self.channel, self.owner, describe_error(error), wait)
            log.error(
                "digest %s %s failed (attempt %d), retrying in %.0f s: %s",
                self.day,
                self.channel,
                run.attempts,
                wait,
                describe_error(error),
            )
            return ChannelOutcome(
                self.channel, ChannelStatus.FAILED, error=describe_error(error), retry_at=time.time() + wait
            )
        ts = tuple(posted[part] for part in sorted(posted))
        log.info("digest %s %s: %d message(s) in the channel", self.day, self.channel, len(ts))
        return ChannelOutcome(self.channel, ChannelStatus.POSTED if frozen else ChannelStatus.EMPTY, ts)

    async def _search_first(self, *, strict: bool) -> dict[int, str]:
        """The parts already in the channel. When no part is known to be in flight (``strict``
        False), a refusal such as ``missing_scope`` only costs this extra check: log and go on."""
        await self.state.renew_lease(self.day, self.channel, self.owner, LEASE_S)
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
                describe_error(error),
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
                    await self.state.renew_lease(self.day, self.channel, self.owner, LEASE_S)
                    found = (await self._posted_parts()).get(part)
                    if found:
                        log.info(
                            "digest %s %s part %d reached Slack (%s)", self.day, self.channel, part, found
                        )
                        return found
                await self.state.begin_part(self.day, self.channel, self.owner, part, LEASE_S)
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
                raise DeliveryError(f"gave up after {failures} tries: {describe_error(last)}") from last
            log.warning(
                "digest %s %s part %d: %s; retrying", self.day, self.channel, part, describe_error(last)
            )
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
        await self.state.renew_lease(self.day, self.channel, self.owner, LEASE_S + seconds)
        await asyncio.sleep(seconds)


def outcome_of(run: DigestRun | None, channel: str) -> ChannelOutcome:
    """The outcome in a channel whose run could not be claimed, from the run as recorded."""
    if run is None:
        return ChannelOutcome(channel, ChannelStatus.BUSY, retry_at=time.time() + 1.0)
    if run.done:
        posted = tuple(run.posted[part] for part in sorted(run.posted))
        return ChannelOutcome(channel, ChannelStatus.ALREADY, posted)
    if run.owner is not None:
        return ChannelOutcome(
            channel, ChannelStatus.BUSY, error=f"held by {run.owner}", retry_at=run.lease_until
        )
    return ChannelOutcome(channel, ChannelStatus.FAILED, error=run.error, retry_at=run.next_attempt_at)


def describe_error(error: BaseException) -> str:
    if isinstance(error, SlackApiError):
        data = error.response.data if isinstance(error.response.data, dict) else {}
        return f"Slack {error.response.status_code} {data.get('error') or ''}".strip()
    return f"{type(error).__name__}: {error}".strip()


def _retry_after(error: SlackApiError, limit: float) -> float:
    try:
        seconds = float(error.response.headers.get("Retry-After", 1))
    except (TypeError, ValueError):
        seconds = 1.0
    return min(max(seconds, 0.0), limit)
