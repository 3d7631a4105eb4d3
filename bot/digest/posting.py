"""Posting a day's digest exactly once per (day, channel), from the schedule or by hand.

How one run stays exactly-once (docs/digest.md has the operator's view):

1. **Claim.** A process takes the (day, channel) run in the state store with a lease (owner and
   expiry) in one atomic step. A done run, or one leased by a live process, is not taken.
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

Steps 2-5 in one channel are `bot.digest.channel_run.ChannelRun`. The client from
``build_client`` retries 5xx and dropped connections by itself; a blind retry of
``chat.postMessage`` could post twice, so posting goes through a copy without automatic retries
and the run retries after reconciling instead.
"""

from __future__ import annotations

import asyncio
import copy
import os
import socket
import time
from dataclasses import dataclass
from datetime import date
from uuid import uuid4

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.digest import digest_messages
from bot.digest.channel_run import (
    LEASE_S,
    ChannelOutcome,
    ChannelRun,
    ChannelStatus,
    RetryPolicy,
    describe_error,
    outcome_of,
)
from bot.digest.days import day_start, fresh_digest
from bot.i18n import default_language, use_language
from bot.state.digest_runs import DigestRun
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import Digest, IndexNotReady, Wiki

INDEX_WAIT_S = 10.0
"""A run that found no usable index is tried again after this."""
BUSY_POLL_S = 1.0
"""How often a run asked for by hand looks again while another process holds a channel."""


@dataclass(frozen=True)
class DigestOutcome:
    day: str
    channels: tuple[ChannelOutcome, ...]
    digest: Digest | None = None
    """The day's digest when this attempt computed it (not when every run was already planned)."""

    @property
    def settled(self) -> bool:
        return all(outcome.status.settled for outcome in self.channels)


def new_owner() -> str:
    """A lease owner id: which host and process holds a run (shown in logs and the state file)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid4().hex[:8]}"


async def post_digest(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    state: AsyncStateStore,
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
        run = await state.claim_run(day_s, channel, owner, LEASE_S, ignore_backoff=ignore_backoff)
        if run is None:
            outcomes[channel] = outcome_of(await state.run(day_s, channel), channel)
        else:
            runs[channel] = run
    digest, plan = None, []
    if any(run.plan is None for run in runs.values()):
        try:
            digest = await asyncio.to_thread(fresh_digest, settings, wiki, day)
        except BaseException as error:
            for channel in runs:
                await state.fail_run(
                    day_s, channel, owner, f"digest not computed: {describe_error(error)}", INDEX_WAIT_S
                )
            if not isinstance(error, IndexNotReady):
                raise
            for channel in runs:
                outcomes[channel] = ChannelOutcome(
                    channel, ChannelStatus.NOT_READY, error=str(error), retry_at=time.time() + INDEX_WAIT_S
                )
            runs = {}
        else:
            # A channel's messages are for everyone in it: UI_LANGUAGE, or the team's Japanese.
            with use_language(default_language(settings.ui_language)):
                replies = digest_messages(digest, post_empty=settings.digest_post_empty)
            plan = [reply.message() for reply in replies]
    posting = _without_retries(client)
    oldest = day_start(settings, day)
    for channel, run in runs.items():
        channel_run = ChannelRun(state, client, posting, run, owner, policy, oldest)
        outcomes[channel] = await channel_run.deliver(plan)
    return DigestOutcome(day_s, tuple(outcomes[channel] for channel in settings.digest_channel), digest)


async def post_until_settled(
    settings: Settings, wiki: Wiki, client: AsyncWebClient, state: AsyncStateStore, day: date
) -> DigestOutcome:
    """Post once by hand (failed runs are retried at once); when another process holds a
    channel's run, wait for it to finish or for its lease to expire (then take over), so the
    command never ends with the day undelivered."""
    owner = new_owner()
    deadline = time.time() + 3 * LEASE_S
    first: dict[str, ChannelOutcome] = {}
    digest: Digest | None = None
    while True:
        outcome = await post_digest(settings, wiki, client, state, day, owner=owner, ignore_backoff=True)
        digest = digest or outcome.digest
        for channel in outcome.channels:
            if channel.status is not ChannelStatus.BUSY:
                # What happened to a channel is what this command did there: posted by it, not
                # "already" when it looks again for a channel another process was holding.
                first.setdefault(channel.channel, channel)
        busy = [channel for channel in outcome.channels if channel.status is ChannelStatus.BUSY]
        if not busy or time.time() > deadline:
            channels = tuple(first.get(channel.channel, channel) for channel in outcome.channels)
            return DigestOutcome(outcome.day, channels, digest)
        await asyncio.sleep(BUSY_POLL_S)


def _without_retries(client: AsyncWebClient) -> AsyncWebClient:
    """The same client (token, base_url, timeout) with no automatic retries, for posting."""
    posting = copy.copy(client)
    posting.retry_handlers = []
    return posting
