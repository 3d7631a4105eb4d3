"""A question's answer as the model wrote it: its checked sentences, their sources, who wrote it.

The model's text is escaped like any text that did not come from us (a ``<!channel>`` in it is
shown, never sent as a mention); only its ``[n]`` citations become links, to the pages of passages
that were sent. While the answer streams in, the draft sits above the extractive answer; the final
message ends with the cited pages (links and card buttons) and "written by `model` from N wiki
passages".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby

from bot.blocks.buttons import open_page_button
from bot.blocks.elements import (
    MAX_BLOCKS,
    MAX_MESSAGE_TEXT,
    MAX_SECTION_TEXT,
    context,
    divider,
    fit_blocks,
    section,
)
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.search import CARD_BUTTON
from bot.i18n import _, ngettext
from bot.llm.grounding import Grounding, NumberedPassage

_CITED = re.compile(r"\[(\d{1,3})\]")
_MARKDOWN_BOLD = re.compile(r"\*\*(?!\s)(.+?)(?<!\s)\*\*")
_BULLET = re.compile(r"^\s*(?:[-*•]\s+|・\s*)")


def written_blocks(grounding: Grounding, passages: Sequence[NumberedPassage], model: str) -> list[dict]:
    """The final message: the answer, one row per cited page, and who wrote it from what."""
    by_number = {passage.number: passage for passage in passages}
    sources = [source_block(by_number[number], index) for index, number in enumerate(grounding.cited)]
    blocks = [*answer_sections(grounding, by_number), *sources, context(written_by(model, len(passages)))]
    return fit_blocks(blocks, MAX_BLOCKS, keep_last=1)


def draft_blocks(
    grounding: Grounding, passages: Sequence[NumberedPassage], model: str, extractive: Sequence[dict]
) -> list[dict]:
    """The answer so far, above the extractive answer the user is already reading."""
    by_number = {passage.number: passage for passage in passages}
    writing = ngettext(
        "{model} is writing an answer from {count} wiki passage…",
        "{model} is writing an answer from {count} wiki passages…",
        len(passages),
    ).format(model=f"`{escape(model)}`", count=len(passages))
    return fit_blocks([*answer_sections(grounding, by_number), context(writing), divider(), *extractive])


def written_text(grounding: Grounding) -> str:
    """The notification text: the answer itself, citations and all."""
    return escape_clipped(" ".join(_mrkdwn(line) for line in _lines(grounding)), MAX_MESSAGE_TEXT)


def written_by(model: str, sent: int) -> str:
    return ngettext(
        "written by {model} from {count} wiki passage", "written by {model} from {count} wiki passages", sent
    ).format(model=f"`{escape(model)}`", count=sent)


def answer_sections(grounding: Grounding, by_number: dict[int, NumberedPassage]) -> list[dict]:
    """The answer's lines as mrkdwn, in as few sections as their length allows (lines are never cut)."""
    sections: list[str] = []
    for line in _lines(grounding):
        text = _citation_links(escape(_mrkdwn(line)), by_number)
        if sections and len(sections[-1]) + 1 + len(text) <= MAX_SECTION_TEXT:
            sections[-1] += "\n" + text
        else:
            sections.append(text)
    return [section(text) for text in sections]


def source_block(passage: NumberedPassage, index: int) -> dict:
    """``[n] Title · § Section`` linked to the page, with a button that opens its card."""
    heading = f"[{passage.number}] " + bold(link(passage.url, passage.title))
    if passage.section:
        heading += " · § " + escape(passage.section)
    return section(heading, accessory=open_page_button(_(CARD_BUTTON), passage.path, index))


def _lines(grounding: Grounding) -> list[str]:
    lines = (
        "".join(sentence.text for sentence in sentences).strip()
        for _line, sentences in groupby(grounding.sentences, key=lambda sentence: sentence.line)
    )
    return [line for line in lines if line]


def _mrkdwn(line: str) -> str:
    """Markdown habits of models in Slack's terms: ``**bold**`` is ``*bold*``, list items get a bullet."""
    return _BULLET.sub("• ", _MARKDOWN_BOLD.sub(r"*\1*", line))


def _citation_links(mrkdwn: str, by_number: dict[int, NumberedPassage]) -> str:
    def cite(match: re.Match[str]) -> str:
        passage = by_number.get(int(match.group(1)))
        return link(passage.url, match.group()) if passage is not None else match.group()

    return _CITED.sub(cite, mrkdwn)
