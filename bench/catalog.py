"""What the generator decided before writing any file: the vault as data.

The query sets and their ground truth are derived from this catalog, never from the rendered text, so the
expected answers follow from how the vault was built rather than from any search engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

PERSON, ORGANIZATION, PRODUCT, DATASET = "person", "organization", "product", "dataset"


@dataclass(eq=False)
class Concept:
    title: str
    english: str
    address: str = ""
    definition: str = ""
    """What the concept is about (``解釈性の収束``): its page's definition sentence states it."""
    sources: list[Source] = field(default_factory=list)
    observations: list[Source] = field(default_factory=list)
    """Sources whose planted claim was copied into this concept's inbox (``## 未編纂の観察``)."""

    @property
    def path(self) -> str:
        return f"wiki/concepts/{self.title}.md"


@dataclass(eq=False)
class Entity:
    title: str
    kind: str
    aliases: list[str] = field(default_factory=list)
    address: str = ""
    company: bool = False
    """An organisation that is a company (so a legal suffix such as ``Inc.`` names it too)."""
    org: Entity | None = None
    """A person's affiliation, a product's developer."""
    concept: Concept | None = None
    """What a product is for."""
    kind_label: str = ""
    sources: list[Source] = field(default_factory=list)
    products: list[Entity] = field(default_factory=list)
    """For organisations: the products they developed."""
    members: list[Entity] = field(default_factory=list)
    intro: Source | None = None
    """For products: the source that introduced them."""
    developer_listed: bool = False
    """For products: whether the developer's page names the product as its own (so it holds the answer)."""
    deployment: Deployment | None = None
    """For products: who runs it in production and on how many GPUs (stated by its page and its paper)."""

    @property
    def path(self) -> str:
        return f"wiki/entities/{self.title}.md"


@dataclass(frozen=True)
class Deployment:
    """A planted fact: ``{product}は{org}の{team}({team_en})が{gpus} GPU の本番クラスタで運用している``."""

    team: str
    team_en: str
    gpus: int


@dataclass(frozen=True)
class Claim:
    """A planted, checkable statement: ``{a}によって{b}の{c}が{number}%{verb}``."""

    a: str
    b: str
    c: str
    number: int
    verb: int
    """Index into ``vocabulary.CLAIM_VERBS``."""


@dataclass(frozen=True)
class Topic:
    """The four parts of a source's English title, unique per source."""

    adjective: str
    noun: tuple[str, str]
    task: tuple[str, str]
    domain: tuple[str, str]
    """Each pair is (English, Japanese) except the adjective."""


@dataclass(eq=False)
class Source:
    title: str
    year: int
    venue: str
    created: date
    time: str
    topic: Topic
    claim: Claim
    address: str = ""
    product: Entity | None = None
    orgs: list[Entity] = field(default_factory=list)
    persons: list[Entity] = field(default_factory=list)
    mentions: list[Entity] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return f"@{self.year}__{self.venue}__{self.title}"

    @property
    def path(self) -> str:
        return f"wiki/sources/{self.stem}.md"


@dataclass
class Catalog:
    seed: int
    entities: list[Entity]
    concepts: list[Concept]
    sources: list[Source]

    @property
    def pages(self) -> int:
        return len(self.entities) + len(self.concepts) + len(self.sources)
