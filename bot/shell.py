"""`sakuin shell`: an interactive console that answers as the bot would, without Slack."""

from __future__ import annotations

import asyncio

from rich.console import Console

from bot.questions import final_reply
from bot.replies import replies_for_text
from bot.terminal import render_reply
from config.settings import Settings
from index.wiki import Wiki

BANNER = (
    "sakuin shell — type a question, {entity} NAME or {wiki} QUERY; "
    "`:reindex` updates the index, `:quit` (or Ctrl-D) leaves."
)


def run_shell(settings: Settings, wiki: Wiki, console: Console) -> int:
    console.print(BANNER.format(entity=settings.entity_command, wiki=settings.wiki_command))
    while True:
        try:
            line = console.input("sakuin> ").strip()
        except EOFError:
            console.print()
            return 0
        if not line:
            continue
        if line in {":quit", ":q", ":exit"}:
            return 0
        if line == ":reindex":
            report = wiki.update()
            console.print(
                f"{report.pages} pages: {report.added} added, {report.changed} changed, "
                f"{report.removed} removed"
            )
            continue
        for reply in replies_for_text(line, wiki, settings):
            render_reply(asyncio.run(final_reply(reply, settings)), console)
