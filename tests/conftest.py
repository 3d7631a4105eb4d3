"""Shared fixtures. No test reads the developer's real environment or `.env`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from config.settings import Settings

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_VAULT = REPO / "examples" / "vault"
SEEDS = REPO / "tests" / "fixtures" / "seeds"
"""The two real seed pages (flattened exports) exactly as the user handed them over."""
_OUR_VARIABLES = tuple(name.upper() for name in Settings.model_fields)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Remove every SLACK_* variable and every variable Settings reads; run outside the repo."""
    for name in list(os.environ):
        if name.startswith("SLACK_") or name in _OUR_VARIABLES:
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
