"""The plain values that cross from the domain (`index/`) to the edges (`bot/`).

Everything here is a frozen dataclass of strings, numbers and tuples (and, for what the edge
hands in, sets and mappings of them): no whoosh object, no Slack payload. Paths are
vault-relative POSIX paths such as ``wiki/entities/ByteDance.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Link:
    """One wikilink as written: ``[[target#fragment|display]]`` with the fragment dropped."""

    target: str
    display: str | None = None


@dataclass(frozen=True, slots=True)
class Relation:
    """One typed line of a ``## 関連`` section (or an equivalent source of relations)."""

    label: str
    links: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    text: str


@dataclass(frozen=True, slots=True)
class Page:
    """One knowledge (or companion) page as read from the vault."""

    path: str
    key: str
    type: str
    title: str
    aliases: tuple[str, ...] = ()
    summary: str = ""
    role: str | None = None
    tier: str = "full"
    created: str | None = None
    date: str | None = None
    ingested: str | None = None
    added: str | None = None
    year: int | None = None
    venue: str | None = None
    source_type: str | None = None
    entity_type: str | None = None
    publish: bool = True
    relations: tuple[Relation, ...] = ()
    links: tuple[Link, ...] = ()
    sections: tuple[Section, ...] = ()
    """The text, for indexing; pages read back from the index carry none (the store holds it)."""
    blurb: str | None = None
    """For brief pages: the Slack-ready ``## 紹介文`` text."""
    companion_of: str | None = None
    """For ask/brief pages: the path of the source page they accompany."""

    @property
    def stem(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return name.rsplit(".", 1)[0] if "." in name else name


@dataclass(frozen=True, slots=True)
class PageRef:
    """A page as a link target: resolved (``path`` set) or a name that has no page yet."""

    name: str
    path: str | None = None
    type: str | None = None
    url: str | None = None
    year: int | None = None

    @property
    def resolved(self) -> bool:
        return self.path is not None


@dataclass(frozen=True, slots=True)
class Candidate:
    path: str
    title: str
    type: str
    score: float
    url: str | None = None
    matched_name: str | None = None


@dataclass(frozen=True, slots=True)
class Unresolved:
    name: str
    mentioned_in: tuple[PageRef, ...]


@dataclass(frozen=True, slots=True)
class Lookup:
    """The answer to an entity lookup: a match, ranked candidates, or an unresolved name."""

    query: str
    match: Candidate | None
    candidates: tuple[Candidate, ...]
    unresolved: Unresolved | None = None
    ambiguous: bool = False
    """No single match: several pages are known by this name (or this spelling) equally well."""


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    title: str
    type: str
    score: float
    snippet: str
    section: str | None = None
    url: str | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    entities: tuple[Candidate, ...] = ()
    """Pages whose names occur in the question (the question is 'about' them)."""
    too_long: bool = False
    """The query is longer than the domain reads (`index.asking.question.MAX_QUERY_CHARS`): nothing was
    searched."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage, as a language model would be given it: the page, the section, the text."""

    path: str
    title: str
    type: str
    section: str | None
    text: str
    url: str | None = None
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """A sentence of the wiki that answers the question, with where it stands."""

    text: str
    path: str
    title: str
    section: str | None
    url: str | None
    terms: tuple[str, ...]
    """The question's words it contains, as written in it."""
    marks: tuple[tuple[int, int], ...]
    """Spans of ``text`` to emphasise (start, end): the question's words and the value asked for."""
    confidence: float
    """0–1: the share of the question it covers, halved when it lacks what the question asks for."""


@dataclass(frozen=True, slots=True)
class Fact:
    """An answer read from the wiki's typed relations.

    ``targets`` are what ``subject``'s ``label`` line links to (Minder → 開発元 → ByteDance), or,
    when ``inverse``, the pages whose ``label`` line links to ``subject`` (the pages developed by
    ByteDance).
    """

    subject: PageRef
    label: str
    targets: tuple[PageRef, ...]
    inverse: bool = False


ANSWERED, RELATION, NOT_FOUND = "answered", "relation", "not_found"
"""What an `Answer` is (`Answer.status`)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a free question: the sentences (or relation) that answer it, or none.

    ``confident`` is False when no sentence covers enough of the question: the edge must then say
    so and show ``pages`` as the closest, never dress them up as an answer.
    """

    question: str
    sentences: tuple[AnswerSentence, ...]
    confident: bool
    subject: str | None
    """The path of the page the answer is about (the page the question names), if any."""
    passages: tuple[Passage, ...]
    """The retrieved passages, best first: each page's passage holding its best sentence."""
    pages: tuple[Hit, ...]
    """The pages shown, best first, each with its best sentence as snippet."""
    fact: Fact | None = None
    shape: str = "open"
    language: str = "en"
    """``ja`` or ``en``: the language the question was asked in."""
    too_long: bool = False
    confidence: float = 0.0
    """0–1: how surely the answer answers the question (0 when nothing does)."""
    unanswered: tuple[str, ...] = ()
    """The parts of a question of several (あと…, *…, and which …?) that no sentence answers, when
    the others are answered: the edge says the wiki does not say them."""

    @property
    def status(self) -> str:
        """``relation`` (read from the wiki's typed relations), ``answered`` (sentences of the
        wiki answer it) or ``not_found`` (the wiki does not say)."""
        if self.confident and self.fact is not None:
            return RELATION
        if self.confident and self.sentences:
            return ANSWERED
        return NOT_FOUND


@dataclass(frozen=True, slots=True)
class RelationGroup:
    label: str
    refs: tuple[PageRef, ...]


@dataclass(frozen=True, slots=True)
class Card:
    """What the wiki knows about one page, ready for any edge to render."""

    path: str
    title: str
    type: str
    summary: str
    groups: tuple[RelationGroup, ...]
    backlinks: tuple[PageRef, ...]
    aliases: tuple[str, ...] = ()
    tier: str = "full"
    url: str | None = None
    venue: str | None = None
    year: int | None = None
    entity_type: str | None = None


@dataclass(frozen=True, slots=True)
class DigestItem:
    path: str
    title: str
    venue: str | None
    year: int | None
    summary: str
    cited_by: tuple[PageRef, ...]
    source_type: str | None = None
    url: str | None = None
    date: str | None = None


@dataclass(frozen=True, slots=True)
class NewPage:
    """A knowledge page new on the digest's day, and the signal that said so: ``log``,
    ``frontmatter:<field>``, ``git`` or ``first_seen`` (docs/digest.md)."""

    path: str
    title: str
    type: str
    new_by: str
    folder: str
    """Its top folder (``wiki/sources``), as the summary of a big day counts them."""
    url: str | None = None


@dataclass(frozen=True, slots=True)
class DigestSummary:
    """A day with more new items than ``DIGEST_MAX_ITEMS``: counted, not listed."""

    new: int
    by_type: tuple[tuple[str, int], ...]
    """(the group a digest lists an item under, how many), most first."""
    by_folder: tuple[tuple[str, int], ...]
    most_linked: tuple[PageRef, ...]
    """The ten new items most pages link to."""


@dataclass(frozen=True, slots=True)
class Digest:
    date: str
    items: tuple[DigestItem, ...]
    """The new sources (what the digest announces when the wiki has source pages)."""
    pages: tuple[NewPage, ...] = ()
    """Every new knowledge page of the day, sources included."""
    announces: str = "source"
    """``source``: the digest lists `items`; ``page``: a wiki without source pages, `pages`."""
    updated: tuple[PageRef, ...] = ()
    """Pages the log lists as updated that day (the first few; a wiki without source pages)."""
    updated_total: int = 0
    summary: DigestSummary | None = None

    @property
    def count(self) -> int:
        """How many new items the digest announces."""
        return len(self.items) if self.announces == "source" else len(self.pages)


@dataclass(frozen=True, slots=True)
class GitAdditions:
    """When the files of a vault kept in git were added, as the edge read them from git (paths
    relative to the vault): the digest's third signal."""

    added: dict[str, str]
    """Path → when the first-parent commit that added it was made (ISO 8601); a file renamed
    keeps the time it was first added under its old name."""
    tracked: frozenset[str]
    known_since: str | None
    """Every tracked file not in ``added`` existed at this time (ISO 8601): where the history read
    begins, or a shallow clone's boundary, whose own additions are unknown."""


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A file skipped (it cannot be a page) or indexed despite a problem, and what was wrong."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class FolderCount:
    """One top folder of a vault: how many of its notes are pages, how many are not and why."""

    folder: str
    """``wiki/sources`` (everything under it, at any depth) in a vault with ``wiki/``; the first
    folder (``papers``, ``People``) elsewhere; ``.`` for files in the vault's root."""
    indexed: int
    left_out: tuple[tuple[str, int], ...] = ()
    """(reason, files) for the Markdown files (and text attachments) that are not pages, most first."""


@dataclass(frozen=True, slots=True)
class VaultSurvey:
    """What a vault holds and what sakuin reads of it (``sakuin index``, ``sakuin doctor``)."""

    layout: str
    """``wiki`` (a ``wiki/`` folder), ``plain`` (Markdown notes anywhere) or ``exports`` (``.txt`` only)."""
    folders: tuple[FolderCount, ...]
    warning: str | None = None
    """Set when most notes are left out (or there are none); names the folders that lost them."""


@dataclass(frozen=True, slots=True)
class IndexReport:
    pages: int
    added: int
    changed: int
    removed: int
    skipped: tuple[FileProblem, ...]
    seconds: float
    rebuilt: bool = False
    warnings: tuple[FileProblem, ...] = ()
    """Pages indexed despite a problem (bad bytes, unreadable frontmatter…)."""
    survey: VaultSurvey | None = None
    """Per top folder, the notes indexed and those left out with their reasons."""
    found: tuple[FileProblem, ...] = ()
    """The problems (skipped or warned) of the files this update read: a file is read once per
    change of it, so what logs these logs each problem once, not at every rescan."""
    removal_warning: str | None = None
    """Set when this update removed most of the vault's files (`IndexState.removal_warning`)."""
    changed_paths: tuple[str, ...] = ()
    """The files an update (not a build) added or changed, vault-relative."""
    removed_paths: tuple[str, ...] = ()
    """The files an update (not a build) removed."""


@dataclass(frozen=True, slots=True)
class IndexState:
    status: str
    """``empty`` (no index yet), ``building``, ``ready`` or ``error``."""
    pages: int = 0
    updated_at: str | None = None
    last_error: str | None = None
    warnings: tuple[FileProblem, ...] = field(default=())
    updating: bool = False
    """An update of the index is under way: what it serves may be a moment behind the vault."""
    removal_warning: str | None = None
    """Set when an update removed most of the vault's files (a force-push of an empty tree?): the
    index mirrors the vault, and says so until an update changes the vault again."""
