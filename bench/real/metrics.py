"""The figures of the real-wiki benchmark, from measured rows: pure functions, no index.

Definitions (all over the questions of one wiki, or one language of it):

- **first screen** / **anywhere**: of the answerable questions, the share whose answer words are all
  in the reply's first 400 visible characters / in its whole visible text (`bench.answer_keys`).
- **hit@1**, **hit@3**, **MRR**: of the answerable questions that name pages, the share whose first
  page stating the answer is ranked 1st / in the top 3, and the mean of 1/rank (0 when not ranked).
  sakuin's ranking is its answer's pages in order (`Answer.pages`: the pages retrieved for the answer,
  best first, then the pages the question names); FTS5's is its bm25 ranking for the question's text;
  both cut at `DEPTH`.
- **abstention**: a question is abstained when the reply says the wiki does not answer it (status
  ``not_found``). precision = abstained and unanswerable / abstained; recall = abstained and
  unanswerable / unanswerable; false abstention = abstained and answerable / answerable.
- **digest**: per day, the digest's pages against the pages whose own frontmatter date field says
  that day; precision and recall per day and over all days (summed counts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bench.answer_keys import first_rank
from bench.real.questions import LANGUAGES, Question

TOP = 3
"""hit@3."""
DEPTH = 5
"""Pages of a ranking that count (`index.asking.answer.ANSWER_PAGES`): a page ranked lower counts as
not found."""


@dataclass(frozen=True)
class Measured:
    """One question as the two engines answered it."""

    question: Question
    first_screen: bool
    anywhere: bool
    abstained: bool
    status: str
    """``answered``, ``relation`` or ``not_found``: from the reply's metadata, or read off its answer."""
    ranking: tuple[str, ...]
    """sakuin's ranked pages (its answer's pages, best first)."""
    fts5_ranking: tuple[str, ...]
    screen: str = ""
    """The first screen as matched (normalised): what a miss shows."""
    cited: tuple[str, ...] = ()
    confidence: float | None = None
    status_from: str = "answer"
    """``metadata`` when the reply carried the answer metadata, else ``answer``."""
    ms: float = 0.0


def share(count: int, total: int) -> dict:
    return {"count": count, "of": total, "rate": count / total if total else None}


def engine_figures(rows: Sequence[Measured], ranking: Callable[[Measured], Sequence[str]]) -> dict:
    """hit@1, hit@3 and MRR of one engine's ranking over the answerable questions that name pages."""
    ranked = [row for row in rows if row.question.answerable and row.question.pages]
    ranks = [first_rank(ranking(row)[:DEPTH], row.question.pages) for row in ranked]
    return {
        "hit1": share(sum(rank == 1 for rank in ranks), len(ranks)),
        "hit3": share(sum(rank is not None and rank <= TOP for rank in ranks), len(ranks)),
        "mrr": sum(1 / rank for rank in ranks if rank) / len(ranks) if ranks else None,
    }


def sakuin_figures(rows: Sequence[Measured]) -> dict:
    answerable = [row for row in rows if row.question.answerable]
    unanswerable = [row for row in rows if not row.question.answerable]
    abstained = [row for row in rows if row.abstained]
    right = sum(not row.question.answerable for row in abstained)
    return {
        "questions": len(rows),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "first_screen": share(sum(row.first_screen for row in answerable), len(answerable)),
        "anywhere": share(sum(row.anywhere for row in answerable), len(answerable)),
        **engine_figures(rows, lambda row: row.ranking),
        "abstention_precision": share(right, len(abstained)),
        "abstention_recall": share(right, len(unanswerable)),
        "false_abstention": share(len(abstained) - right, len(answerable)),
    }


def fts5_figures(rows: Sequence[Measured]) -> dict:
    return engine_figures(rows, lambda row: row.fts5_ranking)


def by_language(rows: Sequence[Measured]) -> dict[str, list[Measured]]:
    """The rows of each question language, the known languages first, in their order."""
    found = list(dict.fromkeys(row.question.lang for row in rows))
    order = [lang for lang in LANGUAGES if lang in found] + [lang for lang in found if lang not in LANGUAGES]
    return {lang: [row for row in rows if row.question.lang == lang] for lang in order}


def wiki_figures(rows: Sequence[Measured]) -> dict:
    """Both engines over all questions, and per question language."""
    return {
        "all": {"sakuin": sakuin_figures(rows), "fts5": fts5_figures(rows)},
        "by_lang": {
            lang: {"sakuin": sakuin_figures(group), "fts5": fts5_figures(group)}
            for lang, group in by_language(rows).items()
        },
    }


def misses(rows: Iterable[Measured]) -> list[Measured]:
    """Answerable questions whose answer words are not all on the first screen."""
    return [row for row in rows if row.question.answerable and not row.first_screen]


def wrong_answers(rows: Iterable[Measured]) -> list[Measured]:
    """Unanswerable questions sakuin answered as if the wiki said it."""
    return [row for row in rows if not row.question.answerable and not row.abstained]


def digest_scores(
    expected: Mapping[str, set[str]], digested: Mapping[str, Sequence[str]], sources: set[str]
) -> dict:
    """Per day (every day of ``expected`` or ``digested``), the digest's pages against the pages dated
    that day: all of them, and the source pages among them (today's digest lists only sources)."""
    days = []
    totals = {"expected": 0, "expected_sources": 0, "digested": 0, "right": 0, "right_sources": 0}
    for day in sorted(set(expected) | set(digested)):
        wanted = expected.get(day, set())
        wanted_sources = wanted & sources
        got = set(digested.get(day, ()))
        counts = {
            "expected": len(wanted),
            "expected_sources": len(wanted_sources),
            "digested": len(got),
            "right": len(got & wanted),
            "right_sources": len(got & wanted_sources),
        }
        for key, value in counts.items():
            totals[key] += value
        days.append({"day": day, **counts, **_digest_rates(counts)})
    return {"days": days, "all_days": {**totals, **_digest_rates(totals)}}


def _digest_rates(counts: Mapping[str, int]) -> dict:
    def rate(count: int, total: int) -> float | None:
        return count / total if total else None

    return {
        "precision": rate(counts["right"], counts["digested"]),
        "recall": rate(counts["right"], counts["expected"]),
        "recall_sources": rate(counts["right_sources"], counts["expected_sources"]),
    }
