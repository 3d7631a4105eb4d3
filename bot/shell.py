"""`sakuin shell`: an interactive console that answers as the bot would, without Slack."""

from __future__ import annotations

import asyncio

from rich.console import Console

from bot.i18n import N_, _, language_for_text, use_language
from bot.inbound import clean_text
from bot.questions import final_reply
from bot.replies import replies_for_text
from bot.terminal import render_reply
from config.settings import Settings
from index.wiki import Wiki

BANNER = N_(
    "sakuin shell — type a question, {entity} NAME or {wiki} QUERY; "
    "`:reindex` updates the index, `:quit` (or Ctrl-D) leaves."
)


def run_shell(settings: Settings, wiki: Wiki, console: Console) -> int:
    console.print(_(BANNER).format(entity=settings.entity_command, wiki=settings.wiki_command))
    while True:
        try:
            line = clean_text(console.input("sakuin> ")).strip()
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
                _("{pages} pages: {added} added, {changed} changed, {removed} removed").format(
                    pages=report.pages, added=report.added, changed=report.changed, removed=report.removed
                )
            )
            continue
        with use_language(language_for_text(line, settings.ui_language)):
            for reply in replies_for_text(line, wiki, settings):
                render_reply(asyncio.run(final_reply(reply, settings)), console)
