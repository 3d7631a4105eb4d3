"""Each Events API event is answered once, whatever Slack retries.

Slack retries an event it saw no acknowledgement for (``X-Slack-Retry-Num``, the same
``event_id``). Bolt acknowledges an event before its listener runs, so the claim happens here,
after the acknowledgement: a state store that is slow to answer (another process holds its lock)
delays the answer, never the ack. The first delivery claims the id and is answered; a retry is
dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_bolt.kwargs_injection.async_utils import build_async_required_kwargs
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_bolt.util.utils import get_arg_names_of_callable

from bot.state.store import AsyncStateStore

log = logging.getLogger(__name__)

EVENT_TTL_S = 3600.0
"""How long an answered event id is remembered (Slack retries for about 5 minutes)."""

Listener = Callable[..., Awaitable[None]]


def once_per_event(listener: Listener) -> Callable[[AsyncBoltRequest, BoltResponse], Awaitable[None]]:
    """``listener`` run only for the first delivery of each event id.

    The listener keeps Bolt's argument injection: its arguments are built by Bolt's own
    builder from the request, as if Bolt had called it.
    """
    names = get_arg_names_of_callable(listener)

    async def answer_once(req: AsyncBoltRequest, resp: BoltResponse) -> None:
        event_id = req.body.get("event_id")
        state: AsyncStateStore = req.context["state"]
        if event_id and not await state.claim_event(event_id, EVENT_TTL_S):
            log.info("event %s was already answered; ignoring Slack's retry", event_id)
            return
        kwargs = build_async_required_kwargs(
            logger=req.context.logger,
            required_arg_names=list(names),
            request=req,
            response=resp,
            this_func=listener,
        )
        await listener(**kwargs)

    answer_once.__name__ = answer_once.__qualname__ = listener.__name__
    return answer_once
