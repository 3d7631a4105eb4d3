"""The answer to a free question (a mention or a DM): the answer first, then what supports it.

1. The answer: the relation read from the wiki (``ByteDance — Minder の開発元``) and/or the
   sentences that answer, their key words in bold, each followed by ``— Page § section`` (a link to
   the page with ``WIKI_BASE_URL``, else a Card button under the answer). A ``rich_text`` block, so
   bold renders inside Japanese.
2. At most three supporting passages from other pages, each its best sentence.
3. The question's subject as one line with a Card button (not the whole card).

When no sentence answers, the reply says so plainly and lists the closest pages as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.buttons import open_page_button, open_pages_row
from bot.blocks.elements import MAX_BLOCKS, MAX_MESSAGE_TEXT, context, fit_blocks, more_text, section
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.page_types import type_label
from bot.blocks.rich_text import linked, marked, rich_text, run
from bot.blocks.search import CARD_BUTTON, hit_blocks, quote
from bot.i18n import _
from index import RELATION_LABELS_EN, Answer, AnswerSentence, Card, Fact, Hit

ANSWER_CHARS = 280
"""Room for the answer's sentences: with its citation it stays within the first screen (400
characters, `bot.blocks.visible`), leaving the title of the first supporting passage in view."""
SUPPORTING = 3
SUBJECT_SUMMARY_CHARS = 120
MAX_TARGETS_SHOWN = 8
ANSWER_EVENT = "sakuin_answer"
"""The ``event_type`` of the metadata every answer to a question carries."""


def answer_blocks(answer: Answer, subject: Card | None = None) -> list[dict]:
    """The reply to a question, answer first (see the module docstring)."""
    asked = quote(answer.question)
    if answer.confident:
        blocks = answered_blocks(answer)
    elif answer.pages:
        blocks = [
            section(_("The wiki does not answer “{question}”. The closest pages:").format(question=asked)),
            *hit_blocks(answer.pages[:SUPPORTING]),
        ]
    else:
        blocks = [
            section(_("I could not find anything in the wiki about “{query}”.").format(query=asked)),
            context(_("Try other words, or look a name up with `/entity`.")),
        ]
    if subject is not None:
        blocks.append(subject_line(subject))
    return fit_blocks(blocks, MAX_BLOCKS)


def answered_blocks(answer: Answer) -> list[dict]:
    sentences = shown_sentences(answer.sentences)
    lines: list[list[dict]] = []
    if answer.fact is not None:
        lines.append(fact_line(answer.fact, answer.language))
    for sentence in sentences:
        lines.append([*marked(sentence.text, sentence.marks), *citation(sentence)])
    blocks = [rich_text(*lines)]
    cited = list(dict.fromkeys(s.path for s in sentences))
    unlinked = unlinked_pages(answer.fact, sentences)
    if unlinked:
        blocks.append(open_pages_row(unlinked, _("Open a page")))
    supporting = [hit for hit in answer.pages if hit.path not in cited][:SUPPORTING]
    if supporting:
        blocks.append(context(_("Also in the wiki")))
        blocks += hit_blocks(supporting)
    if answer.unanswered:  # a part no sentence answers: said after what the wiki does say
        blocks.append(
            context(
                *(_("The wiki does not say “{part}”.").format(part=quote(part)) for part in answer.unanswered)
            )
        )
    return blocks


def answer_metadata(answer: Answer) -> dict:
    """The message metadata of an answer (contract): its status, confidence, the pages its answer
    block cites (first first) and the question's language."""
    return {
        "event_type": ANSWER_EVENT,
        "event_payload": {
            "status": answer.status,
            "confidence": answer.confidence,
            "pages": cited_pages(answer),
            "lang": answer.language,
        },
    }


def cited_pages(answer: Answer) -> list[str]:
    """The pages the answer block shows as the answer: the relation's pages, then the pages of the
    sentences shown; none when the wiki does not answer."""
    if not answer.confident:
        return []
    fact = answer.fact
    refs = [*fact.targets[:MAX_TARGETS_SHOWN], fact.subject] if fact is not None else []
    paths = [ref.path for ref in refs if ref.path]
    paths += [sentence.path for sentence in shown_sentences(answer.sentences)]
    return list(dict.fromkeys(paths))


def shown_pages(answer: Answer) -> list[str]:
    """Every page the reply shows, as `answer_blocks` lays it out: the answering sentences' pages,
    the closest or supporting ones, the question's subject."""
    cited = [sentence.path for sentence in answer.sentences] if answer.confident else []
    closest = [hit.path for hit in answer.pages[:SUPPORTING]]
    return list(dict.fromkeys([*cited, *closest, *([answer.subject] if answer.subject else [])]))


def unlinked_pages(fact: Fact | None, sentences: Sequence[AnswerSentence]) -> list[tuple[str, str]]:
    """Pages the answer names that have no web link (no ``WIKI_BASE_URL``): their cards are a
    button away instead. The relation's pages first, then the cited ones."""
    refs = [*fact.targets, fact.subject] if fact is not None else []
    found = [(ref.name, ref.path) for ref in refs if ref.path and ref.url is None]
    found += [(s.title, s.path) for s in sentences if s.url is None]
    return list(dict.fromkeys(found))


def shown_sentences(sentences: Sequence[AnswerSentence]) -> list[AnswerSentence]:
    """The first sentence, and the next ones while they fit in `ANSWER_CHARS`."""
    shown: list[AnswerSentence] = []
    used = 0
    for sentence in sentences:
        if shown and used + len(sentence.text) > ANSWER_CHARS:
            break
        shown.append(sentence)
        used += len(sentence.text)
    return shown


def fact_line(fact: Fact, language: str) -> list[dict]:
    """``ByteDance — Minder の開発元`` (in English ``— developer of Minder``; inverse: ``— 開発元:
    ByteDance``)."""
    targets: list[dict] = []
    for index, target in enumerate(fact.targets[:MAX_TARGETS_SHOWN]):
        if index:
            targets.append(run(" · "))
        targets.append(linked(target.url, target.name, bold=True))
    if len(fact.targets) > MAX_TARGETS_SHOWN:
        targets.append(run(" · " + more_text(len(fact.targets) - MAX_TARGETS_SHOWN)))
    subject = linked(fact.subject.url, fact.subject.name)
    label = fact.label if language == "ja" else RELATION_LABELS_EN.get(fact.label, fact.label)
    if fact.inverse:
        relation = [run(f" — {label}: "), subject]
    elif language == "ja":
        relation = [run(" — "), subject, run(f" の{label}")]
    else:
        relation = [run(f" — {label} of "), subject]
    return [*targets, *relation]


def citation(sentence: AnswerSentence) -> list[dict]:
    """`` — Page § section`` after a sentence, the page's title a link when it has a URL."""
    parts = [run(" — "), linked(sentence.url, sentence.title, italic=True)]
    if sentence.section:
        parts.append(run(f" § {sentence.section}", italic=True))
    return parts


def subject_line(card: Card) -> dict:
    """The page the question is about, in one line: title, kind, summary; its card one click away."""
    title = bold(link(card.url, card.title) if card.url else escape(card.title))
    summary = card.summary.strip().splitlines()[0] if card.summary.strip() else ""
    parts = [title, escape(type_label(card.entity_type or card.type))]
    if summary:
        parts.append(escape_clipped(summary, SUBJECT_SUMMARY_CHARS))
    return section(" · ".join(parts), accessory=open_page_button(_(CARD_BUTTON), card.path, SUPPORTING + 1))


def answer_text(answer: Answer) -> str:
    """The notification text: the answer itself, or that there is none."""
    if answer.confident and answer.fact is not None:
        line = "".join(element["text"] for element in fact_line(answer.fact, answer.language))
        return escape_clipped(line, MAX_MESSAGE_TEXT)
    if answer.confident and answer.sentences:
        first = answer.sentences[0]
        return escape_clipped(f"{first.text} — {first.title}", MAX_MESSAGE_TEXT)
    if answer.pages:
        return escape_clipped(
            _("No direct answer; closest: {titles}").format(titles=", ".join(_titles(answer.pages))),
            MAX_MESSAGE_TEXT,
        )
    return escape_clipped(
        _("Nothing in the wiki about {query}").format(query=answer.question), MAX_MESSAGE_TEXT
    )


def _titles(hits: Sequence[Hit]) -> list[str]:
    return [hit.title for hit in hits[:SUPPORTING]]
