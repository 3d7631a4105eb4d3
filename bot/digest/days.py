"""Which day's digest is due, and what it holds: days are calendar days in ``DIGEST_TZ``."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, timedelta

from bot.digest.git_dates import git_additions
from config.settings import Settings
from index import Digest, IndexNotReady, Wiki

log = logging.getLogger(__name__)


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


def day_start(settings: Settings, day: date) -> float:
    """Epoch seconds at which ``day`` begins in DIGEST_TZ."""
    return datetime.combine(day, datetime.min.time(), tzinfo=settings.zone).timestamp()


def day_digest(settings: Settings, wiki: Wiki, day: date) -> Digest:
    """What the wiki gained on ``day`` as the index has it (and git, for a vault in git)."""
    return wiki.digest(
        day,
        zone=settings.zone,
        include_unpublished=settings.digest_include_unpublished,
        max_items=settings.digest_max_items,
        git=git_additions(settings.wiki_dir, datetime.fromtimestamp(day_start(settings, day), UTC)),
    )


def dating_signals(settings: Settings, wiki: Wiki) -> dict[str, int]:
    """How many knowledge pages each signal dates (``log``, ``frontmatter:created``, ``git``,
    ``first_seen``) as the next digest reads them (``sakuin doctor``)."""
    day = yesterday(settings)
    git = git_additions(settings.wiki_dir, datetime.fromtimestamp(day_start(settings, day), UTC))
    return wiki.new_page_signals(day, zone=settings.zone, git=git)


def fresh_digest(settings: Settings, wiki: Wiki, day: date) -> Digest:
    """Bring the index up to date with the vault, then compute the day's digest from it: a source
    saved just before the run must not be missed (its day would not come again)."""
    try:
        wiki.update()
    except Exception:
        if wiki.state().status != "ready":
            raise IndexNotReady("the index could not be built") from None
        log.warning("digest: index update failed; using the last good index", exc_info=True)
    return day_digest(settings, wiki, day)
