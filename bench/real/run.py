"""Running the real-wiki benchmark on one vault: build both indexes, ask every question, run the digest.

sakuin is driven through its own code: the index is built as ``sakuin index`` builds it
(`bench.engines.SakuinEngine`), each question's reply is composed as a mention's is
(`bot.conversation.conversations.compose`, then the controls the bot adds) and read as a person reads it
(`bot.blocks.visible`). FTS5 (`bench.fts5`) indexes exactly the pages sakuin indexes.

The status of a reply (answered, relation, not_found) is read from the message's answer metadata
(``{"event_type": "sakuin_answer", "event_payload": {"status", "confidence", "pages", "lang"}}``) when
the reply carries it, and otherwise from the domain's answer: ``confident`` False is ``not_found``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path

from bench.answer_keys import answered, normalise
from bench.engines import SakuinEngine
from bench.fts5 import Fts5Index
from bench.real.metrics import Measured, digest_scores, wiki_figures
from bench.real.questions import Question, QuestionFile, page_problems
from bot.blocks.reply import Reply
from bot.blocks.visible import first_screen, visible_text
from config.settings import Settings
from index.asking.answer import ANSWER_PAGES
from index.model import Answer, Digest
from index.reading.format import SOURCE
from index.reading.frontmatter import split_frontmatter
from index.wiki import Wiki

ANSWER_EVENT = "sakuin_answer"
STATUSES = ("answered", "relation", "not_found")
NOT_FOUND = "not_found"
DATE_FIELDS = ("created", "ingested", "date", "added")
"""The frontmatter fields that date a page, in the order issue 27 reads them: the first one set wins."""
BENCH_CHANNEL = "CBENCHREAL"
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_LOG_DAY = re.compile(r"^#{1,4}\s*\[?(\d{4}-\d{2}-\d{2})", re.MULTILINE)
_LOG_NAME = re.compile(r"^log\b.*\.md$", re.IGNORECASE)

DigestPages = Callable[[Digest], list[str]]


@dataclass(frozen=True)
class WikiRun:
    file: QuestionFile
    vault: Path
    pages: int
    build_s: float
    fts5_build_s: float
    problems: tuple[str, ...]
    rows: tuple[Measured, ...]
    digest: dict

    def figures(self) -> dict:
        return wiki_figures(self.rows)


def resolve_vault(folder: Path, inside: str) -> Path:
    """The vault root: ``folder``/``inside`` (the question file's ``vault:``) when that exists, else
    ``folder`` itself (given the vault root directly)."""
    if inside and (folder / inside).is_dir():
        return folder / inside
    return folder


def run_wiki(
    file: QuestionFile, vault: Path, work: Path, *, digest_pages: DigestPages | None = None
) -> WikiRun:
    """Build sakuin's index and FTS5's of ``vault`` under ``work``, then measure every question."""
    engine = SakuinEngine(vault, work / "index")
    started = time.perf_counter()
    engine.build()
    build_s = time.perf_counter() - started
    wiki, settings = engine.wiki, engine.settings
    catalog = wiki.live().catalog
    indexed = [page.path for page in catalog.pages.values()]
    searched = {*indexed, *catalog.log_pages}  # the log answers too, searched apart
    problems = (*file.problems, *page_problems(file.questions, files_in(vault), searched))
    started = time.perf_counter()
    fts5 = Fts5Index.build(vault, work / "fts5.sqlite3", indexed)
    fts5_build_s = time.perf_counter() - started
    try:
        rows = tuple(measure_question(question, wiki, settings, fts5) for question in file.questions)
    finally:
        fts5.close()
    sources = {page.path for page in catalog.pages.values() if page.type == SOURCE}
    digest = measure_digest(wiki, settings, vault, indexed, sources, digest_pages or pages_of_digest)
    return WikiRun(file, vault, len(indexed), build_s, fts5_build_s, problems, rows, digest)


def measure_question(question: Question, wiki: Wiki, settings: Settings, fts5: Fts5Index) -> Measured:
    started = time.perf_counter()
    message, answer = compose_message(question.question, wiki, settings)
    ms = (time.perf_counter() - started) * 1000
    blocks = message.get("blocks") or []
    screen = first_screen(blocks)
    anywhere = normalise(visible_text(blocks))
    payload = answer_payload(message.get("metadata"))
    status, status_from = reply_status(payload, answer)
    return Measured(
        question=question,
        first_screen=answered(question.keys, screen, question.question, ignore_spaces=True),
        anywhere=answered(question.keys, anywhere, question.question, ignore_spaces=True),
        abstained=status == NOT_FOUND,
        status=status,
        status_from=status_from,
        ranking=ranked_pages(answer, payload),
        fts5_ranking=tuple(fts5.search(question.question, ANSWER_PAGES)),
        screen=screen,
        cited=cited_pages(answer, payload),
        confidence=reply_confidence(answer, payload),
        ms=ms,
    )


def compose_message(text: str, wiki: Wiki, settings: Settings) -> tuple[dict, Answer | None]:
    """The message a mention asking ``text`` gets in a channel (no model configured), as posted, and
    the domain's answer it was composed from."""
    from bot.conversation.conversations import Place, compose, with_answer_controls
    from bot.i18n import language_for_question, use_language

    with use_language(language_for_question(text, settings.ui_language)):
        composed = compose(text, wiki, settings)
        posted = with_answer_controls(composed.answered, Place(BENCH_CHANNEL, None), composed.reply)
    message = posted.message()
    if "metadata" not in message:  # the controls may be added on a copy that does not carry it
        message["metadata"] = reply_metadata(composed.reply)
    return message, composed.reply.answer


def reply_metadata(reply: Reply) -> dict | None:
    return reply.message().get("metadata") or getattr(reply, "metadata", None)


def answer_payload(metadata: object) -> dict | None:
    """The ``event_payload`` of the answer metadata, when the message carries it."""
    if isinstance(metadata, dict) and metadata.get("event_type") == ANSWER_EVENT:
        payload = metadata.get("event_payload")
        return payload if isinstance(payload, dict) else None
    return None


def reply_status(payload: Mapping | None, answer: Answer | None) -> tuple[str, str]:
    """(status, where it was read): the metadata's, else the answer's confidence and relation."""
    if payload is not None and payload.get("status") in STATUSES:
        return str(payload["status"]), "metadata"
    if answer is None or not answer.confident:
        return NOT_FOUND, "answer"
    return ("relation" if answer.fact is not None else "answered"), "answer"


def ranked_pages(answer: Answer | None, payload: Mapping | None) -> tuple[str, ...]:
    """sakuin's ranking: its answer's pages in order (the metadata's cited pages without an answer)."""
    if answer is not None:
        return tuple(dict.fromkeys(hit.path for hit in answer.pages))
    return tuple(_paths(payload.get("pages"))) if payload else ()


def cited_pages(answer: Answer | None, payload: Mapping | None) -> tuple[str, ...]:
    if payload is not None and payload.get("pages") is not None:
        return tuple(_paths(payload["pages"]))
    if answer is None or not answer.confident:
        return ()
    return tuple(dict.fromkeys(sentence.path for sentence in answer.sentences))


def reply_confidence(answer: Answer | None, payload: Mapping | None) -> float | None:
    if payload is not None and isinstance(payload.get("confidence"), int | float):
        return float(payload["confidence"])
    if answer is None or not answer.sentences:
        return None
    return max(sentence.confidence for sentence in answer.sentences)


def _paths(values: object) -> list[str]:
    return [str(value) for value in values] if isinstance(values, list | tuple) else []


# -- the digest measure (issue 27) ---------------------------------------------------------------


def pages_of_digest(digest: Digest) -> list[str]:
    """The paths a digest lists: its ``pages`` (new knowledge pages, when the digest has them) and
    its source items."""
    pages = [
        page if isinstance(page, str) else page["path"] if isinstance(page, dict) else page.path
        for page in getattr(digest, "pages", None) or ()
    ]
    return list(dict.fromkeys([*pages, *(item.path for item in digest.items)]))


def measure_digest(
    wiki: Wiki,
    settings: Settings,
    vault: Path,
    paths: Sequence[str],
    sources: set[str],
    digest_pages: DigestPages,
) -> dict:
    """Every day a page's date field or a log names: the digest of that day against the pages dated
    that day, and how long each digest took."""
    from bot.digest.days import day_digest

    dated = page_days(vault, paths, settings.zone)
    expected: dict[str, set[str]] = {}
    for path, (_field, day) in dated.items():
        expected.setdefault(day, set()).add(path)
    days = sorted(set(expected) | log_days(vault))
    digested: dict[str, list[str]] = {}
    timings: dict[str, float] = {}
    for day in days:
        started = time.perf_counter()
        digest = day_digest(settings, wiki, date.fromisoformat(day))
        timings[day] = (time.perf_counter() - started) * 1000
        digested[day] = digest_pages(digest)
    scores = digest_scores(expected, digested, sources)
    for row in scores["days"]:
        row["ms"] = timings.get(row["day"], 0.0)
    fields: dict[str, int] = {}
    for field, _day in dated.values():
        fields[field] = fields.get(field, 0) + 1
    ms = list(timings.values())
    scores["all_days"].update(
        days=len(days),
        ms_total=sum(ms),
        ms_mean=sum(ms) / len(ms) if ms else None,
        ms_max=max(ms, default=None),
    )
    return {"dated_pages": len(dated), "fields": fields, "log_days": sorted(log_days(vault)), **scores}


def page_days(vault: Path, paths: Iterable[str], zone: tzinfo) -> dict[str, tuple[str, str]]:
    """Each page's (field, YYYY-MM-DD) from the first of `DATE_FIELDS` its frontmatter sets to a date
    (`date_field`)."""
    found = {}
    for path in paths:
        try:
            text = (vault / path).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue
        dated = date_field(split_frontmatter(text.replace("\r\n", "\n")).meta, zone)
        if dated is not None:
            found[path] = dated
    return found


def date_field(meta: Mapping[str, object], zone: tzinfo) -> tuple[str, str] | None:
    """The first of `DATE_FIELDS` set to a date, and the day it names: a timestamp with an offset
    (``2026-04-16T18:27:04Z``) on the day it falls on in ``zone``, the digest's (docs/digest.md);
    a date or a timestamp without one as written."""
    for field in DATE_FIELDS:
        value = str(meta.get(field) or "")
        match = _DAY.search(value)
        if not match:
            continue
        try:
            day = date.fromisoformat(match.group(0))
        except ValueError:
            continue
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is not None and moment.tzinfo is not None:
            day = moment.astimezone(zone).date()
        return field, day.isoformat()
    return None


def log_days(vault: Path) -> set[str]:
    """The days the vault's logs (``log.md``, ``log-2026.md`` … anywhere but hidden folders) head
    entries with (``## [2026-06-14] ingest | …``, ``## 2026-06-14``)."""
    days = set()
    for folder, dirs, files in os.walk(vault):
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        for name in files:
            if _LOG_NAME.match(name):
                text = (Path(folder) / name).read_bytes().decode("utf-8", errors="replace")
                days.update(day for day in _LOG_DAY.findall(text) if _valid_day(day))
    return days


def _valid_day(day: str) -> bool:
    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True


def files_in(vault: Path) -> set[str]:
    """Every file of the vault, vault-relative, hidden folders left out."""
    found = set()
    for folder, dirs, files in os.walk(vault):
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        relative = Path(folder).relative_to(vault)
        found.update((relative / name).as_posix() for name in files)
    return found
