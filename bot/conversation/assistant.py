"""What sakuin shows in Slack's assistant pane: suggested prompts, the status line, thread titles.

The prompts are drawn from the wiki itself: the newest sources, the most linked entities, and a
``/entity`` example (typed in the pane, it goes through the same composer as a mention, which
answers command lines too). Slack shows at most four prompts.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.mrkdwn import escape
from bot.i18n import N_, _
from config.settings import Settings
from index import DigestItem, IndexNotReady, PageRef, Wiki

MAX_PROMPTS = 4
MAX_PROMPT_TITLE = 75
MAX_TITLE = 80

PROMPTS_TITLE = N_("Ask the research wiki")
STATUS = N_("Searching the wiki…")
NEW_SOURCE_TITLE = N_("New: {title}")
NEW_SOURCE_MESSAGE = N_("What is {title} about?")
ENTITY_TITLE = N_("About {name}")
ENTITY_MESSAGE = N_("What does the wiki say about {name}?")
HELP_TITLE = N_("What can sakuin do?")
HELP_MESSAGE = N_("help")
"""Sent as the user's message when the prompt is clicked: a help word of `bot.answering.replies` in
each language."""


def suggested_prompts(wiki: Wiki, settings: Settings) -> list[dict[str, str]]:
    """The prompts for a new assistant thread (synchronous: it reads the wiki)."""
    try:
        recent = wiki.recent_sources(2)
        linked = wiki.most_linked(2)
    except IndexNotReady:
        recent, linked = (), ()
    return build_prompts(recent, linked, settings.entity_command)


def build_prompts(
    recent: Sequence[DigestItem], linked: Sequence[PageRef], entity_command: str
) -> list[dict[str, str]]:
    """Newest source, most linked entity, a ``/entity`` example, next source; help when empty."""
    prompts = []
    if recent:
        prompts.append(_prompt(NEW_SOURCE_TITLE, NEW_SOURCE_MESSAGE, title=recent[0].title))
    if linked:
        prompts.append(_prompt(ENTITY_TITLE, ENTITY_MESSAGE, name=linked[0].name))
        example = f"{entity_command} {linked[-1].name}"
        prompts.append({"title": _clip(example, MAX_PROMPT_TITLE), "message": escape(example)})
    if len(recent) > 1:
        prompts.append(_prompt(NEW_SOURCE_TITLE, NEW_SOURCE_MESSAGE, title=recent[1].title))
    if not prompts:
        prompts.append({"title": _(HELP_TITLE), "message": _(HELP_MESSAGE)})
    return prompts[:MAX_PROMPTS]


def thread_title(question: str) -> str:
    """A thread's title in the pane's history: its first question, on one line."""
    return _clip(" ".join(question.split()), MAX_TITLE)


def _prompt(title: str, message: str, /, **values: str) -> dict[str, str]:
    return {
        "title": _clip(_(title).format(**values), MAX_PROMPT_TITLE),
        "message": escape(_(message).format(**values)),
    }


def _clip(text: str, limit: int) -> str:
    """Cut raw text, then escape it like all text from the wiki (Slack decodes ``&amp;`` here too)."""
    return escape(text if len(text) <= limit else text[: limit - 1].rstrip() + "…")
