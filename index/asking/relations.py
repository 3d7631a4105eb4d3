"""The relation a question asks for, in the wiki's own labels (開発元, 共同研究先, 所属, ソース …):
how a question says each (X の開発元は?, who developed X?, which papers …), and which one it asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index.asking.vocabulary import Shape

ALIASES = "別名"
"""Not a ``## 関連`` label: the names a page is also known by (its frontmatter ``aliases``)."""


@dataclass(frozen=True)
class Relation:
    """A relation a question can ask for: its labels in the wiki, and how a question says it.

    ``noun`` alone asks for it (X の開発元は?, developer of X); ``verb`` only in a question that
    asks for a name (who developed X?, X はどこが開発した?). ``fallback`` labels answer when the
    page has none of ``labels`` (a product's 関連組織 is, in this wiki, where it comes from).
    ``inverse``: the labels under which the pages that answer link back to the page asked about,
    when it has no line of its own (a person's projects list the person under 関連人物).
    """

    labels: tuple[str, ...]
    noun: re.Pattern[str]
    verb: re.Pattern[str] | None = None
    fallback: tuple[str, ...] = ()
    inverse: tuple[str, ...] = ()
    kind: str | None = None
    """The ``entity_type`` of the pages that answer, when the relation implies one (a project is a
    product, not the organisation that also lists the person)."""
    answered_by: str | None = "entity"
    """The type of page that answers (研究は? is answered by papers, 開発元は? by an organisation)."""

    @property
    def linked_back(self) -> tuple[str, ...]:
        return self.inverse or self.labels


RELATIONS = (
    Relation(
        ("開発元",),
        re.compile(
            r"開発元|開発者|開発(?:した|して|された)?(?:のは|組織|企業|会社|機関)|\bdevelopers?\b|\b(?:developed|built|created|made)\s+by\b"
        ),
        re.compile(r"開発|作っ|作成|構築|\bdevelop\w*|\bbuil[dt]\w*|\bcreat\w*|\bmade\b|\bmakes?\b"),
        ("関連組織",),
    ),
    Relation(
        ("共同研究先",),
        re.compile(r"共同研究|共同開発|提携|\bcollaborat\w*|\bpartners?\b|\bpartnered\b"),
        fallback=("関連組織",),
    ),
    Relation(("所属",), re.compile(r"所属|\baffiliat\w*|\bworks?\s+(?:at|for)\b")),
    Relation(
        ("ソース",),
        re.compile(r"論文|文献|研究|\bpapers?\b|\bpublications?\b|\bresearch\b"),
        answered_by="source",
    ),
    Relation(
        ("関連プロダクト",),
        re.compile(r"(?:関連)?(?:プロジェクト|プロダクト|製品)|\bprojects?\b|\bproducts?\b"),
        inverse=("関連プロダクト", "関連人物", "開発元"),
        kind="product",
    ),
    Relation(
        ("関連人物",),
        re.compile(r"関連人物|人物|\bpeople\b|\bresearchers\b"),
        inverse=("関連人物", "関連プロダクト"),
        kind="person",
    ),
    Relation(
        (ALIASES,),
        re.compile(
            r"別名|別称|旧名|略称|通称|\baliases?\b|\bother names?\b|\balso (?:known as|called)\b|\baka\b"
            r"|\bformerly\b|\brenamed\b"
        ),
        answered_by=None,
    ),
)
_NO_GRAPH = re.compile(r"著者|\bauthors?\b|\bwr[io]te\b|\bwritten\b")
"""Authors are text in ``## 論文情報``, not links: a question about them is answered from sentences."""


def relations_asked(folded: str, shape: Shape) -> tuple[tuple[Relation, ...], list[tuple[int, int]]]:
    """The relation the question asks for: the one it names last in Japanese (…の論文は?), first in
    English (which papers did …); a verb (開発した, developed) only when it asks for a name. A
    question for a number, a definition or a difference asks for no relation."""
    if shape not in (Shape.NAME, Shape.OPEN):
        return (), []
    found: list[tuple[tuple[int, int], Relation | None]] = []
    for relation in RELATIONS:
        match = relation.noun.search(folded)
        if match is None and relation.verb is not None and shape is Shape.NAME:
            match = relation.verb.search(folded)
        if match is not None:
            found.append((match.span(), relation))
    authors = _NO_GRAPH.search(folded)
    if authors is not None:
        found.append((authors.span(), None))
    if not found:
        return (), []
    japanese = bool(_JAPANESE.search(folded))
    # Where matches overlap (共同研究先 and 研究), the one that ends last and is longest wins.
    order = (
        (lambda item: (item[0][1], item[0][1] - item[0][0])) if japanese else (lambda item: (-item[0][0], 0))
    )
    found.sort(key=order, reverse=True)
    (span, first) = found[0]
    return ((first,), [span]) if first is not None else ((), [])


_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
