"""What the serving process gives back to the system (glibc's allocator; elsewhere both are no-ops).

An index update replaces a state of the index (a name table, thousands of decoded pages, the
search readers) and frees the old one at once. glibc keeps freed memory for reuse, per thread
arena, so under a burst of answers and edits the process stayed some 50 MB above what it used
at 10,000 pages (docs/benchmarks.md). Two measured remedies:

- `limit_arenas`: threads share two malloc arenas instead of up to eight per core, so memory one
  thread freed is reused by the others (the effect of ``MALLOC_ARENA_MAX=2``);
- `give_back_freed_memory`: ``malloc_trim`` after each update returns the freed pages.
"""

from __future__ import annotations

import ctypes
import ctypes.util
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
