"""The answer queue on its own: threads of its own, a bound, a busy signal, a give-up, nothing run twice.

Jobs wait on `Hold`s the test lets go; what is checked is order and counts, never durations.
"""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from bot.answering.queue import JOBS_PER_WORKER, AnswerQueue, Overloaded, default_workers
from tests.conftest import Hold, eventually


class Jobs:
    """Jobs that record which ran, in which thread, and how many ran at once."""

    def __init__(self, hold: Hold) -> None:
        self.hold = hold
        self.ran: list[str] = []
        self.threads: set[str] = set()
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def job(self, name: str, *, held: bool = True) -> str:
        with self._lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            self.threads.add(threading.current_thread().name)
        if held:
            self.hold.wait()
        with self._lock:
            self.running -= 1
            self.ran.append(name)
        return name.upper()


async def test_jobs_run_in_the_queues_own_threads_at_most_workers_at_once():
    queue = AnswerQueue(workers=2, capacity=10)
    with Hold() as hold:
        jobs = Jobs(hold)
        tasks = [asyncio.create_task(queue.run(jobs.job, f"j{n}")) for n in range(5)]
        await eventually(lambda: jobs.running == 2, what="two jobs running")
        hold.let_go()
        results = await asyncio.gather(*tasks)
    queue.close()
    assert results == ["J0", "J1", "J2", "J3", "J4"]
    assert jobs.most_at_once == 2
    assert all(name.startswith("answer") for name in jobs.threads)
    assert sorted(jobs.ran) == [f"j{n}" for n in range(5)]


@pytest.mark.parametrize(
    ("workers", "capacity", "requests", "told_busy"),
    [
        (1, 0, 3, [False, True, True]),
        (1, 2, 5, [False, False, False, True, True]),
        (2, 1, 4, [False, False, False, True]),
        (2, 4, 6, [False] * 6),
    ],
)
async def test_only_jobs_that_find_the_queue_full_are_told_and_all_are_answered_in_order(
    workers: int, capacity: int, requests: int, told_busy: list[bool]
):
    queue = AnswerQueue(workers=workers, capacity=capacity)
    told: list[int] = []
    with Hold() as hold:
        jobs = Jobs(hold)
        tasks = []
        for n in range(requests):

            async def busy(n: int = n) -> None:
                told.append(n)

            tasks.append(asyncio.create_task(queue.run(jobs.job, f"j{n}", on_busy=busy)))
            await asyncio.sleep(0)  # each request reaches the queue before the next is made
        await eventually(lambda: jobs.running == min(workers, requests), what="the first jobs running")
        hold.let_go()
        results = await asyncio.gather(*tasks)
    queue.close()
    assert told == [n for n, busy in enumerate(told_busy) if busy]
    assert queue.busy_count == sum(told_busy)
    assert results == [f"J{n}" for n in range(requests)]
    assert not queue.full


async def test_a_job_that_finds_no_room_in_time_is_overloaded_and_never_runs():
    queue = AnswerQueue(workers=1, capacity=0, give_up_s=0.01)
    with Hold() as hold:
        jobs = Jobs(hold)
        first = asyncio.create_task(queue.run(jobs.job, "first"))
        await eventually(lambda: jobs.running == 1, what="the first job running")
        with pytest.raises(Overloaded):
            await queue.run(jobs.job, "second", held=False)
        hold.let_go()
        assert await first == "FIRST"
    assert await queue.run(jobs.job, "third", held=False) == "THIRD"
    queue.close()
    assert jobs.ran == ["first", "third"]


async def test_an_error_in_a_job_reaches_the_caller_and_frees_its_place():
    queue = AnswerQueue(workers=1, capacity=0)

    def fail() -> None:
        raise ValueError("broken page")

    with pytest.raises(ValueError, match="broken page"):
        await queue.run(fail)
    assert not queue.full
    assert await queue.run(str.upper, "ok") == "OK"
    queue.close()


def test_the_pool_is_as_wide_as_the_cores_this_process_may_use():
    assert default_workers() == len(os.sched_getaffinity(0))
    assert AnswerQueue().workers == default_workers()
    assert AnswerQueue(workers=3).capacity == 3 * JOBS_PER_WORKER
