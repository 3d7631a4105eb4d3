"""The MCP tools' work: the domain's answers as plain JSON-able dicts, with the limits Slack has.

Synchronous, like `bot.answering.replies` (the server runs each call in a worker thread). Every result is
built from the frozen dataclasses of `index.model`; the TypedDicts below are its shapes, which the
SDK publishes as each tool's output schema. Bad input raises `ToolError` with one English line
the calling agent can act on (the SDK sends it as an error result); so does an index that is not
built yet. Text is the wiki's own plain text: nothing here is Slack mrkdwn.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Literal

from mcp.server.mcpserver.exceptions import ToolError
from typing_extensions import TypedDict

from bot.answering.replies import LOOKUP_LIMIT, MAX_NAME_CHARS
from bot.blocks.answer import answer_metadata as slack_metadata
from bot.blocks.answer import fact_line, shown_sentences
from bot.digest.days import day_digest, yesterday
from bot.i18n import use_language
from config.settings import Settings
from index import (
    MAX_QUERY_CHARS,
    Answer,
    Candidate,
    Card,
    Digest,
    Fact,
    Hit,
    IndexNotReady,
    Lookup,
    PageRef,
    SearchResult,
    Wiki,
)

DEFAULT_SEARCH_LIMIT = 5
MAX_SEARCH_LIMIT = 20
MAX_LISTED = 50
"""Backlinks and pages per relation listed with a card (a hub has hundreds); the total is given."""
MAX_PATH_CHARS = 1000

Status = Literal["answered", "relation", "not_found"]


class PageLink(TypedDict):
    name: str
    path: str | None
    """None: a name the wiki links to that has no page yet."""
    type: str | None
    url: str | None


class CandidateJson(TypedDict):
    path: str
    title: str
    type: str
    score: float
    url: str | None


class RelationJson(TypedDict):
    label: str
    pages: list[PageLink]


class CardJson(TypedDict):
    path: str
    title: str
    type: str
    entity_type: str | None
    summary: str
    aliases: list[str]
    url: str | None
    year: int | None
    venue: str | None
    relations: list[RelationJson]
    backlinks: list[PageLink]
    backlinks_total: int


class UnresolvedJson(TypedDict):
    name: str
    mentioned_in: list[PageLink]


class LookupJson(TypedDict):
    query: str
    match: CandidateJson | None
    card: CardJson | None
    candidates: list[CandidateJson]
    unresolved: UnresolvedJson | None
    ambiguous: bool


class HitJson(TypedDict):
    path: str
    title: str
    type: str
    score: float
    snippet: str
    section: str | None
    url: str | None


class SearchJson(TypedDict):
    query: str
    hits: list[HitJson]
    entities: list[CandidateJson]


class AnswerMetadata(TypedDict):
    """The answer's metadata, as Slack messages carry it (``sakuin_answer``)."""

    status: Status
    confidence: float
    pages: list[str]
    """The pages the answer cites, first first (none when nothing answers)."""
    lang: str


class SentenceJson(TypedDict):
    text: str
    path: str
    title: str
    section: str | None
    url: str | None
    confidence: float


class FactJson(TypedDict):
    subject: PageLink
    label: str
    targets: list[PageLink]
    inverse: bool


class AnswerJson(TypedDict):
    question: str
    answer: str | None
    """The answer as Slack's first screen shows it, in plain text; None when nothing answers."""
    metadata: AnswerMetadata
    sentences: list[SentenceJson]
    relation: FactJson | None
    subject: str | None
    closest: list[HitJson]
    """The closest pages, best first (also when nothing answers)."""
    unanswered: list[str]
    """The parts of a question of several that the wiki does not state, when it states the others."""


class SectionJson(TypedDict):
    heading: str
    text: str


class PageJson(TypedDict):
    path: str
    title: str
    type: str
    url: str | None
    aliases: list[str]
    summary: str
    sections: list[SectionJson]


class DigestItemJson(TypedDict):
    path: str
    title: str
    venue: str | None
    year: int | None
    date: str | None
    source_type: str | None
    summary: str
    url: str | None
    cited_by: list[str]


class DigestJson(TypedDict):
    date: str
    sources: list[DigestItemJson]


# -- the tools ---------------------------------------------------------------------------------


def lookup_entity(wiki: Wiki, name: str) -> LookupJson:
    name = _cleaned(name)
    if not name:
        raise ToolError("name is empty: give the name of a page (an entity, a source, a concept)")
    if len(name) > MAX_NAME_CHARS:
        raise ToolError(f"name is too long: {len(name)} characters, at most {MAX_NAME_CHARS}")
    with _ready():
        lookup = wiki.lookup(name, limit=LOOKUP_LIMIT)
        card = wiki.card(lookup.match.path) if lookup.match is not None else None
    return lookup_json(lookup, card)


def search_wiki(wiki: Wiki, query: str, limit: int = DEFAULT_SEARCH_LIMIT) -> SearchJson:
    query = _question_text(query, "query")
    if not 1 <= limit <= MAX_SEARCH_LIMIT:
        raise ToolError(f"limit must be between 1 and {MAX_SEARCH_LIMIT}, got {limit}")
    with _ready():
        result = wiki.search(query, limit=limit)
    return search_json(result)


def answer_question(wiki: Wiki, question: str) -> AnswerJson:
    question = _question_text(question, "question")
    with _ready():
        answer = wiki.answer(question)
    return answer_json(answer)


def read_page(wiki: Wiki, path: str) -> PageJson:
    """Only a page of the index, by its exact vault-relative path; its text is the index's."""
    path = path.strip()
    if not is_page_path(path):
        raise ToolError(
            "path must be a page's vault-relative path as the other tools give it, such as"
            " wiki/entities/ByteDance.md (no leading /, no . or .. parts)"
        )
    with _ready():
        card = wiki.card(path)
        sections = wiki.page_text(path) if card is not None else None
    if card is None or sections is None:
        raise ToolError(f"{path} is not a page of the wiki: find pages with search_wiki or lookup_entity")
    return {
        "path": card.path,
        "title": card.title,
        "type": card.type,
        "url": card.url,
        "aliases": list(card.aliases),
        "summary": card.summary,
        "sections": [{"heading": section.heading, "text": section.text} for section in sections],
    }


def digest(wiki: Wiki, settings: Settings, day: str | None = None) -> DigestJson:
    """The sources added on ``day`` (``YYYY-MM-DD`` in ``DIGEST_TZ``; default yesterday)."""
    text = _cleaned(day or "")
    try:
        when = date.fromisoformat(text) if text else yesterday(settings)
    except ValueError:
        raise ToolError(f"date must be a day such as 2026-01-31, got {text[:40]!r}") from None
    with _ready():
        return digest_json(day_digest(settings, wiki, when))


# -- the shapes --------------------------------------------------------------------------------


def lookup_json(lookup: Lookup, card: Card | None) -> LookupJson:
    unresolved = lookup.unresolved
    return {
        "query": lookup.query,
        "match": _candidate(lookup.match) if lookup.match is not None else None,
        "card": card_json(card) if card is not None else None,
        "candidates": [_candidate(candidate) for candidate in lookup.candidates],
        "unresolved": (
            {"name": unresolved.name, "mentioned_in": [_link(ref) for ref in unresolved.mentioned_in]}
            if unresolved is not None
            else None
        ),
        "ambiguous": lookup.ambiguous,
    }


def card_json(card: Card) -> CardJson:
    return {
        "path": card.path,
        "title": card.title,
        "type": card.type,
        "entity_type": card.entity_type,
        "summary": card.summary,
        "aliases": list(card.aliases),
        "url": card.url,
        "year": card.year,
        "venue": card.venue,
        "relations": [
            {"label": group.label, "pages": [_link(ref) for ref in group.refs[:MAX_LISTED]]}
            for group in card.groups
        ],
        "backlinks": [_link(ref) for ref in card.backlinks[:MAX_LISTED]],
        "backlinks_total": len(card.backlinks),
    }


def search_json(result: SearchResult) -> SearchJson:
    return {
        "query": result.query,
        "hits": [_hit(hit) for hit in result.hits],
        "entities": [_candidate(candidate) for candidate in result.entities],
    }


def answer_json(answer: Answer) -> AnswerJson:
    sentences = shown_sentences(answer.sentences) if answer.confident else []
    return {
        "question": answer.question,
        "answer": answer_line(answer) if answer.confident else None,
        "metadata": answer_metadata(answer),
        "sentences": [
            {
                "text": sentence.text,
                "path": sentence.path,
                "title": sentence.title,
                "section": sentence.section,
                "url": sentence.url,
                "confidence": sentence.confidence,
            }
            for sentence in sentences
        ],
        "relation": _fact(answer.fact) if answer.confident and answer.fact is not None else None,
        "subject": answer.subject,
        "closest": [_hit(hit) for hit in answer.pages],
        "unanswered": list(answer.unanswered),
    }


def answer_metadata(answer: Answer) -> AnswerMetadata:
    """What Slack messages carry as ``sakuin_answer`` (`bot.blocks.answer.answer_metadata`)."""
    return slack_metadata(answer)["event_payload"]


def answer_line(answer: Answer) -> str:
    """The relation and the sentences Slack shows first, each sentence with ``— Page § section``."""
    lines: list[str] = []
    if answer.fact is not None:
        with use_language(answer.language):
            lines.append("".join(element["text"] for element in fact_line(answer.fact, answer.language)))
    for sentence in shown_sentences(answer.sentences):
        where = f"{sentence.title} § {sentence.section}" if sentence.section else sentence.title
        lines.append(f"{sentence.text} — {where}")
    return "\n".join(lines)


def digest_json(digest: Digest) -> DigestJson:
    return {
        "date": digest.date,
        "sources": [
            {
                "path": item.path,
                "title": item.title,
                "venue": item.venue,
                "year": item.year,
                "date": item.date,
                "source_type": item.source_type,
                "summary": item.summary,
                "url": item.url,
                "cited_by": [ref.path for ref in item.cited_by if ref.path],
            }
            for item in digest.items
        ],
    }


def is_page_path(path: str) -> bool:
    """A vault-relative POSIX path of the kind the index keys pages by: no absolute path, no
    ``.``/``..`` or empty part, no backslash or control character."""
    if not path or len(path) > MAX_PATH_CHARS or path.startswith("/") or "\\" in path:
        return False
    if any(ord(character) < 32 for character in path):
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))


# -- helpers -----------------------------------------------------------------------------------


@contextmanager
def _ready() -> Iterator[None]:
    """Turns `IndexNotReady` into an error result the agent can retry on."""
    try:
        yield
    except IndexNotReady as error:
        raise ToolError(f"the wiki's index is not ready ({error}): try again in a minute") from None


def _cleaned(text: str) -> str:
    """Whitespace collapsed, as Slack's answers do; a lone surrogate (which JSON can carry and
    UTF-8 cannot) replaced."""
    return " ".join(text.encode("utf-8", "replace").decode("utf-8").split())


def _question_text(text: str, what: str) -> str:
    text = _cleaned(text)
    if not text:
        raise ToolError(f"{what} is empty")
    if len(text) > MAX_QUERY_CHARS:
        raise ToolError(f"{what} is too long: {len(text)} characters, at most {MAX_QUERY_CHARS}")
    return text


def _candidate(candidate: Candidate) -> CandidateJson:
    return {
        "path": candidate.path,
        "title": candidate.title,
        "type": candidate.type,
        "score": candidate.score,
        "url": candidate.url,
    }


def _hit(hit: Hit) -> HitJson:
    return {
        "path": hit.path,
        "title": hit.title,
        "type": hit.type,
        "score": hit.score,
        "snippet": hit.snippet,
        "section": hit.section,
        "url": hit.url,
    }


def _link(ref: PageRef) -> PageLink:
    return {"name": ref.name, "path": ref.path, "type": ref.type, "url": ref.url}


def _fact(fact: Fact) -> FactJson:
    return {
        "subject": _link(fact.subject),
        "label": fact.label,
        "targets": [_link(ref) for ref in fact.targets],
        "inverse": fact.inverse,
    }
