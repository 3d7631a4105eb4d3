"""Shared fixtures and the two ways a test waits. No test reads the developer's real environment or `.env`."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from config.settings import Settings
from config.system import LOCALE_VARIABLES

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_VAULT = REPO / "examples" / "vault"
SEEDS = REPO / "tests" / "fixtures" / "seeds"
"""The two real seed pages (flattened exports) exactly as the user handed them over."""
_OUR_VARIABLES = tuple(name.upper() for name in Settings.model_fields)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Remove every SLACK_* variable, every variable Settings reads and the locale the terminal's
    language follows (`config.system`); run outside the repo."""
    for name in list(os.environ):
        if name.startswith("SLACK_") or name in _OUR_VARIABLES or name in LOCALE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    """Settings for a test: no `.env`, index and state under ``tmp_path``, the UI in English.

    Tests read English labels unless they ask for another ``ui_language`` (the UI language tests
    in ``tests/bot/test_i18n.py`` run ``ja``, ``en`` and ``auto``).
    """
    values: dict[str, object] = {
        "wiki_dir": EXAMPLE_VAULT,
        "index_dir": tmp_path / "index",
        "state_db": tmp_path / "state.sqlite3",
        "ui_language": "en",
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


async def eventually(
    condition: Callable[[], object], *, timeout: float = 10.0, what: str | Callable[[], str] = "the condition"
) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``timeout`` seconds.

    The one poll helper of the tests: wait on what the code under test does, never on the clock.
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            described = what if isinstance(what, str) else what()
            raise AssertionError(f"timed out after {timeout} s waiting for {described}")
        await asyncio.sleep(0.01)


class Hold:
    """Something a test holds (a lock, a gate) until it lets go, or until ``deadline_s`` passes.

    The deadline runs on its own thread, so a test whose event loop is blocked still ends (and
    fails: what it waited for came after ``released_at``). Waiters call `wait` from any thread.
    """

    def __init__(self, deadline_s: float = 20.0) -> None:
        self.released_at: float | None = None
        self._released = threading.Event()
        self._guard = threading.Lock()
        self._timer = threading.Timer(deadline_s, self.let_go)
        self._timer.daemon = True
        self._timer.start()

    def let_go(self) -> None:
        with self._guard:
            if self.released_at is None:
                self.released_at = time.monotonic()
                self._timer.cancel()
                self._released.set()

    def wait(self) -> None:
        self._released.wait()

    def held_at(self, moment: float) -> bool:
        """Whether ``moment`` (``time.monotonic()``) came before the release."""
        return self.released_at is None or moment < self.released_at

    def __enter__(self) -> Hold:
        return self

    def __exit__(self, *exc: object) -> None:
        self.let_go()
