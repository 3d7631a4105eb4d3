"""The command line's manners: a closed pipe ends it quietly, ``--version``, bare ``sakuin`` is the
help, and the help's index line says when as people say it (in Slack, in each reader's own time)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

import pytest

from bot.blocks.ago import ago, slack_ago
from bot.blocks.help import help_blocks
from bot.cli.commands import main
from bot.i18n import use_language
from index.model import IndexState
from tests.bot.block_kit import message_text
from tests.conftest import EXAMPLE_VAULT, REPO

CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"
NOW = datetime(2026, 12, 1, 21, 30, 41, tzinfo=UTC)


@pytest.mark.parametrize("args", [("search", "--limit", "20", "の"), ("search", "--json", "ByteDance")])
def test_a_closed_pipe_ends_the_command_quietly_with_0(tmp_path: Path, args: tuple[str, ...]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # `| head -1` that has already gone: every write meets a closed pipe
    try:
        done = subprocess.run(
            [sys.executable, "-c", CLI, *args],
            cwd=tmp_path,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={
                **os.environ,
                "PYTHONPATH": str(REPO),
                "WIKI_DIR": str(EXAMPLE_VAULT),
                "INDEX_DIR": str(tmp_path / "index"),
            },
        )
    finally:
        os.close(writer)
    assert done.returncode == 0
    for noise in ("BrokenPipe", "Traceback", "sakuin: error"):  # stderr has only the first build's report
        assert noise not in done.stderr


def test_bare_sakuin_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("usage: sakuin") and "doctor" in captured.out and captured.err == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"sakuin {metadata.version('sakuin')}\n"


@pytest.mark.parametrize(
    ("before", "language", "said"),
    [
        (timedelta(seconds=20), "en", "just now"),
        (timedelta(minutes=1), "en", "1 minute ago"),
        (timedelta(minutes=5, seconds=59), "en", "5 minutes ago"),
        (timedelta(hours=3), "en", "3 hours ago"),
        (timedelta(days=1, hours=2), "en", "1 day ago"),
        (timedelta(days=6), "ja", "6 日前"),
        (timedelta(minutes=5), "ja", "5 分前"),
        (-timedelta(minutes=5), "en", "just now"),  # a clock a little ahead
    ],
)
def test_ago(before: timedelta, language: str, said: str) -> None:
    with use_language(language):  # type: ignore[arg-type]
        assert ago(NOW - before, NOW) == said


def test_ago_past_a_week_is_the_local_date() -> None:
    moment = NOW - timedelta(days=30)
    assert ago(moment, NOW) == moment.astimezone().strftime("%Y-%m-%d")


def test_help_says_when_the_index_was_updated_in_the_readers_time() -> None:
    updated = (datetime.now(UTC) - timedelta(minutes=5, seconds=10)).isoformat(timespec="seconds")
    blocks = help_blocks("/entity", "/wiki", IndexState("ready", pages=56, updated_at=updated))
    stamp = int(datetime.fromisoformat(updated).timestamp())
    assert f"updated <!date^{stamp}^{{ago}}|5 minutes ago>." in message_text(blocks)
    assert slack_ago("2026-12-01T21:30:41", NOW) == f"<!date^{int(NOW.timestamp())}^{{ago}}|just now>"


def test_the_terminal_shows_the_help_with_the_time_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WIKI_DIR", str(EXAMPLE_VAULT))
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("UI_LANGUAGE", "en")
    assert main(["ask", "/wiki help"]) == 0
    out = capsys.readouterr().out
    assert "Index: 49 pages, updated just now." in out and "+00:00" not in out
