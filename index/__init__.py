"""The domain's front door: everything the edges (`bot/`) use of it.

`Wiki` is the one object an edge is handed; what it returns are the frozen values of
`index/model.py`. Modules inside `index/` import each other directly, never through here
(`tests/test_boundaries.py`).
"""

from index.asking.question import MAX_QUERY_CHARS
from index.generation import current_generation
from index.model import (
    Answer,
    AnswerSentence,
    Candidate,
    Card,
    Digest,
    DigestItem,
    Fact,
    FileProblem,
    FolderCount,
    Hit,
    IndexReport,
    IndexState,
    Lookup,
    PageRef,
    Passage,
    SearchResult,
    Unresolved,
    VaultSurvey,
)
from index.reading.format import CONCEPT, ENTITY
from index.reading.prose import shorten
from index.reading.vault import PAGE_SUFFIXES
from index.web import path_token
from index.wiki import IndexNotReady, Wiki

__all__ = [
    "CONCEPT",
    "ENTITY",
    "MAX_QUERY_CHARS",
    "PAGE_SUFFIXES",
    "Answer",
    "AnswerSentence",
    "Candidate",
    "Card",
    "Digest",
    "DigestItem",
    "Fact",
    "FileProblem",
    "FolderCount",
    "Hit",
    "IndexNotReady",
    "IndexReport",
    "IndexState",
    "Lookup",
    "PageRef",
    "Passage",
    "SearchResult",
    "Unresolved",
    "VaultSurvey",
    "Wiki",
    "current_generation",
    "path_token",
    "shorten",
]
