"""The answer step: from a question and its retrieved passages, what answers it, or that nothing does.

It runs after retrieval, on a few pages only: the best pages are read whole (their best sentence
may stand in a passage that did not match: the figure, not the abstract), the others through the
passages that matched. Then:

1. **A relation**, when the question names a page and asks for one of the wiki's typed relations
   (X を開発したのはどこ?, who developed X?, P が関わったプロジェクトは?): the page's ``## 関連``
   line of that label, or the pages whose line of that label links to it, with the sentence that
   says so (`index.asking.facts`).
2. **Sentences**: the one to three that answer (`index.asking.sentences`: they hold what the question's
   shape asks for and cover at least half of it).
3. Otherwise **no answer**: ``confident`` is False and the closest pages are given as they are.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from index.asking.facts import UrlFor, relation_answer
from index.asking.parts import elliptical, question_parts
from index.asking.question import Keyword, Question, read_question
from index.asking.search import Ranked, Retrieval, page_hit, retrieve, scorer_for, sentences_of
from index.asking.sentences import ANSWERS_AT, DEFINITION_SECTIONS, Scored
from index.asking.splitting import Sentence, asks, is_lead
from index.asking.vocabulary import Shape, asks_about_upkeep
from index.asking.weights import SaidText
from index.catalog.graph import Graph
from index.model import Answer, AnswerSentence, Fact, Hit, Page, Passage
from index.reading.format import WIKI_LOG
from index.reading.prose import strip_citations
from index.store.values import ChunkMatch, PassageStore

ANSWER_PAGES = 5
"""Pages retrieved for an answer: the answer's page and the supporting ones shown after it."""
READ_PAGES = 3
"""Pages read whole, not only through their matching passages."""
MAX_PAGE_CHUNKS = 60
"""A page read whole is read up to this many passages (a 137-section page is read where it matched)."""
MAX_SENTENCES = 3

MAX_LINES = 4
"""Lines of a list, table or code shown with the sentence that introduces them."""
LINES_CHARS = 300
"""The answer unit a lead and its lines make stays about this long (the first line always shown)."""
LINE_JOIN = " / "


@dataclass(frozen=True)
class _Read:
    """A page as the answer step read it: its rank in the retrieval and its scored sentences."""

    ranked: Ranked
    chunks: tuple[ChunkMatch, ...]
    best: list[Scored]


def answer_question(
    store: PassageStore,
    pages: Mapping[str, Page],
    graph: Graph,
    text: str,
    *,
    subject: str | None = None,
    url_for: UrlFor,
    logs: Mapping[str, Page] | None = None,
) -> Answer:
    """The answer to ``text`` from the knowledge pages; else, when it asks about the wiki's upkeep,
    from an entry of the wiki's ``logs`` (`index.reading.log_page`, searched apart)."""
    question = read_question(text, graph.names, pages)
    if question.too_long:
        return Answer(question.text, (), False, None, (), (), too_long=True)
    follow = subject if subject in pages and not question.named else None
    about = question.named or ((follow,) if follow else ())
    retrieval = retrieve(store, pages, question, ANSWER_PAGES, graph.names, subject=follow)
    chunks = _chunks_read(store, retrieval.pages, about)
    sentences = {
        path: sentences_of(page_chunks, rank) for rank, (path, (_, page_chunks)) in enumerate(chunks.items())
    }
    scorer = scorer_for(
        retrieval, pages, graph.names, [s for found in sentences.values() for s in found], follow
    )
    read = {
        path: _Read(ranked, page_chunks, scorer.best(sentences[path]))
        for path, (ranked, page_chunks) in chunks.items()
    }
    best = {path: page.best for path, page in read.items()}
    fact, support = relation_answer(question, about, best, store, pages, graph, scorer, url_for)
    unanswered: list[str] = []
    if fact is not None:
        chosen = [support] if support is not None else []
    else:
        every = [scored for page in read.values() for scored in page.best]
        chosen = _answering(every) or _answering(every, linked=True)
        parts = question_parts(question.text)
        if parts:
            chosen, unanswered = _with_each_part(chosen, parts, retrieval, read, pages, graph, about)
    if not chosen and fact is None and question.shape is Shape.DIFFERENCE and len(about) >= 2:
        chosen = _definitions(about, read)
    shown = [page for page in read.values() if page.ranked.score > 0 or page.ranked.path in about]
    if fact is None and not (question.shape is Shape.DIFFERENCE and about):  # the things compared lead
        shown = _by_evidence(shown, chosen, about)
    confident = fact is not None or bool(chosen)
    weighed: Iterable[_Read] = read.values()
    if logs and not confident and asks_about_upkeep(question.folded):
        with_logs = ChainMap(dict(logs), pages)
        logged = _from_log(store, with_logs, graph, question)
        if logged is not None:  # the wiki's own history answers what no page does
            page, chosen = logged
            pages, shown, weighed, confident = with_logs, [page, *shown][:ANSWER_PAGES], [page], True
    return Answer(
        question=question.text,
        sentences=_shown(chosen, read, pages, url_for),
        confident=confident,
        subject=about[0] if about else None,
        passages=tuple(_passage(page, pages, url_for) for page in shown),
        pages=tuple(_hit(page, pages, url_for) for page in shown),
        fact=fact,
        shape=question.shape.value,
        language=question.language,
        confidence=_confidence(fact, chosen, weighed),
        unanswered=tuple(unanswered) if chosen else (),
    )


def _from_log(
    store: PassageStore, pages: Mapping[str, Page], graph: Graph, question: Question
) -> tuple[_Read, list[Scored]] | None:
    """The log's page and its sentences that answer, when an entry of the wiki's log does
    (`WIKI_LOG` passages, searched apart and read only where they matched: each entry is its own
    unit), else None."""
    retrieval = retrieve(store, pages, question, 1, graph.names, kind=WIKI_LOG)
    if not retrieval.pages:
        return None
    ranked = retrieval.pages[0]
    sentences = sentences_of(ranked.chunks, 0)
    scorer = scorer_for(retrieval, pages, graph.names, sentences)
    best = scorer.best(sentences)
    chosen = _answering(best)
    return (_Read(ranked, ranked.chunks, best), chosen) if chosen else None


def _by_evidence(shown: list[_Read], chosen: list[Scored], about: tuple[str, ...]) -> list[_Read]:
    """The pages in the order of what they say: a page the question names when a sentence of its
    own answers, then the pages of the answering sentences, then each by its best sentence (the
    retrieval's order among equals). A named page, or an overview linked from everywhere, does not
    lead when another page states the answer and it does not."""
    cited = list(dict.fromkeys(scored.sentence.path for scored in chosen))

    def order(item: tuple[int, _Read]) -> tuple[bool, int, float, int]:
        rank, page = item
        path = page.ranked.path
        best = page.best[0] if page.best else None
        answers = best is not None and best.answers
        return (
            not (path in about and answers),
            cited.index(path) if path in cited else len(cited),
            -round(best.score if best else 0.0, 3),
            rank,
        )

    return [page for _, page in sorted(enumerate(shown), key=order)]


def _confidence(fact: Fact | None, chosen: list[Scored], read: Iterable[_Read]) -> float:
    """A relation is the wiki's own statement (1); sentences are as sure as the best one's score;
    with no answer, how close the best sentence read came (below what answers)."""
    if fact is not None:
        return 1.0
    if chosen:
        return round(min(1.0, max(s.score for s in chosen)), 3)
    best = max((s.score for page in read for s in page.best[:1]), default=0.0)
    return round(min(best, ANSWERS_AT - 0.01) if best > 0 else 0.0, 3)


def _chunks_read(
    store: PassageStore, ranked: Iterable[Ranked], about: tuple[str, ...]
) -> dict[str, tuple[Ranked, tuple[ChunkMatch, ...]]]:
    """The passages read of each page, in rank order: the best pages and the pages the question
    names whole (a named page even when nothing of it matched), the others where they matched."""
    ranked = list(ranked)
    for path in about:
        if all(page.path != path for page in ranked):
            ranked.append(Ranked(path, 0.0, ()))
    read: dict[str, tuple[Ranked, tuple[ChunkMatch, ...]]] = {}
    for rank, page in enumerate(ranked):
        chunks = _whole(store, page) if rank < READ_PAGES or page.path in about else page.chunks
        if chunks:
            read[page.path] = (page, chunks)
    return read


def _whole(store: PassageStore, page: Ranked) -> tuple[ChunkMatch, ...]:
    """All passages of a page (the matching ones kept whatever its length), in page order."""
    matched = {chunk.ordinal for chunk in page.chunks}
    chunks = [c for c in store.page_chunks(page.path) if c.ordinal < MAX_PAGE_CHUNKS or c.ordinal in matched]
    return tuple(chunks) or page.chunks


def _answering(scored: Iterable[Scored], *, linked: bool = False) -> list[Scored]:
    """The best sentences that answer (``linked``: of those only linked to what the question names,
    `Scored.linked`), up to `MAX_SENTENCES`, each said once. (Keeping only the ones that say in
    their own words as much of the question as the first dropped answers that stood under the
    heading that said the rest: measured on the real wikis, docs/benchmarks.md.)"""
    chosen: list[Scored] = []
    seen: set[str] = set()
    answering = [s for s in scored if (s.answers_by_link if linked else s.answers)]
    for candidate in sorted(answering, key=_order):
        if len(chosen) == MAX_SENTENCES:
            break
        if candidate.sentence.folded not in seen:
            seen.add(candidate.sentence.folded)
            chosen.append(candidate)
    return chosen


def _with_each_part(
    chosen: list[Scored],
    parts: list[str],
    retrieval: Retrieval,
    read: dict[str, _Read],
    pages: Mapping[str, Page],
    graph: Graph,
    about: tuple[str, ...],
) -> tuple[list[Scored], list[str]]:
    """The sentences that answer a question of several parts: for each part in turn, the one the
    answer already has, else the best that answers that part alone (read as a follow-up about what
    the question names, when the part names nothing). When nothing answers the whole question, the
    parts the wiki states are answered, and the parts it does not state are given back as such: a
    colleague who asks two things is better told the one the wiki says, and that it does not say
    the other, than that it says nothing. (Answering only when every part was: dev false not_found
    30 → 24, held out 67 → 62, one more unanswerable answered of 116, docs/benchmarks.md.)"""
    sentences = [scored.sentence for page in read.values() for scored in page.best]
    had = {scored.sentence.folded for scored in chosen}
    added: list[Scored] = []
    unanswered: list[str] = []
    asked = parts[0]
    for index, text in enumerate(parts):
        part = read_question(text, graph.names, pages)
        own: tuple[Keyword, ...] = ()
        if index and elliptical(text):
            own = part.keywords
            # "…graded Premium? and for Class 2?": the part before asked of another thing; read
            # whole, answered by a sentence that says the part's own words.
            part = read_question(f"{asked} {text}", graph.names, pages)
        else:
            asked = text
        subject = about[0] if about and not part.named else None
        scorer = scorer_for(replace(retrieval, question=part), pages, graph.names, sentences, subject)
        answering = [
            scored
            for scored in _answering([scorer.score(sentence) for sentence in sentences])
            if _says_all(scored.sentence, own)
        ]
        if any(scored.sentence.folded in had for scored in answering):
            continue
        if not answering:
            if not chosen:
                unanswered.append(text)
            continue
        added.append(answering[0])
        had.add(answering[0].sentence.folded)
    if not added:
        return chosen, []
    if chosen:
        return [*chosen[:1], *added, *chosen[1:]][:MAX_SENTENCES], []
    return added[:MAX_SENTENCES], unanswered


def _says_all(sentence: Sentence, keywords: Iterable[Keyword]) -> bool:
    """The sentence says each of ``keywords`` itself (any, when there are none)."""
    said = SaidText.of(sentence.folded)
    return all(said.has(keyword.said_as) for keyword in keywords)


def _definitions(about: tuple[str, ...], read: dict[str, _Read]) -> list[Scored]:
    """A difference no sentence states: what each of the things compared is, side by side (the
    first sentence of each one's lead, 定義 or 概要)."""
    found: list[Scored] = []
    for path in about[:2]:
        page = read.get(path)
        if page is None:
            continue
        in_order = sorted(page.best, key=lambda s: (s.sentence.ordinal, s.sentence.index))
        defining = [s for s in in_order if s.sentence.section in DEFINITION_SECTIONS and not asks(s.sentence)]
        if defining or in_order:
            found.append((defining or in_order)[0])
    return found if len(found) == 2 else []


def _order(scored: Scored) -> tuple[float, float, bool, int, int, int]:
    return scored.order


# -- values for the edges ------------------------------------------------------------------


def _shown(
    chosen: list[Scored], read: Mapping[str, _Read], pages: Mapping[str, Page], url_for: UrlFor
) -> tuple[AnswerSentence, ...]:
    """The answering sentences as shown: one that introduces a list, table or code (Company Brain
    は3つの層を…構造化する:) with the first of its lines, which are what it says; a line shown so
    is not shown again on its own."""
    shown: list[AnswerSentence] = []
    said: set[str] = set()
    for scored in chosen:
        sentence = scored.sentence
        if sentence.folded in said:
            continue
        under = _lines_under(sentence, read.get(sentence.path))
        lines = [line for line in under if line.folded not in said]
        if under and not lines:
            continue  # its lines are shown already
        said.update(line.folded for line in lines)
        said.add(sentence.folded)
        shown.append(_sentence(scored, pages, url_for, lines))
    return tuple(shown)


def _lines_under(sentence: Sentence, page: _Read | None) -> list[Sentence]:
    """The first lines a sentence introduces (those it is the lead of), within `LINES_CHARS`."""
    if page is None or not is_lead(sentence):
        return []
    lines = sorted(
        (
            scored.sentence
            for scored in page.best
            if scored.sentence.ordinal == sentence.ordinal
            and scored.sentence.index > sentence.index
            and scored.sentence.lead == sentence.folded
        ),
        key=lambda line: line.index,
    )
    kept: list[Sentence] = []
    length = len(sentence.text)
    for line in lines[:MAX_LINES]:
        length += len(line.text) + len(LINE_JOIN)
        if length > LINES_CHARS and kept:
            break
        kept.append(line)
    return kept


def _sentence(
    scored: Scored, pages: Mapping[str, Page], url_for: UrlFor, lines: Iterable[Sentence] = ()
) -> AnswerSentence:
    sentence = scored.sentence
    page = pages[sentence.path]
    return AnswerSentence(
        text=LINE_JOIN.join([sentence.text, *(line.text for line in lines)]),
        path=page.path,
        title=page.title,
        section=sentence.section or None,
        url=url_for(page.path),
        terms=scored.terms,
        marks=scored.marks,
        confidence=round(scored.score, 3),
    )


def _passage(page: _Read, pages: Mapping[str, Page], url_for: UrlFor) -> Passage:
    """The passage of a page that holds its best sentence."""
    best = page.best[0].sentence if page.best else None
    chunk = next((c for c in page.chunks if best and c.ordinal == best.ordinal), page.chunks[0])
    info = pages[page.ranked.path]
    return Passage(
        path=info.path,
        title=info.title,
        type=info.type,
        section=chunk.heading or None,
        text=" ".join(strip_citations(chunk.text).split()),
        url=url_for(info.path),
        score=round(page.ranked.score, 3),
    )


def _hit(page: _Read, pages: Mapping[str, Page], url_for: UrlFor) -> Hit:
    return page_hit(
        pages[page.ranked.path], Ranked(page.ranked.path, page.ranked.score, page.chunks), page.best, url_for
    )
