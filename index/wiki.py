"""`Wiki`: the one object the edges are handed. Lookups, search, cards, digests, index state.

Every method is synchronous and safe to call from several threads. Readers use the last
committed state (the catalog's rows as committed, and a name table swapped in after each update)
and never wait for the writer; a change committed by another process (``sakuin index`` from cron)
is picked up on the next call.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable, Mapping
from datetime import date, tzinfo
from functools import partial
from pathlib import Path

from index.asking.answer import answer_question
from index.asking.meets import content_terms, meeting, terms_of
from index.asking.search import search_pages
from index.catalog.graph import build_card, linking_refs, page_ref
from index.catalog.names import NameHit
from index.catalog.reader import Catalog, Stamp, catalog_stamp
from index.digest import (
    MAX_ITEMS,
    WIKI_ZONE,
    birth,
    compose_digest,
    read_signals,
    recent_sources,
)
from index.generation import LiveGeneration, current_generation, open_current
from index.indexer import Progress, update_index
from index.model import (
    Answer,
    Candidate,
    Card,
    Digest,
    DigestItem,
    GitAdditions,
    IndexReport,
    IndexState,
    Lookup,
    PageRef,
    SearchResult,
    Section,
    Unresolved,
    VaultSurvey,
)
from index.reading.format import BRIEF, CITING_TYPES, SOURCE
from index.reading.vault import survey_vault
from index.web import page_url, url_path

RECHECK_SECONDS = 1.0
DIGEST_TYPES = (SOURCE, BRIEF)
"""The pages App Home's recent sources read: sources, and briefs for their blurbs."""


class IndexNotReady(Exception):
    """There is no usable index yet (it is being built, or has never been built)."""


class Wiki:
    def __init__(self, wiki_dir: Path, index_dir: Path, base_url: str | None = None) -> None:
        self.wiki_dir = wiki_dir
        self.index_dir = index_dir
        self.base_url = base_url.rstrip("/") + "/" if base_url else None
        self._live: LiveGeneration | None = None
        self._stamp: Stamp | None = None
        self._checked = 0.0
        self._write_lock = threading.Lock()
        self._building = False
        self._updating = False
        self._last_error: str | None = None

    @classmethod
    def open(cls, wiki_dir: Path, index_dir: Path, base_url: str | None = None) -> Wiki:
        """Cheap: loads what is on disk, builds nothing."""
        wiki = cls(wiki_dir, index_dir, base_url)
        wiki._reload()
        return wiki

    # -- writing --------------------------------------------------------------------------

    def update(
        self,
        *,
        rebuild: bool = False,
        progress: Progress | None = None,
        workers: int = 1,
        paths: Iterable[str | Path] | None = None,
    ) -> IndexReport:
        """Apply the vault's changes to the index (build it when missing or unusable).

        ``paths``: the files that changed (absolute, or relative to the vault), as a watcher saw
        them; only those are looked at (see `index.indexer.update_index`). ``workers`` > 1 builds
        large indexes in that many processes; only for single-threaded callers (the command line),
        since it starts processes that import the caller's main module.
        """
        inside = None if paths is None else self._inside(paths)
        with self._write_lock:
            self._building = self._live is None or rebuild
            self._updating = True
            try:
                live, report = update_index(
                    self.wiki_dir,
                    self.index_dir,
                    rebuild=rebuild,
                    progress=progress,
                    current=self._live,
                    workers=workers,
                    paths=inside,
                )
            except Exception as error:
                self._last_error = f"{type(error).__name__}: {error}"
                raise
            finally:
                self._building = self._updating = False
            self._last_error = None
            self._swap(live)
            return report

    # -- reading: each public method reads the current state once, so one answer never mixes two
    # index generations (an update committed between two reads would otherwise show through) --

    def live(self) -> LiveGeneration:
        """The generation the next call answers from (its catalog, link graph and search store), for
        tools and tests that look below the facade; the edges never do. Raises `IndexNotReady`."""
        return self._current()

    def state(self) -> IndexState:
        live = self._latest()
        if live is None:
            status = "building" if self._building else ("error" if self._last_error else "empty")
            return IndexState(status, last_error=self._last_error)
        catalog = live.catalog
        return IndexState(
            "building" if self._building else "ready",
            pages=len(catalog.pages),
            updated_at=catalog.updated_at,
            last_error=self._last_error,
            warnings=(*catalog.skipped_list, *catalog.warning_list),
            updating=self._updating,
            removal_warning=catalog.removal_warning,
        )

    def lookup(self, name: str, limit: int = 8) -> Lookup:
        live = self._current()
        catalog = live.catalog
        resolution = live.graph.names.resolve(name, limit)
        unresolved = None
        if resolution.unresolved:
            linked, paths = resolution.unresolved
            unresolved = Unresolved(linked, tuple(self._ref(catalog, path) for path in paths))
        return Lookup(
            query=name,
            match=self._candidate(resolution.match) if resolution.match else None,
            candidates=tuple(self._candidate(hit) for hit in resolution.candidates),
            unresolved=unresolved,
            ambiguous=resolution.ambiguous,
        )

    def search(self, query: str, limit: int = 5) -> SearchResult:
        live = self._current()
        catalog = live.catalog
        return search_pages(live.store, catalog.pages, live.graph.names, query, limit, self._url_for)

    def answer(self, question: str, *, subject: str | None = None) -> Answer:
        """The sentences (or the relation) that answer a free question, or a plain "no answer" with
        the closest pages. ``subject``: the page a thread's follow-up is about, used when the
        question names no page."""
        live = self._current()
        catalog = live.catalog
        return answer_question(
            live.store,
            catalog.pages,
            live.graph,
            question,
            subject=subject,
            url_for=self._url_for,
            logs=catalog.log_pages,
        )

    def questions_meeting(self, questions: Mapping[str, str], paths: Iterable[str]) -> list[str]:
        """The ids of ``questions`` (id → text) that the pages at ``paths`` (those an update added
        or changed) may now answer (`index.asking.meets`): only those are worth asking again."""
        live = self._current()
        texts: list[str] = []
        for path in paths:
            page = live.catalog.pages.get(path)
            if page is None:
                continue
            texts += [page.title, *page.aliases, page.summary]
            texts += [f"{r.label} {' '.join(link.target for link in r.links)}" for r in page.relations]
            texts += [f"{chunk.heading}\n{chunk.text}" for chunk in live.store.page_chunks(path)]
        if not texts:
            return []
        asked = {question_id: content_terms(text) for question_id, text in questions.items()}
        words = set().union(*asked.values()) if asked else set()
        total, _ = live.store.document_frequencies(())
        return meeting(asked, terms_of(texts), total, live.store.postings(words))

    def card(self, path: str) -> Card | None:
        live = self._current()
        page = live.catalog.pages.get(path)
        if page is None:
            return None
        return build_card(page, live.catalog.pages, live.graph, self._url_for)

    def page_text(self, path: str) -> tuple[Section, ...] | None:
        """A page's text as the index holds it, its sections in page order (a long section, cut into
        passages for search, joined again at its cuts); None for a path that is not a page of the
        index. Nothing is read from the vault: only what the index serves can be shown."""
        live = self._current()
        if path not in live.catalog.pages:
            return None
        sections: list[Section] = []
        for chunk in live.store.page_chunks(path):
            if sections and sections[-1].heading == chunk.heading:
                sections[-1] = Section(chunk.heading, sections[-1].text + "\n" + chunk.text)
            else:
                sections.append(Section(chunk.heading, chunk.text))
        return tuple(sections)

    def most_linked(
        self, limit: int = 5, types: frozenset[str] = frozenset({"entity"})
    ) -> tuple[PageRef, ...]:
        """The pages of ``types`` that most pages link to, most linked first (then by title)."""
        catalog = self._current().catalog
        ranked = catalog.rows.most_linked(types, limit)
        return tuple(
            page_ref(catalog.pages[path], self._url_for) for path, _ in ranked if path in catalog.pages
        )

    def page_for_url(self, url: str) -> str | None:
        """The path of the page a web link names (``WIKI_BASE_URL`` + its path), or None."""
        path = url_path(self.base_url, url) if self.base_url else None
        if path is None:
            return None
        pages = self._current().catalog.pages
        return next((candidate for candidate in (path + ".md", path) if candidate in pages), None)

    def page_for_token(self, token: str) -> str | None:
        """The path of the page whose `path_token` is ``token``, or None."""
        return self._current().catalog.rows.page_for_token(token)

    def survey(self) -> VaultSurvey:
        """Per top folder of the vault, the notes indexed and those left out, and why (``sakuin
        doctor``). Reads the vault's tree; pages the index could not read count as left out."""
        live = self._latest()
        return survey_vault(self.wiki_dir, live.catalog.skipped if live else None)

    def digest(
        self,
        day: date,
        *,
        zone: tzinfo = WIKI_ZONE,
        include_unpublished: bool = False,
        max_items: int = MAX_ITEMS,
        git: GitAdditions | None = None,
    ) -> Digest:
        """What the wiki gained on ``day`` (a calendar day in ``zone``), for the digest; ``git``:
        when the vault's files were added, as the edge read them from git."""
        live = self._current()
        catalog = live.catalog
        entries = catalog.log_entries
        resolver = live.graph.resolver
        resolved = resolver.resolve_many(
            {
                target
                for entry in entries
                for target in (*entry.created, *entry.updated, *entry.source_targets)
            }
        )
        return compose_digest(
            catalog.rows,
            entries,
            day,
            read=catalog.pages.get,
            resolve=lambda target: resolved[target] if target in resolved else resolver.resolve(target),
            cited_by=partial(self._cited_by, live),
            url_for=self._url_for,
            git=git,
            zone=zone,
            include_unpublished=include_unpublished,
            max_items=max_items,
        )

    def new_page_signals(
        self, day: date, *, zone: tzinfo = WIKI_ZONE, git: GitAdditions | None = None
    ) -> dict[str, int]:
        """How many knowledge pages each signal dates (``log``, ``frontmatter:created`` …), as the
        digest of ``day`` would read them (``sakuin doctor``)."""
        live = self._current()
        catalog = live.catalog
        rows = [row for row in catalog.rows.dated_pages() if row.knowledge]
        signals = read_signals(catalog.log_entries, live.graph.resolver.resolve, zone, git)
        counts: dict[str, int] = {}
        for row in rows:
            born = birth(row, zone, signals, day)
            by = born.by or "undated"
            counts[by] = counts.get(by, 0) + 1
        return counts

    def recent_sources(self, limit: int = 10, *, zone: tzinfo = WIKI_ZONE) -> tuple[DigestItem, ...]:
        """The most recently added sources, newest first (App Home)."""
        live = self._current()
        catalog = live.catalog
        return recent_sources(
            tuple(catalog.pages.of_types(DIGEST_TYPES)),
            limit,
            first_seen=catalog.first_seen.get,
            resolve=live.graph.resolver.resolve,
            cited_by=partial(self._cited_by, live),
            url_for=self._url_for,
            zone=zone,
        )

    # -- internals: given the one state a public method read ----------------------------------

    def _inside(self, paths: Iterable[str | Path]) -> list[str]:
        """Vault-relative POSIX paths of those of ``paths`` inside the vault."""
        root = os.path.abspath(self.wiki_dir)
        inside: list[str] = []
        for path in paths:
            relative = os.path.relpath(os.path.join(root, path), root)
            if relative != "." and not relative.startswith(".."):
                inside.append(relative.replace(os.sep, "/"))
        return inside

    def _url_for(self, path: str) -> str | None:
        """The page's web address when WIKI_BASE_URL is set (Obsidian Publish / Quartz style)."""
        return page_url(self.base_url, path) if self.base_url else None

    def _ref(self, catalog: Catalog, path: str) -> PageRef:
        page = catalog.pages.get(path)
        if page is None:
            return PageRef(path.rsplit("/", 1)[-1].removesuffix(".md"), None)
        return page_ref(page, self._url_for)

    def _cited_by(self, live: LiveGeneration, path: str) -> tuple[PageRef, ...]:
        refs = linking_refs(live.graph, path, self._url_for)
        return tuple(ref for ref in refs if ref.type in CITING_TYPES)

    def _candidate(self, hit: NameHit) -> Candidate:
        page = hit.page
        return Candidate(page.path, page.title, page.type, hit.score, self._url_for(page.path), hit.name)

    def _current(self) -> LiveGeneration:
        """The state to answer from; raises `IndexNotReady` when there is none."""
        live = self._latest()
        if live is None:
            raise IndexNotReady(
                "the index is being built" if self._building else "the index has not been built"
            )
        return live

    def _latest(self) -> LiveGeneration | None:
        """The last committed state, reloaded first when another process wrote a newer one."""
        now = time.monotonic()
        if now - self._checked > RECHECK_SECONDS:
            self._checked = now
            generation = current_generation(self.index_dir)
            live = self._live
            if live is not None and generation == live.directory:
                stamp = live.catalog.latest_stamp()  # on this thread's connection: no new one
            else:
                stamp = catalog_stamp(generation) if generation else None
            # Reload what another process wrote, unless a writer (or another reader's reload) is
            # busy: then the current state keeps answering and a later call catches up.
            if stamp != self._stamp and self._write_lock.acquire(blocking=False):
                try:
                    self._reload()
                finally:
                    self._write_lock.release()
        return self._live

    def _reload(self) -> None:
        live = open_current(self.index_dir)
        if live is not None:
            self._swap(live)

    def _swap(self, live: LiveGeneration) -> None:
        """Publish a new state. The previous one is not closed here: a reader in another thread
        may be searching it right now; its files are released when the last reference goes."""
        self._live = live
        self._stamp = live.stamp
