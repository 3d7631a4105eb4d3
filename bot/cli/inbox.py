"""``sakuin inbox [--json]``: the requests filed in the wiki's inbox, newest first, with their status
(``open``, ``answered``, ``expired``: open past ``INBOX_ANSWER_DAYS``) and whether their file landed."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime, tzinfo

from bot.cli.terminal import out, print_json
from bot.i18n import N_, _
from bot.state.requests import EXPIRED, OPEN, InboxRequest
from config.settings import Settings

SECONDS_PER_DAY = 86400
NO_REQUESTS = N_("no requests in the wiki's inbox")
NOT_LANDED = N_("not delivered yet")


def status_of(request: InboxRequest, settings: Settings, now: float) -> str:
    """The status as the loop would have it by now: an open request past its days is expired."""
    if request.status == OPEN and request.asked_at < now - settings.inbox_answer_days * SECONDS_PER_DAY:
        return EXPIRED
    return request.status


def inbox_json(requests: Sequence[InboxRequest], settings: Settings, now: float) -> dict[str, object]:
    zone = settings.zone
    return {
        "requests": [
            {
                "id": request.id,
                "question": request.question,
                "status": status_of(request, settings, now),
                "asked_at": _iso(request.asked_at, zone),
                "answered_at": _iso(request.answered_at, zone) if request.answered_at is not None else None,
                "file": request.file,
                "pushed": request.pushed,
            }
            for request in requests
        ]
    }


def print_inbox(requests: Sequence[InboxRequest], settings: Settings, now: float) -> None:
    if not requests:
        out.print(_(NO_REQUESTS))
    for request in requests:
        when = datetime.fromtimestamp(request.asked_at, settings.zone).strftime("%Y-%m-%d %H:%M")
        landed = "" if request.pushed else "  (" + _(NOT_LANDED) + ")"
        out.print(f"{when}  {status_of(request, settings, now):8}  {request.question}")
        out.print(f"    {request.file}{landed}")


def inbox_command(settings: Settings, *, as_json: bool) -> int:
    from bot.state.store import open_state_store

    with open_state_store(settings.state_db) as store:
        requests = store.inbox_requests()
    now = time.time()
    if as_json:
        print_json(inbox_json(requests, settings, now))
    else:
        print_inbox(requests, settings, now)
    return 0


def _iso(at: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(at, zone).isoformat(timespec="seconds")
