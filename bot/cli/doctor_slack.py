"""``sakuin doctor``'s checks of the Slack app: the bot token (``auth.test``), the app token
(``apps.connections.open``), the scopes Slack says were granted against the manifest's, and each
digest channel (``conversations.info``: it exists, the bot is a member)."""

from __future__ import annotations

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.cli.doctor_report import Check
from bot.errors import describe_error
from bot.i18n import _, ngettext
from bot.slack.identity import granted_scopes
from bot.slack.manifest import build_manifest, scopes_of_features
from config.settings import Settings


async def check_bot_token(client: AsyncWebClient, settings: Settings) -> tuple[Check, set[str] | None]:
    """``auth.test`` with the bot token; also returns the scopes Slack says it was granted."""
    if settings.slack_bot_token is None:
        return Check(
            "bot token",
            False,
            _(
                "SLACK_BOT_TOKEN is not set: copy the Bot User OAuth Token"
                " (xoxb-…) from the app's OAuth & Permissions page"
            ),
        ), None
    try:
        response = await client.auth_test()
    except SlackApiError as error:
        return Check(
            "bot token",
            False,
            _(
                "Slack refused it ({error}): copy the Bot User OAuth Token (xoxb-…) again from"
                " OAuth & Permissions, and reinstall the app if it was revoked"
            ).format(error=_slack_error(error)),
        ), None
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        detail = _("Slack could not be reached at {url}: {error}").format(
            url=settings.slack_api_url, error=describe_error(error)
        )
        return Check("bot token", False, detail), None
    granted = granted_scopes(response)
    detail = _("workspace {team} ({team_id}) as @{user} ({user_id})").format(
        team=response.get("team"),
        team_id=response.get("team_id"),
        user=response.get("user"),
        user_id=response.get("user_id"),
    )
    return Check("bot token", True, detail), granted


async def check_app_token(client: AsyncWebClient, settings: Settings) -> Check:
    assert settings.slack_app_token is not None
    try:
        await client.apps_connections_open(app_token=settings.slack_app_token.get_secret_value())
    except SlackApiError as error:
        return Check(
            "app token",
            False,
            _(
                "Slack refused it ({error}): create an app-level token with the connections:write"
                " scope under Basic Information, put it in SLACK_APP_TOKEN (xapp-…), and enable"
                " Socket Mode"
            ).format(error=_slack_error(error)),
        )
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check("app token", False, unreachable(error))
    return Check("app token", True, _("Socket Mode connections can be opened"))


def check_scopes(settings: Settings, granted: set[str] | None, token_ok: bool) -> Check:
    needed = build_manifest(settings, None)["oauth_config"]["scopes"]["bot"]
    if not token_ok:
        return Check("scopes", False, not_checked(settings.slack_bot_token is not None))
    if granted is None:
        return Check(
            "scopes", False, _("Slack did not say which scopes the token has (no x-oauth-scopes header)")
        )
    features = scopes_of_features(settings)
    missing = [f"{s} ({features[s]})" if s in features else s for s in needed if s not in granted]
    if missing:
        return Check(
            "scopes",
            False,
            ngettext(
                "missing {scopes}: add it under OAuth & Permissions → Bot Token Scopes (or paste"
                " `sakuin manifest` into the app's manifest), then reinstall the app to the workspace",
                "missing {scopes}: add them under OAuth & Permissions → Bot Token Scopes (or paste"
                " `sakuin manifest` into the app's manifest), then reinstall the app to the workspace",
                len(missing),
            ).format(scopes=", ".join(missing)),
        )
    return Check(
        "scopes", True, _("all {count} scopes of the manifest are granted").format(count=len(needed))
    )


async def check_digest_channel(client: AsyncWebClient, channel: str, token_ok: bool) -> Check:
    name = f"digest channel {channel}"
    if not token_ok:
        return Check(name, False, not_checked(client.token is not None))
    try:
        response = await client.conversations_info(channel=channel)
    except SlackApiError as error:
        code = _slack_error(error)
        if code == "channel_not_found":
            return Check(
                name,
                False,
                _(
                    "no such channel, or a private one the bot is not in: DIGEST_CHANNEL takes"
                    " channel ids (C0123ABCD: channel details → About), and a private channel needs"
                    " /invite @sakuin first"
                ),
            )
        if code == "missing_scope":
            return Check(
                name, False, _("cannot look at it: the token lacks channels:read / groups:read (see scopes)")
            )
        return Check(name, False, _("Slack refused to describe it ({code})").format(code=code))
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check(name, False, unreachable(error))
    info = response.get("channel") or {}
    label = f"#{info['name']}" if info.get("name") else channel
    if info.get("is_archived"):
        return Check(
            name,
            False,
            _("{channel} is archived: unarchive it or choose another channel").format(channel=label),
        )
    if not info.get("is_member"):
        detail = _("the bot is not a member of {channel}: type /invite @sakuin in {channel}")
        return Check(name, False, detail.format(channel=label))
    return Check(name, True, _("{channel}; the bot is a member").format(channel=label))


def not_checked(has_token: bool) -> str:
    """Why a check that needs a working bot token was not made."""
    if not has_token:
        return _("not checked: no token (see bot token)")
    return _("not checked: auth.test failed (see bot token)")


def unreachable(error: BaseException) -> str:
    return _("Slack could not be reached: {error}").format(error=describe_error(error))


def _slack_error(error: SlackApiError) -> str:
    data = error.response.data if isinstance(error.response.data, dict) else {}
    return str(data.get("error") or f"HTTP {error.response.status_code}")
