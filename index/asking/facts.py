"""An answer read from the wiki's typed relations: when the question names a page and asks for one
of the relations its ``## 関連`` lines type (X を開発したのはどこ?, who developed X?, P が関わった
プロジェクトは?), the page's line of that label, or the pages whose line of that label links back to
it, with the sentence that says so. Words the question adds (P が責任著者の論文は?) keep only the
pages a sentence supports (`index.asking.answer` falls back to sentences when none is).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from index.analysis import fold
from index.asking.question import Keyword, Question
from index.asking.relations import ALIASES, Relation
from index.asking.search import sentences_of
from index.asking.sentences import ANSWERS_AT, Scored, SentenceScorer
from index.asking.vocabulary import Shape
from index.catalog.graph import Graph, page_ref
from index.model import Fact, Page, PageRef
from index.reading.format import RELATIONS_HEADING
from index.store.values import PassageStore

RELATED_TYPES = frozenset({"entity"})
"""Pages whose typed relations answer questions: people, organisations, products. What a concept
links to is a topic, not a relation (``which paper proposes …`` is not asking for its sources)."""
MAX_TARGETS = 8
"""Targets of a relation checked against the question's other words (a person's 12 papers: the first 8)."""

UrlFor = Callable[[str], str | None]


def relation_answer(
    question: Question,
    about: tuple[str, ...],
    best: Mapping[str, list[Scored]],
    store: PassageStore,
    pages: Mapping[str, Page],
    graph: Graph,
    scorer: SentenceScorer,
    url_for: UrlFor,
) -> tuple[Fact | None, Scored | None]:
    """The first page the question names that has the relation asked for, and the sentence that
    best says it (a sentence about the page and about one of the related pages), from the best
    sentences of the pages read (``best``)."""
    for relation in (*_labels_written(question, about, pages), *question.relations):
        for path in about:
            if relation.labels == (ALIASES,):
                if pages[path].aliases:
                    return _aliases(pages[path], best, scorer, url_for)
                continue
            if pages[path].type not in RELATED_TYPES:
                continue
            others = [other for other in about if other != path]
            for labels, inverse in (
                (relation.labels, relation.linked_back),
                (relation.fallback, relation.fallback),
            ):
                found = _related(path, labels, inverse, pages, graph) if labels else None
                if found is None:
                    continue
                label, targets, inverse = found
                # The other pages the question names narrow it (ByteDance の異常検知に関する研究は?).
                targets = [t for t in targets if all(_linked(t, other, graph) for other in others)]
                targets = [t for t in targets if _of_kind(pages[t], relation.kind)]
                if not targets:
                    continue
                supported = _supported(question, (label, *labels), path, targets, best, store, scorer)
                if supported is None:
                    continue
                kept, support = supported
                fact = Fact(
                    page_ref(pages[path], url_for),
                    label,
                    tuple(page_ref(pages[target], url_for) for target in kept),
                    inverse,
                )
                return fact, support
    return None, None


def _labels_written(question: Question, about: tuple[str, ...], pages: Mapping[str, Page]) -> list[Relation]:
    """Relations the question asks for by the wiki's own label (ByteDance の関連組織は?), longest
    label first (関連組織 before 関連)."""
    if question.shape not in (Shape.NAME, Shape.OPEN):
        return []
    labels = {
        relation.label
        for path in about
        if pages[path].type in RELATED_TYPES
        for relation in pages[path].relations
        if len(relation.label) >= 2
        and relation.label != RELATIONS_HEADING
        and fold(relation.label) in question.folded
    }
    return [
        Relation((label,), re.compile(re.escape(label))) for label in sorted(labels, key=len, reverse=True)
    ]


def _aliases(
    page: Page, best: Mapping[str, list[Scored]], scorer: SentenceScorer, url_for: UrlFor
) -> tuple[Fact, Scored | None]:
    """The names a page is also known by, and the best sentence of it that uses one."""
    names = [fold(alias) for alias in page.aliases]
    support = next(
        (s for s in best.get(page.path, ()) if any(name in s.sentence.folded for name in names)), None
    )
    return Fact(page_ref(page, url_for), ALIASES, tuple(PageRef(alias) for alias in page.aliases)), support


def _of_kind(page: Page, kind: str | None) -> bool:
    """A page of the kind a relation answers with; a page that does not say its kind may be one."""
    return kind is None or page.entity_type is None or page.entity_type.casefold() == kind


def _linked(one: str, other: str, graph: Graph) -> bool:
    return other in graph.outlinks.get(one, ()) or one in graph.outlinks.get(other, ())


def _related(
    path: str, labels: tuple[str, ...], inverse: tuple[str, ...], pages: Mapping[str, Page], graph: Graph
) -> tuple[str, list[str], bool] | None:
    """The pages ``path``'s line of one of ``labels`` links to, else the pages whose line of one of
    ``inverse`` links to ``path``."""
    for label in labels:
        targets = _links_under(pages[path], label, graph)
        targets = [target for target in targets if target != path and target in pages]
        if targets:
            return label, targets, False
    for label in inverse:
        sources = [
            other
            for other in graph.backlinks.get(path, ())
            if other in pages and path in _links_under(pages[other], label, graph)
        ]
        if sources:
            return label, sources, True
    return None


def _links_under(page: Page, label: str, graph: Graph) -> list[str]:
    found: list[str] = []
    for relation in page.relations:
        if relation.label != label:
            continue
        for link in relation.links:
            target = graph.resolver.resolve(link.target)
            if target is not None and target not in found:
                found.append(target)
    return found


def _supported(
    question: Question,
    labels: tuple[str, ...],
    subject: str,
    targets: list[str],
    best: Mapping[str, list[Scored]],
    store: PassageStore,
    scorer: SentenceScorer,
) -> tuple[list[str], Scored | None] | None:
    """The targets a sentence supports, and the best such sentence.

    When the question says more than the relation (責任著者 in P が責任著者の論文は?; the words of
    the relation's own label, 関連 of 関連プロダクト, are the relation), only the
    targets with a sentence about both pages that covers at least half of those words are kept;
    none kept means the relation does not answer. Otherwise every target stands, and the sentence
    is shown when there is one.
    """
    said_by_label = " ".join(labels)
    qualifiers = [
        k
        for k in question.keywords
        if k.name is None
        and not k.lone
        and k.text not in said_by_label
        and scorer.weights.get(k.text, 0.0) > 0
    ]
    weight = sum(scorer.weights[k.text] for k in qualifiers)
    candidates = list(_sentences_about(subject, targets[:MAX_TARGETS], best, store, scorer))
    best_by_target: dict[str, Scored] = {}
    for target, scored in candidates:
        if target not in best_by_target or scored.order < best_by_target[target].order:
            best_by_target[target] = scored
    if weight > 0:
        kept = [
            target
            for target in targets[:MAX_TARGETS]
            if target in best_by_target
            and _covers(best_by_target[target], qualifiers, scorer) >= ANSWERS_AT * weight
        ]
        if not kept:
            return None
    else:
        kept = targets
    support = min(
        (best_by_target[t] for t in kept if t in best_by_target), key=lambda s: s.order, default=None
    )
    return kept, support


def _sentences_about(
    subject: str,
    targets: list[str],
    best: Mapping[str, list[Scored]],
    store: PassageStore,
    scorer: SentenceScorer,
) -> Iterable[tuple[str, Scored]]:
    """Sentences on the subject's page naming a target, and on a target's page naming the subject."""
    for scored in best.get(subject, ()):
        for target in targets:
            if scorer.about(scored.sentence, target):
                yield target, scored
    for rank, target in enumerate(targets, start=len(best)):
        read = best.get(target)
        if read is None:
            read = scorer.best(sentences_of(tuple(store.page_chunks(target)), rank))
        for scored in read:
            if scorer.about(scored.sentence, subject):
                yield target, scored


def _covers(scored: Scored, qualifiers: list[Keyword], scorer: SentenceScorer) -> float:
    """The weight of the qualifiers the sentence says, in the question's words or as Japanese
    prose renders them (write → 著者)."""
    folded = scored.sentence.folded
    return sum(
        scorer.weights[k.text] for k in qualifiers if any(text in folded for text in (k.text, *k.glosses))
    )
