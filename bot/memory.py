"""What the serving process gives back to the system (glibc's allocator; elsewhere both are no-ops),
and what it keeps out of Python's cyclic garbage collector.

An index update replaces a state of the index (a name table, thousands of decoded pages, the
search readers) and frees the old one at once. glibc keeps freed memory for reuse, per thread
arena, so under a burst of answers and edits the process stayed some 50 MB above what it used
at 10,000 pages (docs/benchmarks.md). Two measured remedies:

- `limit_arenas`: threads share two malloc arenas instead of up to eight per core, so memory one
  thread freed is reused by the others (the effect of ``MALLOC_ARENA_MAX=2``);
- `give_back_freed_memory`: ``malloc_trim`` after each update returns the freed pages.

And two for Python's cyclic garbage collector, which stops every thread while it runs:

- `exempt_the_index`: the index state lives until the next update, and each full collection walked
  all of it again;
- `collect_less_often`: a young collection every 10,000 new objects instead of 700. A question's
  objects die young by reference counting; what survives (decoded pages churning through their
  cache) was promoted to the oldest generation, whose full collection came every 25 questions.

At 10,000 pages, over the benchmark's 462 question replies, the collector ran 1.77 s, 19 of them
waiting 20-45 ms for a full collection; with both, 0.28 s and none (docs/benchmarks.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging

log = logging.getLogger(__name__)

M_ARENA_MAX = -8
"""``mallopt`` parameter number (glibc's malloc.h)."""
ARENAS = 2


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


_LIBC = _libc()


def limit_arenas() -> None:
    """Call before the threads that answer start (a thread keeps the arena it first used)."""
    mallopt = getattr(_LIBC, "mallopt", None)
    if mallopt is not None and not mallopt(M_ARENA_MAX, ARENAS):
        log.debug("mallopt(M_ARENA_MAX) was refused")


def give_back_freed_memory() -> None:
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


YOUNG_THRESHOLD = 10_000
"""New objects between two young collections (CPython 3.11's default: 700)."""


def collect_less_often() -> None:
    """Call once, before serving: for the whole process."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def exempt_the_index() -> None:
    """Set every object alive now aside from the cyclic collector's scans (``gc.freeze``): call
    when the index state is loaded or replaced. What the previous state held is collected first,
    cycles included, so a replaced state is never kept: one full collection per update."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
