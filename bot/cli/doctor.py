"""``sakuin doctor [--json]``: what a new installation gets wrong, each check with what to do.

Checks, in order (names are a contract, product.md): ``settings``; ``bot token`` (``auth.test``);
``app token`` (``apps.connections.open``, when SLACK_APP_TOKEN is set); ``scopes`` (the
``x-oauth-scopes`` Slack returns with ``auth.test``, against the manifest's); one ``digest channel
C…`` per DIGEST_CHANNEL (``conversations.info``: it exists, the bot is a member); ``vault``
(pages found, notes left out per folder and files skipped, and why); ``index`` (present, brought
up to date, its generation); ``state store`` (reachable and writable); ``git remote`` (when
WIKI_GIT_URL is set); ``inbox`` (where questions for the wiki land: the push branch accepts a
push, or the vault's inbox folder is writable; bot/cli/doctor_inbox.py); ``LLM endpoint`` (when
LLM_BASE_URL is set); ``MCP token`` (its strength, when MCP_TOKEN is set). Nothing printed ever holds a
token, a password or a key. The names are identifiers; the details are in the UI language.
The Slack checks are in bot/cli/doctor_slack.py; the report's shape in bot/cli/doctor_report.py.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import openai
import psycopg

from bot.cli.doctor_inbox import check_inbox
from bot.cli.doctor_report import Check
from bot.cli.doctor_slack import check_app_token, check_bot_token, check_digest_channel, check_scopes
from bot.cli.reasons import reason_text
from bot.digest.days import dating_signals
from bot.errors import describe_error
from bot.i18n import _
from bot.llm.client import model_client, model_headers
from bot.serve.git_sync import GitError, GitSync
from bot.slack.client import build_client
from bot.state.store import PostgresStateStore, SqliteStateStore, StateStore
from config.credentials import redact_text, redact_url
from config.modes import MODES, missing_settings
from config.settings import Settings
from index import IndexReport, VaultSurvey, Wiki, current_generation

STATE_OUTAGE_S = 3.0
"""How long the state store check waits for an unreachable database."""
STATE_CONNECT_TIMEOUT_S = 3
"""libpq's ``connect_timeout`` for the check's own first connection."""
MAX_LISTED = 5
"""Skipped files (or models) named in a detail; the rest are counted."""
MIN_MCP_TOKEN_CHARS = 32
MIN_MCP_TOKEN_DISTINCT = 12
"""A token of 32 random URL-safe characters has about 25 different ones: fewer than this is a
pattern (``aaaa…``, ``1234…``), not a secret."""

BuildIndex = Callable[[Wiki], IndexReport]


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
    checks.append(await check_inbox(settings))
    if settings.llm_base_url is not None:
        checks.append(await check_llm_endpoint(settings))
    if settings.mcp_token is not None:
        checks.append(check_mcp_token(settings))
    return [hide_secrets(check, settings) for check in checks]


def hide_secrets(check: Check, settings: Settings) -> Check:
    """A last guard: no detail may show a configured secret, whatever an API echoed back."""
    detail = redact_text(check.detail, settings.wiki_git_url, str(settings.state_db), settings.llm_base_url)
    for secret in (
        settings.slack_bot_token,
        settings.slack_app_token,
        settings.slack_signing_secret,
        settings.llm_api_key,
        settings.wiki_git_webhook_secret,
        settings.mcp_token,
    ):
        if secret is not None and secret.get_secret_value():
            detail = detail.replace(secret.get_secret_value(), "***")
    return Check(check.name, check.ok, detail)


# -- settings (Slack's checks: bot/cli/doctor_slack.py) -------------------------------------------


def check_settings(settings: Settings) -> Check:
    """Ready for a mode exactly when that mode would start (`config.modes`); else every missing
    setting, named at once."""
    problems = []
    missing = {mode: missing_settings(settings, mode) for mode in MODES}
    ready = [mode for mode, names in missing.items() if not names]
    if not ready:
        problems.append(
            "; ".join(
                _("{mode} is missing {settings}").format(mode=mode, settings=", ".join(names))
                for mode, names in missing.items()
            )
        )
    if settings.slack_signing_secret is None and settings.slack_app_token is None:
        problems.append(
            _(
                "set SLACK_SIGNING_SECRET (for sakuin serve) or SLACK_APP_TOKEN (for sakuin socket):"
                " with neither the bot cannot receive anything"
            )
        )
    if settings.wiki_git_webhook_secret is not None and settings.wiki_git_url is None:
        problems.append(
            _("WIKI_GIT_WEBHOOK_SECRET is set without WIKI_GIT_URL: set the URL or drop the secret")
        )
    if problems:
        return Check("settings", False, "; ".join(problems))
    detail = _("valid; ready for {modes}").format(modes=_(" and ").join(ready))
    for mode, names in missing.items():
        if names:
            detail += _(" ({mode} would also need {settings})").format(mode=mode, settings=", ".join(names))
    return Check("settings", True, detail)


# -- vault, index, state ----------------------------------------------------------------------


def check_vault_and_index(settings: Settings, build_index: BuildIndex | None = None) -> list[Check]:
    """Bring the index up to date (what a reading command does first) and report both."""
    vault = settings.wiki_dir
    if not vault.is_dir():
        if settings.wiki_git_url is not None:
            note = _(
                "{vault} is not cloned yet: sakuin serve and socket clone WIKI_GIT_URL into it at start"
            ).format(vault=vault)
            return [
                Check("vault", True, note),
                Check("index", True, _("built at start, once the vault is cloned")),
            ]
        return [
            Check(
                "vault",
                False,
                _("WIKI_DIR {vault} is not a folder: point WIKI_DIR at the vault").format(vault=vault),
            ),
            Check("index", False, _("not checked: there is no vault")),
        ]
    wiki = Wiki.open(vault, settings.index_dir, settings.wiki_base_url)
    before = wiki.state()
    started = time.monotonic()
    try:
        report: IndexReport = (build_index or (lambda w: w.update()))(wiki)
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"
        return [
            Check(
                "vault", False, _("{vault} could not be read: {reason}").format(vault=vault, reason=reason)
            ),
            Check(
                "index",
                False,
                _("could not be built in {index}: {reason}").format(index=settings.index_dir, reason=reason),
            ),
        ]
    survey = report.survey or wiki.survey()
    return [
        _vault_check(vault, report, survey, dating_signals(settings, wiki)),
        _index_check(settings.index_dir, before.status, report, started),
    ]


def _vault_check(vault: Path, report: IndexReport, survey: VaultSurvey, signals: dict[str, int]) -> Check:
    """Pages found, the signals that tell the digest when each was added, notes left out per
    folder and why, files that could not be pages; a vault whose notes are mostly left out (the
    survey's warning) fails."""
    parts = [
        _("{pages} pages in {vault} ({layout} layout)").format(
            pages=report.pages, vault=vault, layout=survey.layout
        )
    ]
    if signals:
        counted = ", ".join(
            f"{by} {count}" for by, count in sorted(signals.items(), key=lambda item: -item[1])
        )
        parts.append(_("the digest dates pages by {signals}").format(signals=counted))
    left_out = [
        f"{folder.folder} {sum(count for _reason, count in folder.left_out)} ("
        + ", ".join(f"{reason_text(reason)}: {count}" for reason, count in folder.left_out)
        + ")"
        for folder in survey.folders
        if folder.left_out
    ]
    if left_out:
        listed = "; ".join(left_out[:MAX_LISTED]) + _more(len(left_out))
        parts.append(_("left out: {folders}").format(folders=listed))
    if report.skipped:
        named = ", ".join(f"{item.path} ({reason_text(item.reason)})" for item in report.skipped[:MAX_LISTED])
        parts.append(
            _("skipped {count}: {files}").format(
                count=len(report.skipped), files=named + _more(len(report.skipped))
            )
        )
    if survey.warning or report.pages == 0:
        warning = survey.warning or _("no pages found")
        question = _("{warning}: is WIKI_DIR the vault?").format(warning=warning)
        return Check("vault", False, question + " " + "; ".join(parts))
    return Check("vault", True, "; ".join(parts))


def _more(count: int) -> str:
    return _(" and {count} more").format(count=count - MAX_LISTED) if count > MAX_LISTED else ""


def _index_check(index_dir: Path, status_before: str, report: IndexReport, started: float) -> Check:
    generation = current_generation(index_dir)
    generation_name = generation.name if generation else _("no generation")
    where = f"{index_dir} ({generation_name})"
    seconds = time.monotonic() - started
    if status_before != "ready":
        detail = _("{where}: there was none; built now ({pages} pages in {seconds:.1f} s)")
        return Check("index", True, detail.format(where=where, pages=report.pages, seconds=seconds))
    moved = report.added + report.changed + report.removed
    if moved:
        return Check(
            "index",
            True,
            _(
                "{where}: was behind the vault ({added} added, {changed} changed, {removed} removed);"
                " brought up to date"
            ).format(where=where, added=report.added, changed=report.changed, removed=report.removed),
        )
    return Check(
        "index",
        True,
        _("{where}: present and up to date, {pages} pages").format(where=where, pages=report.pages),
    )


def check_state_store(settings: Settings) -> Check:
    location = settings.state_db
    if not isinstance(location, Path):
        refused = postgres_connect_problem(str(location))
        if refused is not None:
            return Check("state store", False, refused)
    try:
        if isinstance(location, Path):
            store: StateStore = SqliteStateStore(location)
            label = f"SQLite {location}"
        else:
            store = PostgresStateStore(location, outage_s=STATE_OUTAGE_S)
            label = _("PostgreSQL {location} (schema version {version})").format(
                location=store.location, version=store.schema_version
            )
        with store:
            store.claim_event(f"sakuin-doctor-{uuid.uuid4().hex}")
    except Exception as error:
        return Check(
            "state store",
            False,
            _(
                "{error}: check STATE_DB (a writable file path, or a"
                " postgresql://user:password@host:port/db URL the bot can reach)"
            ).format(error=describe_error(error)),
        )
    return Check("state store", True, _("{store}: reachable and writable").format(store=label))


def postgres_connect_problem(url: str) -> str | None:
    """Why one direct connection to ``url`` fails, with what to do; None when it connects.

    The store's pool only ever says it timed out (``PoolTimeout``): libpq's own reason (refused,
    unknown host, no such database or role, password) is read from a connection of our own.
    """
    try:
        with psycopg.connect(url, connect_timeout=STATE_CONNECT_TIMEOUT_S, application_name="sakuin doctor"):
            return None
    except psycopg.Error as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = redact_text("; ".join(lines) or type(error).__name__, url)
        return _(
            "PostgreSQL {location}: {reason}: check STATE_DB (host and port of a running server"
            " reachable from here, the user and password, and a database that exists: createdb it"
            " first)"
        ).format(location=redact_url(url), reason=reason)


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
            _(
                "{remote}: {error}: check WIKI_GIT_URL (for https, a token with read access in the"
                " URL; for ssh, the machine's key) and WIKI_GIT_BRANCH"
            ).format(remote=sync.remote, error=error),
        )
    detail = _("{remote} reachable; {branch} at {commit}").format(
        remote=sync.remote, branch=branch, commit=commit[:10]
    )
    return Check("git remote", True, detail)


async def check_llm_endpoint(settings: Settings) -> Check:
    """``GET {LLM_BASE_URL}/models`` with the key (the cheapest authenticated call), through the
    client and headers the answers use (bot/llm/client.py); the model must be among those listed, when
    any are."""
    assert settings.llm_base_url is not None
    client = model_client(settings, max_retries=0)
    where = f"GET {settings.llm_base_url.rstrip('/')}/models"
    try:
        page = await client.models.list(extra_headers=model_headers(settings))
        models = [model.id async for model in page]
    except openai.APIStatusError as error:
        hint = _(" (LLM_API_KEY refused)") if error.status_code in (401, 403) else ""
        detail = _("{where} answered HTTP {status}").format(where=where, status=error.status_code)
        return Check("LLM endpoint", False, detail + hint)
    except openai.APIError as error:
        return Check(
            "LLM endpoint",
            False,
            _("{where} failed: {error}: check LLM_BASE_URL (it ends in /v1)").format(
                where=where, error=describe_error(error)
            ),
        )
    finally:
        await client.close()
    if models and settings.llm_model not in models:
        listed = ", ".join(models[:MAX_LISTED])
        return Check(
            "LLM endpoint",
            False,
            _("LLM_MODEL {model} is not among the {count} models it serves: {listed}").format(
                model=settings.llm_model, count=len(models), listed=listed
            ),
        )
    among = (
        _("; {count} models, {model} among them").format(count=len(models), model=settings.llm_model)
        if models
        else ""
    )
    return Check("LLM endpoint", True, _("{url} answers").format(url=settings.llm_base_url) + among)


# -- MCP --------------------------------------------------------------------------------------


def check_mcp_token(settings: Settings) -> Check:
    """Whoever holds ``MCP_TOKEN`` reads the whole wiki over ``/mcp``: it must not be guessable."""
    assert settings.mcp_token is not None
    token = settings.mcp_token.get_secret_value()
    length, distinct = len(token), len(set(token))
    if length < MIN_MCP_TOKEN_CHARS or distinct < MIN_MCP_TOKEN_DISTINCT:
        return Check(
            "MCP token",
            False,
            _(
                "MCP_TOKEN is weak ({length} characters, {distinct} different): whoever guesses it reads"
                " the whole wiki over /mcp; use at least {minimum} random characters, such as the output"
                ' of: python -c "import secrets; print(secrets.token_urlsafe(32))"'
            ).format(length=length, distinct=distinct, minimum=MIN_MCP_TOKEN_CHARS),
        )
    return Check(
        "MCP token",
        True,
        _("{length} characters: /mcp of sakuin serve is behind it").format(length=length),
    )
