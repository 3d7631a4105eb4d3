"""A model's answer as Slack streams it: checked sentences as Markdown, then what ends the message.

A stream's text is standard Markdown (``markdown_text``), not mrkdwn: the model's ``**bold**`` and
``- `` lists render as they are. It is escaped all the same (``&``, ``<``, ``>``), so a
``<!channel>`` in a page or in the answer is shown and pings no one; a sentence holding a link the
passages never gave was dropped before it got here (`bot.llm.grounding.ground`). The ``[n]``
citations stay text: the blocks that end the message list the cited pages, linked, with their card
buttons, and say who wrote the answer from what.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.elements import MAX_BLOCKS, context, divider, fit_blocks
from bot.blocks.mrkdwn import clip, escape
from bot.blocks.written import source_block, written_by
from bot.i18n import N_, _
from bot.llm.grounding import Grounding, NumberedPassage, Sentence

MAX_MARKDOWN_TEXT = 12_000
"""Slack's limit on one ``markdown_text``."""
STOPPED_NOTE = N_("{model} stopped before finishing its answer: what the wiki says follows.")


def stream_markdown(sentences: Sequence[Sentence], after: Sentence | None = None) -> str:
    """The Markdown that appends ``sentences`` to a stream whose last sentence is ``after``.

    Sentences of one line of the answer follow each other as written; a new line starts a new line.
    """
    parts: list[str] = []
    previous = after
    for sentence in sentences:
        if previous is None:
            parts.append(sentence.text.lstrip())
        elif sentence.line != previous.line:
            parts.append("\n" + sentence.text.lstrip())
        else:
            parts.append(sentence.text)
        previous = sentence
    return clip(escape("".join(parts)), MAX_MARKDOWN_TEXT)


def stream_end_blocks(shown: Grounding, passages: Sequence[NumberedPassage], model: str) -> list[dict]:
    """Under the streamed answer: one row per cited page, then who wrote it from what."""
    blocks = [*_sources(shown, passages), context(written_by(model, len(passages)))]
    return fit_blocks(blocks, MAX_BLOCKS, keep_last=1)


def stream_cut_blocks(
    shown: Grounding, passages: Sequence[NumberedPassage], model: str, extractive: Sequence[dict]
) -> list[dict]:
    """Under a streamed answer the model did not finish: the pages its sentences cite, a line that
    says it stopped, then the extractive answer (the wiki's own words), so nothing is lost."""
    stopped = _(STOPPED_NOTE).format(model=f"`{escape(model)}`")
    blocks = [*_sources(shown, passages), context(stopped), divider(), *extractive]
    return fit_blocks(blocks, MAX_BLOCKS)


def _sources(shown: Grounding, passages: Sequence[NumberedPassage]) -> list[dict]:
    by_number = {passage.number: passage for passage in passages}
    return [source_block(by_number[number], index) for index, number in enumerate(shown.cited)]
