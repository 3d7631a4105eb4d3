"""The wiki format's vocabulary, in one place (wiki-format §1–§5).

Folder names and the page types they imply, the type sets the bot treats differently, the names
of catalogs and guides, the headings and relation labels the parser knows, and the grammar of a
source's file name. A new heading or folder is a change to this file only.
"""

from __future__ import annotations

import re

# -- page types ------------------------------------------------------------------------------

SOURCE, ENTITY, CONCEPT = "source", "entity", "concept"
NOTE = "note"
"""The type of a page that says nothing about its kind (no ``type:``, no telling folder or shape)."""
QUESTION, SURVEY, THESIS = "question", "survey", "thesis"
SYNTHESIS_TYPES = frozenset({QUESTION, SURVEY, THESIS})
"""Pages that work a question out across sources: named after notes, before sources."""
ASK, BRIEF = "ask", "brief"
COMPANION_TYPES = frozenset({ASK, BRIEF})
"""Per-source Q&A logs and Slack blurbs: read for the digest, never answers themselves."""
WIKI_LOG = "wiki-log"
"""The type of the wiki's log read as a page (`index.reading.log_page`). It is no page of the vault
(not in the catalog's pages, not linked, not in a digest): its passages are searched apart from the
knowledge pages', and answer only a question about the wiki's upkeep that no page answers."""
SEARCHED_APART_TYPES = frozenset({WIKI_LOG})
"""Pages that are no knowledge but are searched, each type apart from the knowledge pages (a
passage's ``kind``, `index.store.values.Chunk`): asked for only when nothing else answers."""
NOT_KNOWLEDGE_TYPES = frozenset({"meta", "overview", "request"})
"""Pages that describe the wiki rather than its subject (a ``type: meta`` note outside ``meta/``;
a ``type: request``, a question asked of the wiki, wherever its inbox is)."""
CITING_TYPES = frozenset({ENTITY, CONCEPT})
"""The pages a digest lists as citing a new source."""

# -- folders ---------------------------------------------------------------------------------

WIKI_DIR = "wiki"
SOURCES_DIR = "sources"
FOLDER_TYPES = {
    "sources": SOURCE,
    "entities": ENTITY,
    "concepts": CONCEPT,
    "questions": QUESTION,
    "surveys": SURVEY,
    "comparisons": "comparison",
    "folds": "fold",
    "asks": ASK,
    "briefs": BRIEF,
}
"""A page's type when its frontmatter has none: from the first folder under ``wiki/``."""
LINK_ORDER = ("sources", "entities", "concepts", "questions", "surveys")
"""Where a bare ``[[Name]]`` is looked for first (§5), before the wiki's other folders."""
META_DIRS = frozenset({"meta"})
RAW_DIRS = frozenset({"raw"})
INBOX_DIRS = frozenset({"inbox"})
"""What the wiki was asked for (sakuin files questions there): work for its agents, not knowledge."""
"""Raw material inside ``wiki/`` (``.raw/`` at the root is a dot-folder and never read)."""
TOOLING_DIRS = frozenset({"node_modules", "scripts", "bin"})
CATALOG_NAMES = frozenset({"index.md", "log.md", "hot.md", "_index.md"})
GUIDE_NAMES = frozenset({"overview.md", "claude.md"})
"""Compared casefolded: ``CLAUDE.md`` is a guide for the agents that write the wiki."""
NAVIGATION_TARGETS = frozenset({"index", "log", "hot", "overview", "claude", "_index"})
"""Link targets that navigate the wiki (``[[index]]``) rather than name a page."""
LOG_NAME = re.compile(r"^log(?:[-_ ]?\d[\w-]*)?\.md$", re.IGNORECASE)
"""The wiki's logs: ``log.md``, and logs split by period (``log-2026.md``, ``log_2025-06.md``)."""
DATE_FIELDS = ("created", "ingested", "date", "added")
"""Frontmatter fields that say when a page was added, in the order the digest reads them."""
HAPPENED_TYPES = frozenset({"event", "events"})
"""Pages whose ``date:`` says when the thing happened, not when the page was written."""


def folder_type(folder: str) -> str:
    """The type a folder under ``wiki/`` gives its pages: a listed folder's type, else the folder's
    own name, casefolded (``channels``): predictable, and the team's word for what is in there."""
    name = folder.casefold()
    return FOLDER_TYPES.get(name, name)


# -- file names ------------------------------------------------------------------------------

SOURCE_NAME = re.compile(r"^@?(\d{4})__(.+?)__(.+?)(?: - ((?:Chapter|Appendix) .+))?$")
"""``@YYYY__VENUE__Title[ - Chapter N …]`` (the stem of a source page, §2)."""


def source_short_title(stem: str) -> str | None:
    """The name a source goes by: its title up to `` - `` (``MegaScale``), or None for other stems."""
    source = SOURCE_NAME.match(stem)
    return source.group(3).split(" - ", 1)[0] if source else None


# -- headings and labels ---------------------------------------------------------------------

RELATIONS_HEADING = "関連"
RELATED_SOURCES_HEADING = "関連ソース"
CITATIONS_HEADING = "出典"
OVERVIEW_HEADING = "概要"
DEFINITION_HEADING = "定義"
BLURB_HEADING = "紹介文"
INBOX_HEADING = "未編纂の観察"
LEGACY_HEADINGS = {"横断的知見": INBOX_HEADING}
"""Old names of a heading, read as the current one."""
RELATION_LABELS_EN = {
    "開発元": "developer",
    "関連組織": "related organisation",
    "共同研究先": "research partner",
    "所属": "affiliation",
    "ソース": "source",
    "関連プロダクト": "related product",
    "関連人物": "related person",
    "概念": "concept",
    "エンティティ": "entity",
    "関連": "related",
    "別名": "also known as",
}
"""The ``## 関連`` labels of the format (and 別名, a page's aliases) as an English answer says them:
``ByteDance — developer of Minder``. A label not listed is shown as the wiki writes it."""
PROPERTIES_HEADING = "Properties"
"""The section a page's frontmatter fields are read into (Obsidian calls them properties)."""
UNASKED_PROPERTIES = frozenset(
    {"type", "title", "aliases", "alias", "tags", "tag", "cssclasses", "cssclass", "publish", "address",
     "entity_tier", "key_claims", "role", "permalink", "draft", "generated", "confidence_score"}
)  # fmt: skip
"""Frontmatter fields nobody asks about as facts: they type or name the page (read elsewhere)."""
LINK_LIST_HEADINGS = frozenset({RELATIONS_HEADING, RELATED_SOURCES_HEADING, CITATIONS_HEADING})
"""Sections whose list items name other pages rather than say something about this one."""
ARCHIVE_CALLOUT = "編纂前の観察"
"""``> [!note]- 編纂前の観察 …``: observations already compiled away; skipped."""
SOURCE_LABEL = "ソース"
"""The relation label of a page's sources (``- ソース: [[@A]] / [[@B]]``)."""
CITATION_WORDS = ("Source", "出典", "根拠")
"""``(Source: [[@A]])`` and its Japanese forms: provenance notes inside prose."""
LINK_KEYS = ("related", "sources", "first_mentioned", "asks", "brief")
"""Frontmatter keys whose values hold links."""
