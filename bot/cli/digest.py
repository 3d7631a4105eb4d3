"""``sakuin digest``: one day's digest run from the command line (cron, or by hand), and the JSON
contract it prints."""

from __future__ import annotations

import asyncio
import sys
from datetime import date

from bot.blocks.digest import digest_messages
from bot.cli.fresh_index import open_wiki
from bot.cli.terminal import out, print_json, render_reply
from bot.digest.days import day_digest, fresh_digest, yesterday
from bot.digest.posting import post_until_settled
from bot.i18n import _, ngettext
from bot.slack.client import build_client
from bot.state.store import AsyncStateStore, open_state_store
from config.settings import Settings, SettingsError, require
from index import Digest


async def digest_command(settings: Settings, day: date | None, *, dry_run: bool, as_json: bool) -> int:
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
    wiki = open_wiki(settings)
    if dry_run:
        digest = await asyncio.to_thread(fresh_digest, settings, wiki, day)
        if as_json:
            print_json(digest_json(digest))
        else:
            for reply in digest_messages(digest, post_empty=True):
                render_reply(reply, out)
        return 0
    with open_state_store(settings.state_db) as store:
        client = build_client(settings)
        outcome = await post_until_settled(settings, wiki, client, AsyncStateStore(store), day)
    if as_json:
        print_json(digest_json(outcome.digest or await asyncio.to_thread(day_digest, settings, wiki, day)))
    for channel in outcome.channels:
        line = _("digest {day} {channel}: {status}").format(
            day=outcome.day, channel=channel.channel, status=channel.status
        )
        if channel.messages:
            count = len(channel.messages)
            line += " " + ngettext("({count} message)", "({count} messages)", count).format(count=count)
        elif channel.error:
            line += f": {channel.error}"
        print(line, file=sys.stderr if as_json or not channel.status.settled else sys.stdout)
    return 0 if outcome.settled else 1


def digest_json(digest: Digest) -> dict[str, object]:
    """The contract's JSON shape (product.md): the day's new sources, every new knowledge page
    with the signal that dated it, the pages the log says it updated (a wiki without source pages)
    and, on a big day, the summary the digest posts instead of the list."""
    shape: dict[str, object] = {
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
        "pages": [
            {"path": page.path, "title": page.title, "type": page.type, "new_by": page.new_by}
            for page in digest.pages
        ],
    }
    if digest.updated:
        shape["updated"] = {
            "total": digest.updated_total,
            "pages": [{"path": ref.path, "title": ref.name, "type": ref.type} for ref in digest.updated],
        }
    if digest.summary:
        summary = digest.summary
        shape["summary"] = {
            "new": summary.new,
            "by_type": dict(summary.by_type),
            "by_folder": dict(summary.by_folder),
            "most_linked": [ref.path for ref in summary.most_linked],
        }
    return shape
