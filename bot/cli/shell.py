"""`sakuin shell`: an interactive console that answers as the bot would, without Slack.

It keeps a conversation as a Slack thread does (`bot.conversation.conversations`): a question is
composed by the same `compose` with the subject of the last answer, so a follow-up that names no page
(``それを本番で運用しているのは?``) is asked about it; ``:new`` starts another conversation. Commands
(``/entity``, ``/wiki``) answer as the slash commands do and leave the subject as it is. Lines are
edited and recalled with the standard library's readline where it is available (history kept in
`HISTORY_FILE`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from bot.answering.model_rewrite import final_reply
from bot.answering.replies import replies_for_text
from bot.blocks.reply import Reply
from bot.cli.terminal import render_reply
from bot.conversation.conversations import compose
from bot.i18n import N_, _
from bot.serve.inbound import clean_text
from config.settings import Settings
from index import Wiki

try:
    import readline
except ImportError:  # Windows without pyreadline: plain input()
    readline = None  # type: ignore[assignment]

HISTORY_FILE = Path(".sakuin/shell_history")
HISTORY_LINES = 1000
QUIT = frozenset({":quit", ":q", ":exit"})
HELP = frozenset({":help", ":h", ":?"})
NEW = ":new"
REINDEX = ":reindex"

BANNER = N_(
    "sakuin shell — type a question, {entity} NAME or {wiki} QUERY; `:help` says more, `:quit` (or"
    " Ctrl-D) leaves."
)
SHELL_HELP = N_(
    "Type a question: it is answered as a mention in Slack is, and a follow-up that names no page is"
    " asked about the last answer's subject, as in a Slack thread.\n"
    "{entity} NAME and {wiki} QUERY answer as the slash commands do.\n"
    "`:new` starts a new conversation, `:reindex` updates the index, `:help` shows this, `:quit`"
    " (or Ctrl-D) leaves."
)
NEW_CONVERSATION = N_("New conversation.")


@dataclass
class ShellConversation:
    """The shell's one thread: the subject its answers are about so far."""

    wiki: Wiki
    settings: Settings
    subject: str | None = None

    def replies(self, line: str) -> list[Reply]:
        """The replies to ``line`` as Slack would compose them; a question moves the subject on."""
        command = line.partition(" ")[0]
        if command in (self.settings.entity_command, self.settings.wiki_command):
            return replies_for_text(line, self.wiki, self.settings)
        composed = compose(line, self.wiki, self.settings, subject=self.subject)
        if composed.answered is not None and composed.answered.subject is not None:
            self.subject = composed.answered.subject  # as a followed thread keeps it (bot.state.threads)
        return [composed.reply]


def run_shell(settings: Settings, wiki: Wiki, console: Console) -> int:
    commands = {"entity": settings.entity_command, "wiki": settings.wiki_command}
    console.print(_(BANNER).format(**commands))
    conversation = ShellConversation(wiki, settings)
    with kept_history():
        while True:
            try:
                line = clean_text(input(prompt(conversation))).strip()
            except EOFError:
                console.print()
                return 0
            if not line:
                continue
            if line in QUIT:
                return 0
            if line in HELP:
                console.print(_(SHELL_HELP).format(**commands))
            elif line == NEW:
                conversation.subject = None
                console.print(_(NEW_CONVERSATION))
            elif line == REINDEX:
                report = wiki.update()
                console.print(
                    _("{pages} pages: {added} added, {changed} changed, {removed} removed").format(
                        pages=report.pages, added=report.added, changed=report.changed, removed=report.removed
                    )
                )
            else:
                answer(line, conversation, console)


def answer(line: str, conversation: ShellConversation, console: Console) -> None:
    """A question in its own language, a command in the terminal's (set by `bot.cli.commands.main`)."""
    for reply in conversation.replies(line):
        render_reply(asyncio.run(final_reply(reply, conversation.settings)), console)


def prompt(conversation: ShellConversation) -> str:
    """``sakuin> ``, or ``sakuin [Minder]> `` while a conversation has a subject."""
    if conversation.subject is None:
        return "sakuin> "
    return f"sakuin [{Path(conversation.subject).stem}]> "


@contextlib.contextmanager
def kept_history():  # type: ignore[no-untyped-def]
    """Line editing and the history of earlier sessions, with readline; nothing without it."""
    if readline is None:
        yield
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(HISTORY_FILE)
    readline.set_history_length(HISTORY_LINES)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            HISTORY_FILE.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(HISTORY_FILE)
