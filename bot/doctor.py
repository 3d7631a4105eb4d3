"""``sakuin doctor [--json]``: what a new installation gets wrong, each check with what to do.

Checks, in order (names are a contract, product.md): ``settings``; ``bot token`` (``auth.test``);
``app token`` (``apps.connections.open``, when SLACK_APP_TOKEN is set); ``scopes`` (the
``x-oauth-scopes`` Slack returns with ``auth.test``, against the manifest's); one ``digest channel
C…`` per DIGEST_CHANNEL (``conversations.info``: it exists, the bot is a member); ``vault``
(pages found, notes left out per folder and files skipped, and why); ``index`` (present, brought
up to date, its generation); ``state store`` (reachable and writable); ``git remote`` (when
WIKI_GIT_URL is set); ``LLM endpoint`` (when LLM_BASE_URL is set). Nothing printed ever holds a
token, a password or a key.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import openai
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.git_sync import GitError, GitSync
from bot.manifest import build_manifest
from bot.slack_client import build_client
from bot.state.store import PostgresStateStore, SqliteStateStore, StateStore
from config.credentials import redact_text
from config.settings import Settings
from index.catalog import current_generation
from index.model import IndexReport, VaultSurvey
from index.wiki import Wiki

STATE_OUTAGE_S = 3.0
"""How long the state store check waits for an unreachable database."""
MAX_LISTED = 5
"""Skipped files (or models) named in a detail; the rest are counted."""
SCOPES_HEADER = "x-oauth-scopes"

BuildIndex = Callable[[Wiki], IndexReport]


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


async def run_checks(settings: Settings, *, build_index: BuildIndex | None = None) -> list[Check]:
    """Every check for this configuration, in order. ``build_index(wiki)`` brings the index up to
    date (the command line shows progress); by default ``wiki.update()``."""
    checks = [check_settings(settings)]
    client = build_client(settings)
    token_check, granted = await check_bot_token(client, settings)
    checks.append(token_check)
    if settings.slack_app_token is not None:
        checks.append(await check_app_token(client, settings))
    checks.append(check_scopes(settings, granted, token_check.ok))
    for channel in settings.digest_channel:
        checks.append(await check_digest_channel(client, channel, token_check.ok))
    checks.extend(await asyncio.to_thread(check_vault_and_index, settings, build_index))
    checks.append(await asyncio.to_thread(check_state_store, settings))
    if settings.wiki_git_url is not None:
        checks.append(await check_git_remote(settings))
    if settings.llm_base_url is not None:
        checks.append(await check_llm_endpoint(settings))
    return [hide_secrets(check, settings) for check in checks]


def doctor_json(checks: list[Check]) -> dict:
    return {"checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks]}


def hide_secrets(check: Check, settings: Settings) -> Check:
    """A last guard: no detail may show a configured secret, whatever an API echoed back."""
    detail = redact_text(check.detail, settings.wiki_git_url, str(settings.state_db), settings.llm_base_url)
    for secret in (
        settings.slack_bot_token,
        settings.slack_app_token,
        settings.slack_signing_secret,
        settings.llm_api_key,
        settings.wiki_git_webhook_secret,
    ):
        if secret is not None and secret.get_secret_value():
            detail = detail.replace(secret.get_secret_value(), "***")
    return Check(check.name, check.ok, detail)


# -- settings and Slack -----------------------------------------------------------------------


def check_settings(settings: Settings) -> Check:
    problems = []
    if settings.slack_signing_secret is None and settings.slack_app_token is None:
        problems.append(
            "set SLACK_SIGNING_SECRET (for sakuin serve) or SLACK_APP_TOKEN (for sakuin socket):"
            " with neither the bot cannot receive anything"
        )
    if settings.wiki_git_webhook_secret is not None and settings.wiki_git_url is None:
        problems.append("WIKI_GIT_WEBHOOK_SECRET is set without WIKI_GIT_URL: set the URL or drop the secret")
    if problems:
        return Check("settings", False, "; ".join(problems))
    modes = [
        name
        for name, needed in (
            ("sakuin serve", settings.slack_signing_secret),
            ("sakuin socket", settings.slack_app_token),
        )
        if needed is not None
    ]
    return Check("settings", True, f"valid; ready for {' and '.join(modes)}")


async def check_bot_token(client: AsyncWebClient, settings: Settings) -> tuple[Check, set[str] | None]:
    """``auth.test`` with the bot token; also returns the scopes Slack says it was granted."""
    if settings.slack_bot_token is None:
        return Check(
            "bot token",
            False,
            "SLACK_BOT_TOKEN is not set: copy the Bot User OAuth Token"
            " (xoxb-…) from the app's OAuth & Permissions page",
        ), None
    try:
        response = await client.auth_test()
    except SlackApiError as error:
        return Check(
            "bot token",
            False,
            f"Slack refused it ({_slack_error(error)}): copy the Bot User OAuth"
            " Token (xoxb-…) again from OAuth & Permissions, and reinstall the app if it was revoked",
        ), None
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check(
            "bot token", False, f"Slack could not be reached at {settings.slack_api_url}: {_describe(error)}"
        ), None
    header = next((value for key, value in response.headers.items() if key.lower() == SCOPES_HEADER), None)
    granted = {scope.strip() for scope in header.split(",") if scope.strip()} if header is not None else None
    detail = f"workspace {response.get('team')} ({response.get('team_id')}) as @{response.get('user')} ({response.get('user_id')})"  # noqa: E501
    return Check("bot token", True, detail), granted


async def check_app_token(client: AsyncWebClient, settings: Settings) -> Check:
    assert settings.slack_app_token is not None
    try:
        await client.apps_connections_open(app_token=settings.slack_app_token.get_secret_value())
    except SlackApiError as error:
        return Check(
            "app token",
            False,
            f"Slack refused it ({_slack_error(error)}): create an app-level token"
            " with the connections:write scope under Basic Information, put it in SLACK_APP_TOKEN"
            " (xapp-…), and enable Socket Mode",
        )
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check("app token", False, f"Slack could not be reached: {_describe(error)}")
    return Check("app token", True, "Socket Mode connections can be opened")


def check_scopes(settings: Settings, granted: set[str] | None, token_ok: bool) -> Check:
    needed = build_manifest(settings, None)["oauth_config"]["scopes"]["bot"]
    if not token_ok:
        return Check("scopes", False, "not checked: auth.test failed (see bot token)")
    if granted is None:
        return Check(
            "scopes", False, "Slack did not say which scopes the token has (no x-oauth-scopes header)"
        )
    missing = [scope for scope in needed if scope not in granted]
    if missing:
        return Check(
            "scopes",
            False,
            f"missing {', '.join(missing)}: add {'it' if len(missing) == 1 else 'them'} under OAuth &"
            " Permissions → Bot Token Scopes (or paste `sakuin manifest` into the app's manifest), then"
            " reinstall the app to the workspace",
        )
    return Check("scopes", True, f"all {len(needed)} scopes of the manifest are granted")


async def check_digest_channel(client: AsyncWebClient, channel: str, token_ok: bool) -> Check:
    name = f"digest channel {channel}"
    if not token_ok:
        return Check(name, False, "not checked: auth.test failed (see bot token)")
    try:
        response = await client.conversations_info(channel=channel)
    except SlackApiError as error:
        code = _slack_error(error)
        if code == "channel_not_found":
            return Check(
                name,
                False,
                "no such channel, or a private one the bot is not in: DIGEST_CHANNEL takes"
                " channel ids (C0123ABCD: channel details → About), and a private channel needs"
                " /invite @sakuin first",
            )
        if code == "missing_scope":
            return Check(
                name, False, "cannot look at it: the token lacks channels:read / groups:read (see scopes)"
            )
        return Check(name, False, f"Slack refused to describe it ({code})")
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check(name, False, f"Slack could not be reached: {_describe(error)}")
    info = response.get("channel") or {}
    label = f"#{info['name']}" if info.get("name") else channel
    if info.get("is_archived"):
        return Check(name, False, f"{label} is archived: unarchive it or choose another channel")
    if not info.get("is_member"):
        return Check(name, False, f"the bot is not a member of {label}: type /invite @sakuin in {label}")
    return Check(name, True, f"{label}; the bot is a member")


# -- vault, index, state ----------------------------------------------------------------------


def check_vault_and_index(settings: Settings, build_index: BuildIndex | None = None) -> list[Check]:
    """Bring the index up to date (what a reading command does first) and report both."""
    vault = settings.wiki_dir
    if not vault.is_dir():
        if settings.wiki_git_url is not None:
            note = f"{vault} is not cloned yet: sakuin serve and socket clone WIKI_GIT_URL into it at start"
            return [
                Check("vault", True, note),
                Check("index", True, "built at start, once the vault is cloned"),
            ]
        return [
            Check("vault", False, f"WIKI_DIR {vault} is not a folder: point WIKI_DIR at the vault"),
            Check("index", False, "not checked: there is no vault"),
        ]
    wiki = Wiki.open(vault, settings.index_dir, settings.wiki_base_url)
    before = wiki.state()
    started = time.monotonic()
    try:
        report: IndexReport = (build_index or (lambda w: w.update()))(wiki)
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"
        return [
            Check("vault", False, f"{vault} could not be read: {reason}"),
            Check("index", False, f"could not be built in {settings.index_dir}: {reason}"),
        ]
    survey = report.survey or wiki.survey()
    return [
        _vault_check(vault, report, survey),
        _index_check(settings.index_dir, before.status, report, started),
    ]


def _vault_check(vault: Path, report: IndexReport, survey: VaultSurvey) -> Check:
    """Pages found, notes left out per folder and why, files that could not be pages; a vault
    whose notes are mostly left out (the survey's warning) fails."""
    parts = [f"{report.pages} pages in {vault} ({survey.layout} layout)"]
    left_out = [
        f"{folder.folder} {sum(count for _, count in folder.left_out)} ("
        + ", ".join(f"{reason}: {count}" for reason, count in folder.left_out)
        + ")"
        for folder in survey.folders
        if folder.left_out
    ]
    if left_out:
        parts.append("left out: " + "; ".join(left_out[:MAX_LISTED]) + _more(len(left_out)))
    if report.skipped:
        named = ", ".join(f"{item.path} ({item.reason})" for item in report.skipped[:MAX_LISTED])
        parts.append(f"skipped {len(report.skipped)}: {named}{_more(len(report.skipped))}")
    if survey.warning or report.pages == 0:
        warning = survey.warning or "no pages found"
        return Check("vault", False, f"{warning}: is WIKI_DIR the vault? " + "; ".join(parts))
    return Check("vault", True, "; ".join(parts))


def _more(count: int) -> str:
    return f" and {count - MAX_LISTED} more" if count > MAX_LISTED else ""


def _index_check(index_dir: Path, status_before: str, report: IndexReport, started: float) -> Check:
    generation = current_generation(index_dir)
    where = f"{index_dir} ({generation.name if generation else 'no generation'})"
    seconds = time.monotonic() - started
    if status_before != "ready":
        return Check(
            "index", True, f"{where}: there was none; built now ({report.pages} pages in {seconds:.1f} s)"
        )
    moved = report.added + report.changed + report.removed
    if moved:
        return Check(
            "index",
            True,
            f"{where}: was behind the vault ({report.added} added, {report.changed}"
            f" changed, {report.removed} removed); brought up to date",
        )
    return Check("index", True, f"{where}: present and up to date, {report.pages} pages")


def check_state_store(settings: Settings) -> Check:
    location = settings.state_db
    try:
        if isinstance(location, Path):
            store: StateStore = SqliteStateStore(location)
            label = f"SQLite {location}"
        else:
            store = PostgresStateStore(location, outage_s=STATE_OUTAGE_S)
            label = f"PostgreSQL {store.location} (schema version {store.schema_version})"
        with store:
            store.claim_event(f"sakuin-doctor-{uuid.uuid4().hex}")
    except Exception as error:
        return Check(
            "state store",
            False,
            f"{_describe(error)}: check STATE_DB (a writable file path, or a"
            " postgresql://user:password@host:port/db URL the bot can reach)",
        )
    return Check("state store", True, f"{label}: reachable and writable")


# -- git and the LLM --------------------------------------------------------------------------


async def check_git_remote(settings: Settings) -> Check:
    sync = GitSync.from_settings(settings)
    assert sync is not None
    try:
        branch, commit = await sync.remote_tip()
    except GitError as error:
        return Check(
            "git remote",
            False,
            f"{sync.remote}: {error}: check WIKI_GIT_URL (for https, a token"
            " with read access in the URL; for ssh, the machine's key) and WIKI_GIT_BRANCH",
        )
    return Check("git remote", True, f"{sync.remote} reachable; {branch} at {commit[:10]}")


async def check_llm_endpoint(settings: Settings) -> Check:
    """``GET {LLM_BASE_URL}/models`` with the key (the cheapest authenticated call), through the
    ``openai`` SDK as the answers use it; the model must be among those listed, when any are."""
    assert settings.llm_base_url is not None
    key = settings.llm_api_key.get_secret_value().strip() if settings.llm_api_key else ""
    client = openai.AsyncOpenAI(
        base_url=settings.llm_base_url, api_key=key or "unused", timeout=settings.llm_timeout, max_retries=0
    )
    where = f"GET {settings.llm_base_url.rstrip('/')}/models"
    try:
        page = await client.models.list(extra_headers={} if key else {"Authorization": openai.Omit()})
        models = [model.id async for model in page]
    except openai.APIStatusError as error:
        hint = " (LLM_API_KEY refused)" if error.status_code in (401, 403) else ""
        return Check("LLM endpoint", False, f"{where} answered HTTP {error.status_code}{hint}")
    except openai.APIError as error:
        return Check(
            "LLM endpoint", False, f"{where} failed: {_describe(error)}: check LLM_BASE_URL (it ends in /v1)"
        )
    finally:
        await client.close()
    if models and settings.llm_model not in models:
        listed = ", ".join(models[:MAX_LISTED])
        return Check(
            "LLM endpoint",
            False,
            f"LLM_MODEL {settings.llm_model} is not among the {len(models)} models it serves: {listed}",
        )
    among = f"; {len(models)} models, {settings.llm_model} among them" if models else ""
    return Check("LLM endpoint", True, f"{settings.llm_base_url} answers{among}")


def _slack_error(error: SlackApiError) -> str:
    data = error.response.data if isinstance(error.response.data, dict) else {}
    return str(data.get("error") or f"HTTP {error.response.status_code}")


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
