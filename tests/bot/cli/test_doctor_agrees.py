"""``sakuin doctor`` and the modes it vouches for agree: on one environment, doctor says "ready for
sakuin serve" exactly when ``sakuin serve`` would start, and names every missing setting at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.conftest import APP_TOKEN, BOT_TOKEN, SIGNING_SECRET
from tests.bot.serve.test_git_sync import closed_port
from tests.conftest import REPO
from tests.vaults import SMALL_VAULT, write_vault

CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"


def sakuin(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``sakuin ARGS`` in its own process, with only ``env`` of our settings (Slack unreachable)."""
    ours = {
        "PYTHONPATH": str(REPO),
        "WIKI_DIR": str(write_vault(cwd / "vault", SMALL_VAULT)),
        "INDEX_DIR": str(cwd / "index"),
        "STATE_DB": str(cwd / "state.sqlite3"),
        "SLACK_API_URL": f"http://127.0.0.1:{closed_port()}/api/",
        "UI_LANGUAGE": "en",
        "HOST": "127.0.0.1",
        "PORT": str(closed_port()),
    }
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **ours, **env},
    )


@pytest.mark.parametrize(
    ("env", "serve_says", "doctor_says"),
    [
        (
            {"SLACK_SIGNING_SECRET": SIGNING_SECRET},
            "missing setting SLACK_BOT_TOKEN: required by sakuin serve",
            [
                "sakuin serve is missing SLACK_BOT_TOKEN",
                "sakuin socket is missing SLACK_BOT_TOKEN, SLACK_APP_TOKEN",
            ],
        ),
        (
            {},
            "missing settings SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET: required by sakuin serve",
            [
                "sakuin serve is missing SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET",
                "sakuin socket is missing SLACK_BOT_TOKEN, SLACK_APP_TOKEN",
            ],
        ),
        (
            {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_APP_TOKEN": APP_TOKEN},
            "missing setting SLACK_SIGNING_SECRET: required by sakuin serve",
            [],
        ),
    ],
)
def test_doctor_and_serve_refuse_the_same_environment(
    tmp_path: Path, env: dict[str, str], serve_says: str, doctor_says: list[str]
) -> None:
    serve = sakuin(tmp_path, "serve", **env)
    assert serve.returncode == 2
    assert serve.stderr == f"sakuin: {serve_says}\n"

    doctor = sakuin(tmp_path, "doctor", **env)
    settings_line = next(
        line for line in doctor.stdout.splitlines() if line.startswith(("✓ settings", "✗ settings"))
    )
    if doctor_says:
        assert doctor.returncode == 1 and settings_line.startswith("✗ settings: ")
        for said in doctor_says:
            assert said in settings_line
    else:  # ready for Socket Mode only: doctor does not claim serve
        assert "ready for sakuin socket (sakuin serve would also need SLACK_SIGNING_SECRET)" in settings_line
    assert "ready for sakuin serve" not in doctor.stdout


def test_without_a_token_the_slack_checks_say_so_and_no_retry_notices_leak(tmp_path: Path) -> None:
    doctor = sakuin(tmp_path, "doctor", SLACK_SIGNING_SECRET=SIGNING_SECRET, DIGEST_CHANNEL="C0DIGEST")
    lines = doctor.stdout.splitlines()
    assert "✗ scopes: not checked: no token (see bot token)" in lines
    assert "✗ digest channel C0DIGEST: not checked: no token (see bot token)" in lines
    assert "auth.test failed" not in doctor.stdout

    unreachable = sakuin(tmp_path, "doctor", SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET=SIGNING_SECRET)
    assert "✓ settings: valid; ready for sakuin serve" in unreachable.stdout
    assert "✗ bot token: Slack could not be reached at" in unreachable.stdout
    assert "retry handler" not in unreachable.stdout + unreachable.stderr
    assert unreachable.stderr == ""
