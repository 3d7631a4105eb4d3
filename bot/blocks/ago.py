"""A moment as people say it ("5 minutes ago"), and as Slack shows it in each reader's own time.

In Slack, ``<!date^UNIX^{ago}|fallback>`` is rendered by the client, in the reader's time zone and
updated as time passes; the terminal (`bot.cli.terminal`) shows the fallback, computed now.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import _, ngettext

WEEK_S = 7 * 24 * 3600


def ago(moment: datetime, now: datetime) -> str:
    """``moment`` relative to ``now``; past a week, its local date."""
    seconds = max(0, int((now - moment).total_seconds()))
    if seconds >= WEEK_S:
        return moment.astimezone().strftime("%Y-%m-%d")
    if seconds >= 24 * 3600:
        days = seconds // (24 * 3600)
        return ngettext("{count} day ago", "{count} days ago", days).format(count=days)
    if seconds >= 3600:
        hours = seconds // 3600
        return ngettext("{count} hour ago", "{count} hours ago", hours).format(count=hours)
    if seconds >= 60:
        minutes = seconds // 60
        return ngettext("{count} minute ago", "{count} minutes ago", minutes).format(count=minutes)
    return _("just now")


def slack_ago(iso: str, now: datetime | None = None) -> str:
    """Slack's date token for the ISO-8601 moment ``iso`` (naive means UTC), with `ago` as fallback."""
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    fallback = ago(moment, now or datetime.now(UTC))
    return f"<!date^{int(moment.timestamp())}^{{ago}}|{fallback}>"
