"""Markdown for each page of the synthetic vault, in the harness format (docs/wiki-format.md §3, §4, §7).

Rendering only decides wording: which page says what was decided by the plan (`bench.generate`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence

from bench import vocabulary as vocab
from bench.catalog import DATASET, ORGANIZATION, PERSON, PRODUCT, Catalog, Concept, Entity, Source
from bench.prose import Writer

DOMAIN_TAGS = ("llm-infra", "reliability", "networking", "storage", "ml-systems", "aiops")
MAX_LINKS = 8
MAX_LISTED_PRODUCTS = 30
MAX_OBSERVATIONS = 6


class Raw(str):
    """A frontmatter value written without quotes (dates, enums, date tags)."""


def frontmatter(fields: Iterable[tuple[str, object]]) -> str:
    lines = ["---"]
    for key, value in fields:
        if value is None:
            continue
        if isinstance(value, list):
            lines.append(f"{key}: []" if not value else f"{key}:")
            lines.extend(f"  - {_scalar(item)}" for item in value)
        else:
            lines.append(f"{key}: {_scalar(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def _scalar(value: object) -> str:
    return value if isinstance(value, Raw) else json.dumps(str(value), ensure_ascii=False)


def link(name: str) -> str:
    return f"[[{name}]]"


def relation_line(label: str, names: Sequence[str]) -> str | None:
    return f"- {label}: " + " / ".join(link(name) for name in names[:MAX_LINKS]) if names else None


def relations(lines: Iterable[str | None]) -> str:
    kept = [line for line in lines if line]
    return "## 関連\n\n" + "\n".join(kept) + "\n" if kept else ""


def topic_phrase(source: Source) -> str:
    """The English title without the product prefix (``Adaptive Failure Detection for GPU Clusters``)."""
    return source.title.split(" - ", 1)[1] if source.product is not None else source.title


def japanese_gloss(source: Source) -> str:
    topic = source.topic
    return f"{topic.domain[1]}における{topic.noun[1]}{topic.task[1]}"


def claim_sentence(source: Source) -> str:
    claim = source.claim
    return f"{claim.a}によって{claim.b}の{claim.c}が{claim.number}%{vocab.CLAIM_VERBS[claim.verb][0]}。"


def deployment_sentence(product: Entity) -> str:
    """The planted deployment fact, as the product's page and its paper state it."""
    deployment, org = product.deployment, product.org
    if deployment is None or org is None:
        return ""
    return (
        f"{product.title}は{link(org.title)}の{deployment.team}({deployment.team_en})が"
        f"{deployment.gpus} GPU の本番クラスタで運用している。"
    )


def role_of(entity: Entity, rng: random.Random) -> str:
    concept = entity.concept.title if entity.concept else _first_concept(entity)
    if entity.kind == PRODUCT and entity.org is not None:
        return f"{entity.org.title}が開発した{concept}のための{entity.kind_label}"
    if entity.kind == PERSON:
        where = f"{entity.org.title}の研究者" if entity.org else "研究者"
        return f"{where}。{concept}を研究する"
    if entity.kind == DATASET:
        return f"{concept}の評価に使われるデータセット"
    if entity.company:
        return f"{rng.choice(vocab.TITLE_DOMAINS)[1]}向けの基盤を手がけるテクノロジー企業"
    return f"{concept}などを研究する研究機関"


def _first_concept(entity: Entity) -> str:
    for source in entity.sources:
        if source.concepts:
            return source.concepts[0].title
    return "分散システム"


def entity_page(entity: Entity, writer: Writer, rng: random.Random) -> str:
    sources = entity.sources
    tier = "full" if len(sources) > 1 or entity.products else "stub"
    created = sources[0].created if sources else None
    role = role_of(entity, rng)
    head = frontmatter(
        [
            ("address", Raw(entity.address)),
            ("type", Raw("entity")),
            ("title", entity.title),
            ("date", Raw(f"{created} {sources[0].time}") if created else None),
            ("created", Raw(str(created)) if created else None),
            ("updated", Raw(str(sources[-1].created)) if created else None),
            ("aliases", list(entity.aliases)),
            ("tags", _tags(sources, "entity", rng)),
            ("status", Raw("developing" if tier == "full" else "seed")),
            ("entity_type", Raw(entity.kind)),
            ("entity_tier", Raw(tier)),
            ("role", role),
            ("first_mentioned", link(sources[0].stem) if sources else None),
            ("sources", [link(source.stem) for source in sources[:MAX_LINKS]]),
        ]
    )
    neighbours = _neighbours(entity)
    body = [f"# {entity.title}\n"]
    facts = _product_facts(entity)
    if tier == "stub":
        body.append(f"{role}。{facts}{writer.sentences(1, neighbours)}\n")
    else:
        count = 3 + min(len(sources), 6)
        body.append(f"## 概要\n\n{role}。{facts}{writer.sentences(count, neighbours)}\n")
        if entity.products:
            listed = entity.products[:MAX_LISTED_PRODUCTS]
            body.append(
                "## 開発したシステム\n\n"
                + "\n".join(
                    f"- {link(p.title)} — {p.concept.title if p.concept else ''}のための{p.kind_label}"
                    for p in listed
                )
                + "\n"
            )
        body.append(
            "## 関連ソース\n\n"
            + "\n".join(
                f"- {link(s.stem)} — {japanese_gloss(s)}の{rng.choice(vocab.SUMMARY_PHRASES)}"
                for s in sources[:10]
            )
            + "\n"
        )
    if entity.deployment is not None:
        body.append(f"## 運用\n\n{deployment_sentence(entity)}\n")
    body.append(relations(_entity_relations(entity)))
    return head + "\n" + "\n".join(part for part in body if part)


def _product_facts(entity: Entity) -> str:
    if entity.kind != PRODUCT or entity.org is None or entity.intro is None:
        return ""
    concept = entity.concept.title if entity.concept else "分散システム"
    return (
        f"{entity.title}は{link(entity.org.title)}が開発した{concept}のための{entity.kind_label}である。"
        f"論文「{topic_phrase(entity.intro)}」({link(entity.intro.stem)})で提案された。"
    )


def _neighbours(entity: Entity) -> list[str]:
    names = [entity.title]
    if entity.org is not None:
        names.append(entity.org.title)
    for source in entity.sources[:4]:
        names.extend(e.title for e in source.orgs + source.mentions if e is not entity)
    return names


def _entity_relations(entity: Entity) -> list[str | None]:
    sources = [s.stem for s in entity.sources]
    concepts = _unique(c.title for s in entity.sources for c in s.concepts)
    if entity.kind == ORGANIZATION:
        return [
            relation_line("ソース", sources),
            relation_line("関連プロダクト", [p.title for p in entity.products]),
            relation_line("関連人物", [p.title for p in entity.members]),
            relation_line("概念", concepts[:5]),
        ]
    if entity.kind == PERSON:
        coauthors = _unique(p.title for s in entity.sources for p in s.persons if p is not entity)
        return [
            relation_line("ソース", sources),
            relation_line("関連組織", [entity.org.title] if entity.org else []),
            relation_line("関連人物", coauthors[:5]),
        ]
    if entity.kind == PRODUCT:
        others = _unique(
            e.title for s in entity.sources for e in s.mentions + _products(s) if e is not entity
        )
        return [
            relation_line("ソース", sources),
            relation_line("関連組織", [entity.org.title] if entity.org else []),
            relation_line("関連プロダクト", others[:3]),
            relation_line("概念", [entity.concept.title] if entity.concept else concepts[:1]),
        ]
    return [relation_line("ソース", sources), relation_line("概念", concepts[:3])]


def _products(source: Source) -> list[Entity]:
    return [source.product] if source.product is not None else []


def source_page(source: Source, writer: Writer, rng: random.Random) -> str:
    people = source.persons
    first_author = people[0].title.split(" (")[0].split()[-1] if people else "Anonymous"
    arxiv_id = f"{source.year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(0, 99999):05d}"
    head = frontmatter(
        [
            ("address", Raw(source.address)),
            ("type", Raw("source")),
            ("title", source.title),
            ("date", Raw(f"{source.created} {source.time}")),
            ("created", Raw(str(source.created))),
            ("updated", Raw(str(source.created))),
            ("aliases", [f"{first_author}+, {source.venue}{source.year}"]),
            ("tags", _tags([source], "source", rng)),
            ("status", Raw("developing")),
            ("sources", [f"[[.raw/papers/arxiv-{arxiv_id}.pdf]]"]),
            ("source_type", Raw("paper")),
            ("author", f"{people[0].title} ほか" if people else "不明"),
            ("date_published", Raw(f"{source.year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")),
            ("url", f"https://arxiv.org/abs/{arxiv_id}"),
            ("arxiv_id", arxiv_id),
            ("confidence", Raw(rng.choice(("high", "medium", "low")))),
            ("key_claims", [claim_sentence(source)]),
        ]
    )
    names = [e.title for e in source.orgs + source.persons[:1] + _products(source) + source.mentions]
    concepts = [c.title for c in source.concepts]
    gloss = japanese_gloss(source)
    method = ""
    if source.product is not None and source.product.org is not None:
        product = source.product
        method = (
            f"本論文は{link(product.title)}を提案する。{product.title}は{link(product.org.title)}が開発した"
            f"{product.concept.title if product.concept else gloss}のための{product.kind_label}である。"
            + deployment_sentence(product)
        )
    body = [
        f"# {source.title}\n",
        f"> [!abstract] 概要(abstract の日本語訳)\n> {gloss}を対象とする。{writer.sentences(2, names)}\n",
        "## 論文情報\n\n"
        f"- 著者: {', '.join(link(p.title) for p in people)} ほか\n"
        f"- 所属: {' / '.join(link(o.title) for o in source.orgs)}\n"
        f"- 会議: {source.venue} {source.year}\n",
        f"## 概要\n\n{gloss}を扱う。{writer.sentences(3, names + concepts)}\n",
        f"## 提案手法\n\n{method}{writer.sentences(3, names)}\n",
        f"## 実験結果\n\n{claim_sentence(source)}{writer.sentences(3, names)}\n",
        f"## 考察\n\n{writer.sentences(2, concepts)}\n",
        f"## 強み / 弱点・課題\n\n- {writer.sentences(1, names)}\n- {writer.sentences(1)}\n",
        relations(
            [
                relation_line("関連組織", [o.title for o in source.orgs]),
                relation_line("関連人物", [p.title for p in people]),
                relation_line("関連プロダクト", [e.title for e in _products(source) + source.mentions]),
                relation_line("概念", concepts),
            ]
        ),
    ]
    return head + "\n" + "\n".join(body)


def concept_page(concept: Concept, writer: Writer, rng: random.Random) -> str:
    sources = concept.sources
    created = sources[0].created if sources else None
    related = _unique(c.title for s in sources for c in s.concepts if c is not concept)
    entities = _unique(e.title for s in sources for e in s.orgs + _products(s))
    head = frontmatter(
        [
            ("address", Raw(concept.address)),
            ("type", Raw("concept")),
            ("title", concept.title),
            ("date", Raw(f"{created} {sources[0].time}") if created else None),
            ("created", Raw(str(created)) if created else None),
            ("updated", Raw(str(sources[-1].created)) if created else None),
            ("aliases", [concept.english] if concept.english else []),
            ("tags", _tags(sources, "concept", rng)),
            ("status", Raw("developing" if len(sources) > 1 else "seed")),
            ("complexity", Raw(rng.choice(("basic", "intermediate", "advanced")))),
            ("domain", rng.choice(vocab.TITLE_DOMAINS)[1]),
            ("sources", [link(s.stem) for s in sources[:MAX_LINKS]]),
        ]
    )
    english = f"(英: {concept.english})" if concept.english else ""
    cite = f"(Source: {link(sources[0].stem)})" if sources else ""
    about = f"{concept.title}{english}は、{concept.definition}を扱う概念である。"
    definition = f"{about}{writer.sentences(1)}{cite}"
    body = [f"# {concept.title}\n", f"## 定義\n\n{definition}\n"]
    for index in range(1 + (len(sources) > 2)):
        evidence = sources[index] if index < len(sources) else None
        claim = f"- **{writer.sentences(1, related[:3])}**\n"
        if evidence is not None:
            claim += f"  - 根拠: {link(evidence.stem)} — {japanese_gloss(evidence)}\n"
        body.append(f"## {writer.phrase()}\n\n{writer.sentences(2, entities[:4])}\n\n{claim}")
    body.append(f"## 未解決の問い\n\n- {writer.phrase()}はどこまで{rng.choice(vocab.SURU_VERBS)}できるか。\n")
    observations = "\n".join(
        f"- [実験結果] {claim_sentence(s)}(Source: {link(s.stem)})" for s in concept.observations
    )
    body.append("## 未編纂の観察\n\n" + (observations + "\n" if observations else ""))
    body.append(
        relations(
            [
                relation_line("ソース", [s.stem for s in sources]),
                relation_line("概念", related[:5]),
                relation_line("エンティティ", entities[:5]),
            ]
        )
    )
    if sources:
        body.append(f"## 出典\n\n- {link(sources[0].stem)}(定義)\n")
    return head + "\n" + "\n".join(part for part in body if part)


def log_page(catalog: Catalog) -> str:
    """wiki/log.md: one ingest entry per source, newest first (§7)."""
    first_seen: dict[int, list[str]] = {}
    for page in [*catalog.entities, *catalog.concepts]:
        if page.sources:
            first_seen.setdefault(id(page.sources[0]), []).append(page.title)
    entries = []
    for source in reversed(catalog.sources):
        created = first_seen.get(id(source), [])
        updated = [e.title for e in source.orgs if e.title not in created]
        lines = [
            f"## [{source.created}] ingest-paper | {source.title}",
            f"- Source: `.raw/papers/{source.address}.pdf`",
            f"- Summary: {link(source.stem)}",
        ]
        if created:
            lines.append("- Pages created: " + ", ".join(link(name) for name in created))
        if updated:
            lines.append("- Pages updated: " + ", ".join(link(name) for name in updated))
        lines.append(f"- Key insight: {claim_sentence(source)}")
        entries.append("\n".join(lines) + "\n")
    return "\n".join(entries)


def index_page(catalog: Catalog) -> str:
    """wiki/index.md: a catalog page (not knowledge); lookups must never return it."""
    lines = ["# Index", "", "## Sources", ""]
    lines.extend(f"- {link(s.stem)}: {japanese_gloss(s)}" for s in catalog.sources)
    lines.extend(["", "## Entities", ""])
    lines.extend(f"- {link(e.title)}" for e in catalog.entities)
    lines.extend(["", "## Concepts", ""])
    lines.extend(f"- {link(c.title)}" for c in catalog.concepts)
    return "\n".join(lines) + "\n"


def _tags(sources: Sequence[Source], kind: str, rng: random.Random) -> list[str]:
    dates = _unique(Raw(s.created.strftime("%Y/%m/%d")) for s in sources[:3])
    tags: list[str] = [dates[0]] if dates else []
    tags += [Raw(kind), Raw(rng.choice(DOMAIN_TAGS)), *dates[1:]]
    return tags


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
