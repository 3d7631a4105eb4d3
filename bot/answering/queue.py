"""The answer queue: the domain work behind Slack's requests, off the event loop and bounded.

Every answer (a lookup, a search, a card, an unfurl, the Home tab) runs in one of `workers` threads
of its own, not in asyncio's default pool, which the index keeper and the state store share. At
most `capacity` jobs wait for a thread; a job that finds the queue full is told so (``on_busy``:
the listener shows "busy, answering in a moment") and then waits for room, in order, up to
`give_up_s`; past that it raises `Overloaded`, which the error handler turns into a one-line
apology. Nothing is dropped silently and nothing runs twice.

The event loop only counts and awaits here: the ack path never waits for a thread, and a thread
never waits for the loop. The pool is as wide as the machine has cores: searches are pure Python,
so more threads than cores add no throughput, only more contention for the interpreter lock with
the event loop that verifies and acknowledges requests (measured in docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from bot.memory import give_back_freed_memory

log = logging.getLogger(__name__)

JOBS_PER_WORKER = 32
"""How many jobs may wait per thread before newcomers are told the bot is busy: at a search's
usual tens of milliseconds, about a second of work each."""
GIVE_UP_S = 300.0
"""A job that found the queue full waits this long for room before the user gets an apology."""

SWITCH_INTERVAL_S = 0.001
"""How long a thread may keep the interpreter lock while another waits for it (Python's default is
5 ms). The answer threads run pure Python beside the event loop that acknowledges requests: under a
burst of 1,500 requests, the acks' p99 was 1.29 s at the default and 0.48 s at 1 ms, their p50 0.10
and 0.29 s (one run each, docs/benchmarks.md)."""

P = ParamSpec("P")
T = TypeVar("T")
Busy = Callable[[], Awaitable[None]]


class Overloaded(Exception):
    """The queue stayed full for `GIVE_UP_S`: the request is answered with an apology instead."""


def favour_the_event_loop() -> None:
    """Let the event loop take the interpreter lock from the answer threads sooner
    (`SWITCH_INTERVAL_S`): for the whole process, which serves Slack."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def default_workers() -> int:
    """One thread per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class AnswerQueue:
    """A bounded queue in front of a small pool of threads (see the module docstring)."""

    def __init__(
        self, workers: int | None = None, capacity: int | None = None, give_up_s: float = GIVE_UP_S
    ) -> None:
        self.workers = workers or default_workers()
        self.capacity = self.workers * JOBS_PER_WORKER if capacity is None else capacity
        self.give_up_s = give_up_s
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="answer")
        # Room for every job admitted (waiting or running), and a thread for each running one.
        self._admitted = asyncio.Semaphore(self.capacity + self.workers)
        self._running = asyncio.Semaphore(self.workers)
        self._jobs = 0
        """Jobs admitted and not finished."""
        self.busy_count = 0
        """How many jobs found the queue full (logged, and read by tests)."""

    @property
    def full(self) -> bool:
        """Whether a job asked for now would wait for room (the busy notice is due)."""
        return self._admitted.locked()

    async def run(
        self, function: Callable[P, T], *args: P.args, on_busy: Busy | None = None, **kwargs: P.kwargs
    ) -> T:
        """``function(*args, **kwargs)`` in a worker thread, once there is room in the queue.

        ``on_busy`` is awaited first when the queue is full. Raises `Overloaded` when there was no
        room within `give_up_s`.
        """
        if self.full:
            self.busy_count += 1
            log.info("answer queue full (%d jobs); the user is told", self.capacity + self.workers)
            if on_busy is not None:
                await on_busy()
            try:
                await asyncio.wait_for(self._admitted.acquire(), self.give_up_s)
            except TimeoutError:
                raise Overloaded(f"no room in the answer queue for {self.give_up_s:.0f} s") from None
        else:
            await self._admitted.acquire()
        self._jobs += 1
        loop = asyncio.get_running_loop()
        try:
            async with self._running:
                # In the caller's context, as `asyncio.to_thread` would: the UI language is there.
                call = functools.partial(contextvars.copy_context().run, function, *args, **kwargs)
                return await loop.run_in_executor(self._executor, call)
        finally:
            self._jobs -= 1
            self._admitted.release()
            if not self._jobs:
                # The last of a burst: what its requests held is free now; hand it back.
                loop.run_in_executor(self._executor, give_back_freed_memory)

    def close(self) -> None:
        """Let the threads end once their current jobs are done (nothing new is started)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
