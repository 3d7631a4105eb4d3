"""The digest schedule of ``sakuin serve`` / ``sakuin socket``: each day's digest at DIGEST_TIME
in DIGEST_TZ, and failed days retried (up to RETRY_DAYS back)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from slack_sdk.web.async_client import AsyncWebClient

from bot.digest.channel_run import ChannelStatus, RetryPolicy
from bot.digest.days import due_at, due_day, yesterday
from bot.digest.posting import INDEX_WAIT_S, new_owner, post_digest
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)

RETRY_DAYS = 7
"""Unfinished runs this many days back are still retried by the schedule."""
MAX_SLEEP_S = 60.0
"""The schedule wakes at least this often, so clock changes and DST never delay it by much."""


async def schedule_digest(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    state: AsyncStateStore,
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
            wait = await run_due_digests(settings, wiki, client, state, clock(), owner=owner, policy=policy)
        except Exception:
            log.exception("digest schedule step failed")
            wait = (policy or RetryPolicy()).run_backoff_s
        await asyncio.sleep(min(max(wait, 1.0), MAX_SLEEP_S))


async def run_due_digests(
    settings: Settings,
    wiki: Wiki,
    client: AsyncWebClient,
    state: AsyncStateStore,
    now: datetime,
    *,
    owner: str,
    policy: RetryPolicy | None = None,
) -> float:
    """One step of the schedule: post what is due now; return the seconds until the next step."""
    since = (now.astimezone(settings.zone).date() - timedelta(days=RETRY_DAYS)).isoformat()
    days = {run.day for run in await state.unfinished_runs(since) if run.channel in settings.digest_channel}
    due = due_day(settings, now)
    if due is not None:
        days.add(due.isoformat())
    next_day = yesterday(settings, now) + timedelta(days=1 if due is not None else 0)
    waits = [(due_at(settings, next_day) - now).total_seconds()]
    for day in sorted(days):
        outcome = await post_digest(
            settings, wiki, client, state, date.fromisoformat(day), owner=owner, policy=policy
        )
        for channel in outcome.channels:
            if channel.status is ChannelStatus.NOT_READY:
                waits.append(INDEX_WAIT_S)
            elif channel.retry_at is not None:
                waits.append(channel.retry_at - time.time())
    return max(min(waits), 0.0)
