"""The wiki's inbox in Slack: the "Ask the wiki to cover this" button, what was filed, and the later
answer in the thread ("The wiki now answers this: …").

The button's value carries what a request needs that the click does not: the question (escaped,
like all user text) and the thread the answer was in. Values are limited to 2,000 characters; a
question is at most 1,000 (`index.asking.question.MAX_QUERY_CHARS`), so it always fits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.blocks.elements import (
    MAX_BLOCKS,
    MAX_BUTTON_VALUE,
    MAX_MESSAGE_TEXT,
    actions,
    button,
    context,
    fit_blocks,
    section,
)
from bot.blocks.mrkdwn import bold, clip, escape, escape_clipped, unescape
from bot.blocks.reply import Reply
from bot.i18n import N_, _

WIKI_ASK = "wiki_ask"
"""The ``action_id`` of "Ask the wiki to cover this" (contract)."""
WIKI_ASK_BLOCK_ID = "wiki_ask"
SAVE_TO_INBOX = "save_to_wiki_inbox"
"""The callback id of the message shortcut "Save to wiki inbox"."""
ASK_LABEL = N_("Ask the wiki to cover this")
SHORTCUT_NAME = N_("Save to wiki inbox")
SHORTCUT_DESCRIPTION = N_("File this thread as a question for the wiki's maintainers")
ANSWERED_LATER_EVENT = "sakuin_inbox_answer"
"""The ``event_type`` of the metadata of a later answer (with the request's id)."""
QUESTION_CHARS = 300
NOT_FOUND = "not_found"


@dataclass(frozen=True)
class Where:
    """Where requests' files land: a branch of the remote, or the vault's own folder."""

    folder: str
    branch: str | None = None
    remote: str | None = None
    """Redacted."""

    def __str__(self) -> str:
        if self.branch is not None:
            return f"{self.folder} on branch {self.branch} of {self.remote}"
        return f"{self.folder} in the vault"


@dataclass(frozen=True)
class AskValue:
    question: str
    thread_ts: str | None
    """The thread the answer was posted in (None: the answer itself starts the thread)."""
    message_ts: str | None
    """The answer's message, when the button is not on it (the offer after a 👎)."""


def ask_row(question: str, thread_ts: str | None, message_ts: str | None = None) -> dict:
    """The "Ask the wiki to cover this" button (under an answer that found nothing, or offered
    after a 👎 on the answer ``message_ts``)."""
    where = {"t": thread_ts or "", "m": message_ts or ""}
    value = json.dumps({"q": escape(question), **where}, ensure_ascii=False)
    if len(value) > MAX_BUTTON_VALUE:  # a question longer than any the bot answers
        value = json.dumps({"q": escape(question)[:900] + "…", **where}, ensure_ascii=False)
    return actions([button(_(ASK_LABEL), WIKI_ASK, value)], block_id=WIKI_ASK_BLOCK_ID)


def answer_status(reply: Reply) -> str | None:
    """An answer's status, as its metadata says (`bot.blocks.answer.answer_metadata`)."""
    payload = (reply.metadata or {}).get("event_payload") or {}
    status = payload.get("status")
    return status if isinstance(status, str) else None


def read_ask_value(value: str) -> AskValue | None:
    """What a clicked button carries; None for a value we did not write."""
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("q"), str) or not data["q"].strip():
        return None
    thread, message = data.get("t"), data.get("m")
    return AskValue(
        unescape(data["q"]),
        thread if isinstance(thread, str) and thread else None,
        message if isinstance(message, str) and message else None,
    )


def offer_reply(question: str, thread_ts: str | None, message_ts: str) -> Reply:
    """After a 👎 on the answer ``message_ts``: the button, for the one user who voted."""
    text = _("Should the wiki cover this question? Its maintainers will see it in the wiki's inbox.")
    return Reply(text, (section(escape(text)), ask_row(question, thread_ts, message_ts)))


def filed_reply(question: str, file: str, where: Where, *, created: bool, landed: bool) -> Reply:
    """The confirmation, for the one user who asked: what was filed, where, and what comes next."""
    head = _("Filed for the wiki's maintainers:") if created else _("This is already in the wiki's inbox:")
    if where.branch is not None:
        place = _("on branch {branch} of {remote}").format(branch=where.branch, remote=where.remote)
    else:
        place = _("in the vault")
    lines = [
        f"{bold(escape(head))} {escape_clipped(question, QUESTION_CHARS)}",
        _("File: {file} {where}").format(file=f"`{escape(file)}`", where=escape(place)),
    ]
    if not landed:
        lines.append(escape(_("Not delivered yet (the remote does not answer): it is kept and retried.")))
    note = _("When the wiki answers it, I will reply in this thread.")
    blocks = [section("\n".join(lines)), context(escape(note))]
    return Reply(escape_clipped(f"{head} {question}", 300), tuple(blocks))


def not_filed_reply() -> Reply:
    text = _("Sorry, that could not be filed: there is no question in it.")
    return Reply(text, (section(escape(text)),))


def answered_later_reply(answer: Reply, request_id: str) -> Reply:
    """The answer the wiki now gives, in the thread the question was asked in, as answers look."""
    head = _("The wiki now answers this:")
    blocks: Sequence[dict] = (section(bold(escape(head))), *answer.blocks)
    metadata = {
        "event_type": ANSWERED_LATER_EVENT,
        "event_payload": {
            **((answer.metadata or {}).get("event_payload") or {}),
            "request": request_id,
        },
    }
    text = clip(f"{escape(head)} {answer.text}", MAX_MESSAGE_TEXT)
    return Reply(text, tuple(fit_blocks(list(blocks), MAX_BLOCKS)), answer.answer, metadata)
