"""The domain's front door: everything the edges (`bot/`) use of it.

`Wiki` is the one object an edge is handed; what it returns are the frozen values of
`index/model.py`. Modules inside `index/` import each other directly, never through here
(`tests/test_boundaries.py`).
"""

from index.analysis import fold
from index.asking.question import MAX_QUERY_CHARS
from index.asking.vocabulary import asks
from index.generation import current_generation
from index.model import (
    ANSWERED,
    RELATION,
    Answer,
    AnswerSentence,
    Candidate,
    Card,
    Digest,
    DigestItem,
    DigestSummary,
    Fact,
    FileProblem,
    FolderCount,
    GitAdditions,
    Hit,
    IndexReport,
    IndexState,
    Lookup,
    NewPage,
    PageRef,
    Passage,
    SearchResult,
    Section,
    Unresolved,
    VaultSurvey,
)
from index.page_changes import PageChange, PageSnapshot, page_change, snapshot_of
from index.reading.format import CONCEPT, ENTITY, RELATION_LABELS_EN
from index.reading.prose import masked, shorten
from index.reading.vault import PAGE_SUFFIXES
from index.web import path_token
from index.wiki import IndexNotReady, Wiki

__all__ = [
    "ANSWERED",
    "CONCEPT",
    "ENTITY",
    "MAX_QUERY_CHARS",
    "PAGE_SUFFIXES",
    "RELATION",
    "RELATION_LABELS_EN",
    "Answer",
    "AnswerSentence",
    "Candidate",
    "Card",
    "Digest",
    "DigestItem",
    "DigestSummary",
    "Fact",
    "FileProblem",
    "FolderCount",
    "GitAdditions",
    "Hit",
    "IndexNotReady",
    "IndexReport",
    "IndexState",
    "Lookup",
    "NewPage",
    "PageChange",
    "PageRef",
    "PageSnapshot",
    "Passage",
    "SearchResult",
    "Section",
    "Unresolved",
    "VaultSurvey",
    "Wiki",
    "asks",
    "current_generation",
    "fold",
    "masked",
    "page_change",
    "path_token",
    "shorten",
    "snapshot_of",
]
