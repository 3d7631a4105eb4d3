"""A build writer's postings, kept by term until whoosh's field writer takes them in order.

whoosh's own pool holds each posting as a tuple with its term, sorts them, pickles them one at a
time into runs on disk and merges the runs posting by posting: about two fifths of a build
writer's time. A build writer only adds passages, numbered in the order it adds them, so a term's
postings already come in order. `TermPool` sorts only the terms, and writes runs and reads them
back in parts. It knows nothing of whoosh but the shape of a posting: `index.store.building`'s
writers keep their postings in it.
"""

from __future__ import annotations

import heapq
import pickle
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

_TermKey = tuple[str, bytes]
_Posting = tuple[int, float, bytes]
_TERM_BYTES = 200
"""What a new term costs `TermPool` in memory besides its text: key tuple, list, dict slot."""
_POSTING_BYTES = 130
"""What a posting costs it besides its value: a tuple of an int, a float and a bytes object."""
_OPEN_RUNS = 100
"""Runs merged at once; more are first merged in groups of this many (open files stay bounded)."""


class TermPool:
    """Postings added as a writer makes them, given back by field, term and passage (as whoosh's field
    writer takes them). Merging holds one part of every run at once, and parts are cut so that together
    they take about the pool's limit.
    """

    def __init__(self, directory: Path, limitmb: float, open_runs: int = _OPEN_RUNS) -> None:
        if open_runs < 2:
            raise ValueError(f"open_runs must be at least 2, not {open_runs}")
        self.fieldnames: set[str] = set()
        self._directory = directory
        self._limit = limitmb * 1024 * 1024
        self._open_runs = open_runs
        self._part_postings = max(1, int(self._limit / (open_runs * _POSTING_BYTES)))
        self._terms: dict[_TermKey, list[_Posting]] = {}
        self._size = 0
        self._runs: list[Path] = []

    def add_field(self, fieldname: str, docnum: int, words: Iterable[tuple[bytes, int, float, bytes]]) -> int:
        """One field's postings of a passage, from its words (text, frequency, weight, value), all
        at once; returns how many tokens the words stand for (the field's length)."""
        terms = self._terms
        size = 0
        length = 0
        for text, frequency, weight, value in words:
            postings = terms.get((fieldname, text))
            if postings is None:
                postings = terms[(fieldname, text)] = []
                size += _TERM_BYTES + len(text)
            postings.append((docnum, weight, value))
            size += _POSTING_BYTES + len(value)
            length += frequency
        self.fieldnames.add(fieldname)
        self._size += size
        if self._size > self._limit:
            self._spill()
        return length

    def iter_terms(self) -> Iterator[tuple[str, bytes, list[_Posting]]]:
        """Every term with its postings (passage, weight, value), by field and term, each term's
        postings by passage (as whoosh's field writer takes them)."""
        if self._runs:
            self._spill()
            while len(self._runs) > self._open_runs:  # groups of consecutive runs: order is kept
                groups = [
                    self._runs[at : at + self._open_runs] for at in range(0, len(self._runs), self._open_runs)
                ]
                self._runs = [
                    self._write_run(self._merged(group)) if len(group) > 1 else group[0] for group in groups
                ]
            terms: Iterable[tuple[_TermKey, list[_Posting]]] = self._merged(self._runs)
        else:
            terms = sorted(self._terms.items(), key=_term_key)
        previous: _TermKey | None = None
        held: list[_Posting] = []
        for key, postings in terms:  # a term in several runs: earlier runs first, joined
            if key != previous:
                if previous is not None:
                    yield previous[0], previous[1], held
                previous, held = key, postings
            else:
                held.extend(postings)
        if previous is not None:
            yield previous[0], previous[1], held

    def cleanup(self) -> None:
        for run in self._runs:
            run.unlink(missing_ok=True)
        self._runs = []

    def _spill(self) -> None:
        self._runs.append(self._write_run(sorted(self._terms.items(), key=_term_key)))
        self._terms, self._size = {}, 0

    def _write_run(self, terms: Iterable[tuple[_TermKey, list[_Posting]]]) -> Path:
        run = self._directory / f"{uuid.uuid4().hex}.terms"
        with run.open("wb") as file:
            part: list[tuple[_TermKey, list[_Posting]]] = []
            postings = 0
            for entry in terms:
                part.append(entry)
                postings += len(entry[1])
                if postings >= self._part_postings:
                    pickle.dump(part, file, pickle.HIGHEST_PROTOCOL)
                    part, postings = [], 0
            if part:
                pickle.dump(part, file, pickle.HIGHEST_PROTOCOL)
        return run

    def _merged(self, runs: list[Path]) -> Iterator[tuple[_TermKey, list[_Posting]]]:
        """The runs' terms in order; a term's entries in the order of the runs (merge is stable)."""
        return heapq.merge(*(self._read(run) for run in runs), key=_term_key)

    def _read(self, run: Path) -> Iterator[tuple[_TermKey, list[_Posting]]]:
        with run.open("rb") as file:
            while True:
                try:
                    part = pickle.load(file)
                except EOFError:
                    break
                yield from part
        run.unlink()


def _term_key(item: tuple[_TermKey, list[_Posting]]) -> _TermKey:
    return item[0]
