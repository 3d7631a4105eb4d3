"""The writers of a full build: whoosh's segment writer made lean for passages that are only added,
and the processes that write a build's segments side by side.

whoosh's own writer hands every posting on alone, as a tuple through three generators, to a pool that
pickles it, and at the end through a generic loop that checks its order and looks up its passage's
length: per posting, most of a writer process's time. A build writer only adds passages, numbered in
the order it adds them, so `BuildWriter` hands a field's postings to `TermPool` at once and writes them
back term by term.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from whoosh.codec.whoosh3 import W3Codec
from whoosh.multiproc import MpWriter, SubWriterTask
from whoosh.writing import SegmentWriter

from index.store.postings import TermPool

QUEUED_JOBS = 1000
"""Batches of 100 passages the building process may hand on before the writer processes take
them. A batch waits in a file, not in memory: the building process never stops for the writers,
and while it links the pages (at 100,000 pages, a long step of its own) they have work."""


def _build_codec() -> W3Codec:
    """whoosh's codec without the shortest and longest field length of each block of postings:
    writing them looks up the length of every posting's passage, a seek and a read apiece, about
    a tenth of a build. Only whoosh's own matchers use them, to skip blocks (`_scored` reads the
    lengths itself), and an update's segments still have them."""
    codec = W3Codec()
    codec.length_stats = False
    return codec


class WriterFailed(RuntimeError):
    """A process writing the index stopped before it finished: the build is not committed."""


class _SpawnedSubWriter(SubWriterTask):
    """whoosh's sub-writer process, started in a fresh interpreter rather than forked (a fork would
    carry, and count again, everything the building process holds), writing its own segment with a
    `BuildWriter`."""

    @staticmethod
    def _Popen(process_obj):
        return multiprocessing.get_context("spawn").Process._Popen(process_obj)

    def run(self) -> None:
        """whoosh's loop for a writer of its own segment (``multisegment``), with the pool replaced.
        whoosh's check of a cancelled flag is left out: the flag is only ever set on the building
        process's copy, and `SpawningWriter.cancel` stops the process instead."""
        index = self.storage.open_index(self.indexname)
        writer = self.writer = BuildWriter(index, _lk=False, **self.kwargs)
        while (job := self.jobqueue.get()) is not None:
            self._process_file(*job)
        self.resultqueue.put((None, writer.pool.fieldnames, writer._finalize_segment()), timeout=5)


class SpawningWriter(MpWriter):
    """whoosh's multi-process writer with `_SpawnedSubWriter` processes (and queues they can share),
    each writing its own segment, that fails when one of them does. whoosh's commit takes what the
    writers that finished wrote: a writer that died took its passages with it, silently."""

    def __init__(self, ix, **kwargs) -> None:
        super().__init__(ix, multisegment=True, **kwargs)
        spawn = multiprocessing.get_context("spawn")
        self.jobqueue = spawn.Queue(QUEUED_JOBS)
        self.resultqueue = spawn.Queue()

    def add_document(self, **fields) -> None:
        super().add_document(**fields)
        if not self.docbuffer:  # a batch was just handed on: are the writers still there?
            self._check_writers()

    def cancel(self) -> None:
        """Stop the writer processes too (whoosh only marks its own copies of them as cancelled,
        and they would wait for work forever)."""
        for task in self.tasks:
            task.terminate()
        for task in self.tasks:
            task.join()
        self.tasks = []
        super().cancel()

    def _commit(self, mergetype, optimize, merge) -> None:
        """whoosh's commit of writers of their own segments, taking a result from every writer
        (before joining them, so that none waits to hand its result over)."""
        if self.docbuffer:
            self._enqueue()
        for _ in self.tasks:
            self.jobqueue.put(None)
        segments = self._merge_segments(mergetype, optimize, merge)
        segments += [self._result() for _ in self.tasks]
        for task in self.tasks:
            task.join()
        self._check_writers()
        if self._added:
            segments.append(self._finalize_segment())
        else:
            self._close_segment()
        self._commit_toc(segments)
        self._finish()

    def _result(self):
        while True:
            try:
                _, _, segment = self.resultqueue.get(timeout=1)
                return segment
            except queue.Empty:
                self._check_writers()

    def _check_writers(self) -> None:
        failed = [task.exitcode for task in self.tasks if task.exitcode not in (None, 0)]
        if failed:
            raise WriterFailed(f"an index writer process stopped (exit code {failed[0]})")

    def _new_task(self) -> SubWriterTask:
        task = _SpawnedSubWriter(
            self.storage, self.indexname, self.jobqueue, self.resultqueue, self.subargs, self.multisegment
        )
        self.tasks.append(task)
        task.start()
        return task


class BuildWriter(SegmentWriter):
    """whoosh's segment writer for passages only added, in order, to a segment of its own, with
    `_build_codec`: each field's postings go to a `TermPool` at once, and come back term by term.
    What whoosh's writer does besides (boosts given with a passage, spelling words, term vectors)
    the index's schema does not use, and a schema that uses them is refused."""

    def __init__(self, ix, *, limitmb: float, **kwargs: Any) -> None:
        super().__init__(ix, limitmb=limitmb, codec=_build_codec(), **kwargs)
        unsupported = [
            name for name, field in self.schema.items() if field.vector or field.separate_spelling()
        ]
        if unsupported:
            raise ValueError(f"a build writer writes no term vectors or spelling words: {unsupported}")
        self.pool = TermPool(Path(self._tempstorage.folder), limitmb)

    def add_document(self, **fields: Any) -> None:
        perdocwriter, schema, docnum = self.perdocwriter, self.schema, self.docnum
        perdocwriter.start_doc(docnum)
        for name in sorted(fields):
            value = fields[name]
            if value is None:
                continue
            field = schema[name]
            length = 0
            if field.indexed:
                frequency = self.pool.add_field(name, docnum, field.index(value))
                length = frequency if field.scorable else 0
            perdocwriter.add_field(name, field, value if field.stored else None, length)
            if field.column_type:
                perdocwriter.add_column_value(name, field.column_type, field.to_column_value(value))
        perdocwriter.finish_doc()
        self._added = True
        self.docnum += 1

    def _flush_segment(self) -> None:
        self.perdocwriter.close()
        _write_terms(self.fieldwriter, self.schema, self.pool.iter_terms())
        self.fieldwriter.close()


def _write_terms(fieldwriter, schema, terms: Iterable[tuple[str, bytes, list]]) -> None:
    """Each term's postings to whoosh's field writer, field by field (as `FieldWriter.add_postings`
    does for postings one by one; the lengths it would look up `_build_codec` does not keep)."""
    current = None
    add = fieldwriter.add
    for fieldname, text, postings in terms:
        if fieldname != current:
            if current is not None:
                fieldwriter.finish_field()
            fieldwriter.start_field(fieldname, schema[fieldname])
            current = fieldname
        fieldwriter.start_term(text)
        for docnum, weight, value in postings:
            add(docnum, weight, value, 0)
        fieldwriter.finish_term()
    if current is not None:
        fieldwriter.finish_field()
