"""Running a worker process and reading what it cost: wall time, time to its first line, peak memory.

Peak memory is sampled from outside (the resident set of the worker and all its descendants, every 20 ms) and
also read from inside (``ru_maxrss``, exact for the worker itself); the larger is reported.
"""

from __future__ import annotations

import contextlib
import json
import math
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psutil

REPO = Path(__file__).resolve().parent.parent
POLL_S = 0.02


class WorkerFailed(RuntimeError):
    pass


@dataclass(frozen=True)
class WorkerRun:
    result: dict
    wall_s: float
    first_line_s: float | None
    sampled_peak_mb: float

    @property
    def peak_mb(self) -> float:
        inside = self.result.get("self_peak_mb", 0.0) + self.result.get("children_peak_mb", 0.0)
        return max(self.sampled_peak_mb, inside)


def run_worker(task: str, engine: str, vault: Path, index: Path, queries: Path, *extra: str) -> WorkerRun:
    with tempfile.TemporaryDirectory(prefix="sakuin-bench-") as scratch:
        out = Path(scratch) / "result.json"
        command = [
            sys.executable, "-m", "bench.worker", task, "--engine", engine, "--vault", str(vault),
            "--index", str(index), "--queries", str(queries), "--out", str(out), *extra,
        ]  # fmt: skip
        stderr_path = Path(scratch) / "stderr.txt"
        with stderr_path.open("wb") as stderr:
            wall_s, first_line_s, peak_mb, code = _watch(command, stderr)
        if code != 0 or not out.exists():
            tail = stderr_path.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise WorkerFailed(f"{engine} {task} exited with {code}:\n{tail}")
        return WorkerRun(json.loads(out.read_text(encoding="utf-8")), wall_s, first_line_s, peak_mb)


def _watch(command: Sequence[str], stderr: IO[bytes]) -> tuple[float, float | None, float, int]:
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=stderr)
    first_line: list[float] = []

    def read_stdout() -> None:
        assert process.stdout is not None
        for _ in process.stdout:
            if not first_line:
                first_line.append(time.perf_counter() - started)

    reader = threading.Thread(target=read_stdout, daemon=True)
    reader.start()
    peak = 0
    watched = psutil.Process(process.pid)
    while process.poll() is None:
        peak = max(peak, tree_rss(watched))
        time.sleep(POLL_S)
    wall_s = time.perf_counter() - started
    reader.join(timeout=5)
    return wall_s, (first_line[0] if first_line else None), peak / 2**20, process.returncode


def tree_rss(process: psutil.Process) -> int:
    try:
        members = [process, *process.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for member in members:
        with contextlib.suppress(psutil.Error):  # a descendant may exit between listing and reading
            total += member.memory_info().rss
    return total


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); with 300 samples p99 is the third slowest."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)


def disk_mb(path: Path) -> float:
    if path.is_file():
        return path.stat().st_size / 2**20
    return sum(file.stat().st_size for file in path.rglob("*") if file.is_file()) / 2**20
