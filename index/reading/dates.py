"""Dates and timestamps as wikis write them, and the calendar day one falls on in ``DIGEST_TZ``.

The rule (docs/digest.md): a plain date (``2026-10-14``) is that day wherever the digest runs; a
timestamp with an offset (``2026-10-14T23:30:00Z``, ``…+09:00``) is converted to the digest's zone;
a timestamp without one is read in the zone its writer is known to use (the harness's ``date:``:
JST), else as written.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, tzinfo

_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")
_PLAIN_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(value: str | None) -> date | None:
    """The date a value starts with (``2026-10-14…``), or None."""
    match = _DAY.match(value.strip()) if value else None
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def parse_moment(value: str | None, naive_zone: tzinfo) -> datetime | None:
    """A date or timestamp string as an aware datetime; naive values are read in ``naive_zone``."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        match = _MOMENT.match(text)
        day = parse_day(text)
        if not match or not day:
            return None
        hour, minute, second = (int(group or 0) for group in match.groups()[3:])
        try:
            parsed = datetime.combine(day, time(hour, minute, second))
        except ValueError:
            parsed = datetime.combine(day, time())
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=naive_zone)


def day_in(value: str | None, zone: tzinfo, naive_zone: tzinfo | None = None) -> date | None:
    """The calendar day ``value`` falls on in ``zone``: a plain date as written; a timestamp with
    an offset converted; one without read in ``naive_zone`` (None: its date as written)."""
    if not value or not value.strip():
        return None
    text = value.strip()
    if _PLAIN_DAY.fullmatch(text):
        return parse_day(text)
    moment = parse_moment(text, naive_zone or zone)
    if moment is None:
        return None
    if naive_zone is None and _naive(text):
        return moment.date()
    return moment.astimezone(zone).date()


def _naive(text: str) -> bool:
    """Whether a timestamp says nothing of its zone (no ``Z``, no ``+hh:mm``)."""
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).tzinfo is None
    except ValueError:
        return True
