"""``sakuin doctor``: each check against the fake Slack, real repositories, a real PostgreSQL and a
small OpenAI-style endpoint; and the command itself, as a process, for its output and exit code."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.doctor import run_checks
from bot.cli.doctor_report import Check
from bot.llm.client import LEFT_OUT_HEADERS
from bot.slack.manifest import build_manifest
from bot.state.store import POSTGRES_MIGRATIONS
from config.settings import GIT_VAULT, Settings
from tests.bot.conftest import APP_TOKEN, BOT_TOKEN, SIGNING_SECRET, bot_settings
from tests.bot.fake_openai import FakeOpenAI
from tests.bot.fake_slack import FakeSlack
from tests.bot.git_remote import GitHttp, Remote, git
from tests.bot.serve.test_git_sync import closed_port
from tests.conftest import EXAMPLE_VAULT, REPO, make_settings
from tests.postgres import PASSWORD
from tests.vaults import SMALL_VAULT, entity, write_vault

CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"
LLM_KEY = "sk-test-llm-key-0123456789"


def manifest_scopes() -> tuple[str, ...]:
    return tuple(build_manifest(make_settings(Path(".")), None)["oauth_config"]["scopes"]["bot"])


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as fake:
        fake.granted_scopes = manifest_scopes()
        fake.channel_info = {
            "C0DIGEST": {"name": "research", "is_member": True},
            "C0OUTSIDE": {"name": "random", "is_member": False},
            "C0OLD": {"name": "old-digest", "is_member": True, "is_archived": True},
        }
        yield fake


@pytest.fixture
async def llm() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(key=LLM_KEY, models=("small-model", "big-model")) as model:
        yield model


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in checks}


def settings_for(tmp_path: Path, slack: FakeSlack, **overrides: object) -> Settings:
    """The bot's test settings on a small vault of this test's (quick to index)."""
    if "wiki_dir" not in overrides:
        overrides["wiki_dir"] = write_vault(tmp_path / "vault", SMALL_VAULT)
    return bot_settings(tmp_path, slack, **overrides)


async def test_a_good_installation_passes_every_check(
    tmp_path: Path, slack: FakeSlack, llm: FakeOpenAI
) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    settings = bot_settings(
        tmp_path,
        slack,
        digest_channel="C0DIGEST",
        wiki_git_url=remote.url,
        wiki_dir=EXAMPLE_VAULT,
        llm_base_url=llm.base_url,
        llm_model="small-model",
        llm_api_key=LLM_KEY,
    )
    checks = await run_checks(settings)
    assert [check.name for check in checks] == [
        "settings",
        "bot token",
        "app token",
        "scopes",
        "digest channel C0DIGEST",
        "vault",
        "index",
        "state store",
        "git remote",
        "inbox",
        "LLM endpoint",
    ]
    assert all(check.ok for check in checks), [c for c in checks if not c.ok]
    found = by_name(checks)
    assert "T0FAKE" in found["bot token"].detail and "#research" in found["digest channel C0DIGEST"].detail
    assert found["vault"].detail.startswith("49 pages in ") and "empty file" not in found["vault"].detail
    # The example vault's log names most pages as created; the rest carry `created:`.
    assert "the digest dates pages by log 34, frontmatter:created 13; " in found["vault"].detail
    assert "gen-0001" in found["index"].detail
    assert f"main at {remote.head()[:10]}" in found["git remote"].detail
    assert "(made from main by the first request)" in found["inbox"].detail
    assert "small-model among them" in found["LLM endpoint"].detail
    # A second run finds the index it built up to date.
    assert "present and up to date" in by_name(await run_checks(settings))["index"].detail


async def test_each_missing_scope_is_named(tmp_path: Path, slack: FakeSlack) -> None:
    slack.granted_scopes = tuple(s for s in manifest_scopes() if s not in ("links:write", "channels:history"))
    check = by_name(await run_checks(settings_for(tmp_path, slack)))["scopes"]
    assert not check.ok
    assert check.detail.startswith(
        "missing links:write, channels:history: add them under OAuth & Permissions"
    )
    assert "reinstall" in check.detail


@pytest.mark.parametrize(
    ("overrides", "missing", "says"),
    [
        ({}, "reactions:read", "missing reactions:read (ASK_REACTION): add it under"),
        (
            {"agent_experience": "agent"},
            "assistant:write",
            "missing assistant:write (AGENT_EXPERIENCE): add it",
        ),
        ({"agent_experience": "assistant"}, "assistant:write", "missing assistant:write (AGENT_EXPERIENCE)"),
    ],
)
async def test_a_scope_a_feature_needs_is_named_with_its_setting(
    tmp_path: Path, slack: FakeSlack, overrides: dict, missing: str, says: str
) -> None:
    settings = settings_for(tmp_path, slack, **overrides)
    needed = build_manifest(settings, None)["oauth_config"]["scopes"]["bot"]
    slack.granted_scopes = tuple(scope for scope in needed if scope != missing)
    check = by_name(await run_checks(settings))["scopes"]
    assert not check.ok and check.detail.startswith(says)
    slack.granted_scopes = tuple(needed)
    assert by_name(await run_checks(settings))["scopes"].ok


async def test_without_the_ask_reaction_its_scope_is_not_needed(tmp_path: Path, slack: FakeSlack) -> None:
    slack.granted_scopes = tuple(s for s in manifest_scopes() if s != "reactions:read")
    assert by_name(await run_checks(settings_for(tmp_path, slack, ask_reaction="")))["scopes"].ok


@pytest.mark.parametrize(
    ("channel", "ok", "says"),
    [
        ("C0DIGEST", True, "#research; the bot is a member"),
        ("C0OUTSIDE", False, "the bot is not a member of #random: type /invite @sakuin in #random"),
        ("C0OLD", False, "#old-digest is archived"),
        ("C0GONE", False, "no such channel"),
    ],
)
async def test_digest_channels_exist_and_have_the_bot(
    tmp_path: Path, slack: FakeSlack, channel: str, ok: bool, says: str
) -> None:
    settings = settings_for(tmp_path, slack, digest_channel=f"C0DIGEST,{channel}")
    checks = [c for c in await run_checks(settings) if c.name.startswith("digest channel")]
    assert [c.name for c in checks] == ["digest channel C0DIGEST", f"digest channel {channel}"]
    assert checks[1].ok is ok and says in checks[1].detail


async def test_refused_tokens(tmp_path: Path, slack: FakeSlack) -> None:
    settings = settings_for(
        tmp_path, slack, slack_bot_token="xoxp-not-a-bot-token-4242", slack_app_token="xoxb-not-an-app-token"
    )
    found = by_name(await run_checks(settings))
    assert not found["bot token"].ok and "invalid_auth" in found["bot token"].detail
    assert not found["app token"].ok and "connections:write" in found["app token"].detail
    assert not found["scopes"].ok and "not checked" in found["scopes"].detail
    text = json.dumps([c.detail for c in found.values()])
    assert "xoxp-not-a-bot-token-4242" not in text and "xoxb-not-an-app-token" not in text


async def test_settings_that_cannot_work_together(tmp_path: Path, slack: FakeSlack) -> None:
    settings = make_settings(
        tmp_path,
        slack_bot_token=BOT_TOKEN,
        slack_api_url=slack.api_url,
        wiki_git_webhook_secret="s",
        wiki_dir=write_vault(tmp_path / "vault", SMALL_VAULT),
    )
    check = by_name(await run_checks(settings))["settings"]
    assert not check.ok
    assert "SLACK_SIGNING_SECRET" in check.detail and "WIKI_GIT_WEBHOOK_SECRET" in check.detail


async def test_vault_and_index_problems(tmp_path: Path, slack: FakeSlack) -> None:
    missing = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=tmp_path / "nowhere")))
    assert not missing["vault"].ok and "is not a folder" in missing["vault"].detail
    (tmp_path / "empty").mkdir()
    empty = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=tmp_path / "empty")))
    assert not empty["vault"].ok and "no notes found" in empty["vault"].detail
    raw = write_vault(
        tmp_path / "raw", {"wiki/entities/A.md": entity("A"), **{f"raw/n{i}.md": "# n" for i in range(6)}}
    )
    mostly_left_out = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=raw)))["vault"]
    assert not mostly_left_out.ok
    assert "most notes were left out (6 of 7)" in mostly_left_out.detail
    assert "left out: raw 6 (outside wiki/" in mostly_left_out.detail
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    uncloned = by_name(
        await run_checks(settings_for(tmp_path, slack, wiki_git_url=remote.url, wiki_dir=GIT_VAULT))
    )
    assert uncloned["vault"].ok and "not cloned yet" in uncloned["vault"].detail
    assert uncloned["git remote"].ok


async def test_the_vault_check_counts_links_and_fifos_it_did_not_read(
    tmp_path: Path, slack: FakeSlack
) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    os.symlink("/proc/self/environ", vault / "wiki/entities/Environ.md")
    os.symlink(vault / "wiki/concepts", vault / "wiki/entities/linked")
    os.mkfifo(vault / "wiki/entities/Pipe.md")
    check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=vault)))["vault"]
    assert check.ok and "12 pages" in check.detail
    # SMALL_VAULT's wiki/entities/_index.md is the catalog; the linked folder counts where it is
    assert "wiki/entities 4 (symbolic link: 2, catalog: 1, not a regular file: 1)" in check.detail


async def test_state_store_on_postgresql(tmp_path: Path, slack: FakeSlack, postgres_url: str) -> None:
    check = by_name(await run_checks(settings_for(tmp_path, slack, state_db=postgres_url)))["state store"]
    latest = f"schema version {len(POSTGRES_MIGRATIONS)}"
    assert check.ok and latest in check.detail and "reachable and writable" in check.detail
    assert PASSWORD not in check.detail and ":***@127.0.0.1" in check.detail


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("closed-port", "Connection refused"),
        ("no-database", 'database "sakuin_missing" does not exist'),
        ("no-role", 'role "nobody" does not exist'),
    ],
)
async def test_state_store_says_why_postgresql_refused(
    tmp_path: Path, slack: FakeSlack, postgres_url: str, where: str, reason: str
) -> None:
    server = postgres_url.rsplit("/", 1)[0]
    url = {
        "closed-port": f"postgresql://sakuin:{PASSWORD}@127.0.0.1:{closed_port()}/sakuin",
        "no-database": f"{server}/sakuin_missing",
        "no-role": server.replace("postgres:", "nobody:", 1) + "/postgres",
    }[where]
    check = by_name(await run_checks(settings_for(tmp_path, slack, state_db=url)))["state store"]
    assert not check.ok and reason in check.detail and "check STATE_DB" in check.detail
    assert PASSWORD not in check.detail and ":***@127.0.0.1" in check.detail


async def test_an_unreachable_git_remote_without_its_token(tmp_path: Path, slack: FakeSlack) -> None:
    url = f"https://x-access-token:ghp-secret-0123@127.0.0.1:{closed_port()}/team/wiki.git"
    check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_git_url=url)))["git remote"]
    assert not check.ok and "ghp-secret" not in check.detail and "x-access-token:***@" in check.detail
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    settings = settings_for(tmp_path, slack, wiki_git_url=remote.url, wiki_git_branch="nope")
    check = by_name(await run_checks(settings))["git remote"]
    assert not check.ok and "no branch nope on the remote" in check.detail


@pytest.mark.parametrize(
    ("model", "key", "ok", "says"),
    [
        ("big-model", LLM_KEY, True, "2 models, big-model among them"),
        ("gpt-typo", LLM_KEY, False, "LLM_MODEL gpt-typo is not among the 2 models it serves: small-model"),
        ("big-model", "sk-wrong", False, "HTTP 401 (LLM_API_KEY refused)"),
    ],
)
async def test_llm_endpoint(
    tmp_path: Path, slack: FakeSlack, llm: FakeOpenAI, model: str, key: str, ok: bool, says: str
) -> None:
    settings = settings_for(tmp_path, slack, llm_base_url=llm.base_url, llm_model=model, llm_api_key=key)
    check = by_name(await run_checks(settings))["LLM endpoint"]
    assert check.ok is ok and says in check.detail and key not in check.detail


@pytest.mark.parametrize("key", [LLM_KEY, None])
async def test_llm_endpoint_is_asked_as_the_answers_ask(
    tmp_path: Path, slack: FakeSlack, llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-from-the-environment")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-from-the-environment")
    llm.key = key
    settings = settings_for(
        tmp_path, slack, llm_base_url=llm.base_url, llm_model="big-model", llm_api_key=key
    )
    assert by_name(await run_checks(settings))["LLM endpoint"].ok
    (headers,) = llm.listings
    sent = {name.lower() for name in headers}
    assert not sent & {name.lower() for name in LEFT_OUT_HEADERS}
    assert ("authorization" in sent) is (key is not None)


async def doctor(slack: FakeSlack, cwd: Path, *args: str, **env: str) -> tuple[int, str, str]:
    """``sakuin doctor`` in its own process, configured through the environment."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLI, "doctor", *args,
        cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_APP_TOKEN": APP_TOKEN,
            "SLACK_API_URL": slack.api_url,
            "DIGEST_CHANNEL": "C0DIGEST",
            "WIKI_DIR": str(write_vault(cwd / "vault", SMALL_VAULT)),
            "UI_LANGUAGE": "en",
            **env,
        },
    )  # fmt: skip
    stdout, stderr = await process.communicate()
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


async def test_the_command_exits_0_when_all_pass_and_1_naming_what_to_do(
    tmp_path: Path, slack: FakeSlack
) -> None:
    code, out, err = await doctor(slack, tmp_path, "--json")
    assert code == 0, out + err
    checks = json.loads(out)["checks"]
    assert all(set(check) == {"name", "ok", "detail"} and check["ok"] is True for check in checks)

    slack.granted_scopes = tuple(s for s in manifest_scopes() if s != "chat:write")
    code, out, err = await doctor(slack, tmp_path, DIGEST_CHANNEL="C0DIGEST,C0OUTSIDE")
    assert code == 1
    assert "✓ bot token: workspace Fake (T0FAKE)" in out
    assert "✗ scopes: missing chat:write: add it under OAuth & Permissions" in out
    assert "✗ digest channel C0OUTSIDE: the bot is not a member of #random" in out
    for secret in (BOT_TOKEN, APP_TOKEN, SIGNING_SECRET):
        assert secret not in out and secret not in err


async def test_bad_settings_are_a_failed_check(tmp_path: Path, slack: FakeSlack) -> None:
    code, out, _ = await doctor(slack, tmp_path, "--json", DIGEST_TZ="Mars/Olympus")
    assert code == 1
    (check,) = json.loads(out)["checks"]
    assert check["name"] == "settings" and check["ok"] is False and "DIGEST_TZ" in check["detail"]


@pytest.mark.parametrize(
    ("token", "ok", "says"),
    [
        ("Xk3_9vQzL-2mRw7TfYb0NcH8sJd4pAe6UuGq1iOlVtE", True, "43 characters"),
        ("short-token", False, "weak (11 characters"),
        ("a" * 40, False, "40 characters, 1 different"),
        ("12345678901234567890123456789012", False, "32 characters, 10 different"),
    ],
)
async def test_mcp_token_strength(tmp_path: Path, slack: FakeSlack, token: str, ok: bool, says: str) -> None:
    found = by_name(await run_checks(settings_for(tmp_path, slack, mcp_token=token)))
    check = found["MCP token"]
    assert check.ok is ok and says in check.detail
    assert token not in json.dumps([c.detail for c in found.values()])
    if not ok:
        assert "secrets.token_urlsafe(32)" in check.detail


async def test_no_mcp_token_no_mcp_check(tmp_path: Path, slack: FakeSlack) -> None:
    assert "MCP token" not in by_name(await run_checks(settings_for(tmp_path, slack)))


# -- the wiki's inbox (issue 25) ----------------------------------------------------------------


async def test_the_inbox_branch_must_accept_a_push_with_the_token(tmp_path: Path, slack: FakeSlack) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    token = "ghp-inbox-token-0123"
    async with GitHttp(remote, "x-access-token", token) as server:
        check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_git_url=server.url)))["inbox"]
        assert check.ok and "sakuin/inbox" in check.detail and token not in check.detail
        assert server.exposed == []
    async with GitHttp(remote, "x-access-token", token, read_only=True) as server:
        check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_git_url=server.url)))["inbox"]
        assert not check.ok and "needs write access" in check.detail and token not in check.detail
    assert git(remote.bare, "branch", "--list") == "* main"  # a dry run pushes nothing


async def test_without_git_the_inbox_folder_must_be_writable(tmp_path: Path, slack: FakeSlack) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=vault)))["inbox"]
    assert check.ok and str(vault / "inbox/sakuin/") in check.detail
    (vault / "elsewhere").mkdir()
    (vault / "inbox").symlink_to(vault / "elsewhere")
    check = by_name(await run_checks(settings_for(tmp_path, slack, wiki_dir=vault)))["inbox"]
    assert not check.ok and "not a folder (a link?)" in check.detail
