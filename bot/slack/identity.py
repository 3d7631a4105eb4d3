"""Who the bot is in Slack (``auth.test``), learned beside the requests, never in their way.

Bolt's single-workspace authorization calls ``auth.test`` on the first request and, when Slack
cannot be reached, fails that request with HTTP 500 after the SDK's retries: a slash command is
then never acknowledged. `BotIdentity` is Bolt's ``authorize`` instead: it answers from the last
``auth.test`` at once. `check` runs it at start (``sakuin serve`` / ``socket``), logging in one
line what is wrong (a refused token, missing scopes, Slack unreachable) without stopping anything.
Until an answer came, a request is authorized with the token alone; an event (whose listeners
need the bot's user id, to strip its mention and ignore its own messages) waits up to
`EVENT_WAIT_S` for a check in flight, a command or a click never waits. An unreachable Slack is
asked again at most every `RETRY_S` seconds, when a request comes.
"""

from __future__ import annotations

import asyncio
import logging
import time

import aiohttp
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.async_authorize import AsyncAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.slack.manifest import build_manifest
from config.settings import Settings

log = logging.getLogger(__name__)

EVENT_WAIT_S = 1.0
"""How long an event waits for an ``auth.test`` in flight (Slack allows 3 s for its ack)."""
RETRY_S = 60.0
"""How long after Slack could not be reached a request may start another ``auth.test``."""


class BotIdentity(AsyncAuthorize):
    """The bot's token with its user and bot ids once Slack said them (one per app)."""

    def __init__(self, settings: Settings, client: AsyncWebClient) -> None:
        self.settings = settings
        self.client = client
        self.known: AuthorizeResult | None = None
        self.refused = False
        self._check: asyncio.Task[None] | None = None
        self._last_try = -RETRY_S

    async def __call__(
        self,
        *,
        context: AsyncBoltContext,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None,
        **_actor: object,
    ) -> AuthorizeResult:
        if self.known is None and not self.refused:
            check = self._start()
            if check is not None and context.response_url is None:
                await asyncio.wait({asyncio.shield(check)}, timeout=EVENT_WAIT_S)
        if self.known is not None:
            return self.known
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id, bot_token=self.client.token)

    async def check(self) -> None:
        """``auth.test`` now (or join the one in flight)."""
        task = self._start(force=True)
        if task is not None:
            await asyncio.shield(task)

    def _start(self, *, force: bool = False) -> asyncio.Task[None] | None:
        if self._check is None and (force or time.monotonic() - self._last_try >= RETRY_S):
            self._last_try = time.monotonic()
            self._check = asyncio.create_task(self._auth_test(), name="auth.test")
        return self._check

    async def _auth_test(self) -> None:
        try:
            response = await self.client.auth_test()
        except SlackApiError as error:
            self.refused = True
            code = (error.response.data or {}).get("error") if isinstance(error.response.data, dict) else None
            log.error(
                "Slack refused the bot token (%s): copy the Bot User OAuth Token (xoxb-…) again from"
                " OAuth & Permissions and reinstall the app if it was revoked; `sakuin doctor` says more",
                code or f"HTTP {error.response.status_code}",
            )
            return
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            log.warning(
                "could not check the bot token: Slack is unreachable at %s (%s: %s); serving anyway",
                self.settings.slack_api_url,
                type(error).__name__,
                str(error).splitlines()[0] if str(error) else "",
            )
            return
        finally:
            self._check = None
        self.known = AuthorizeResult(
            enterprise_id=response.get("enterprise_id"),
            team_id=response.get("team_id"),
            team=response.get("team"),
            url=response.get("url"),
            bot_user_id=response.get("user_id"),
            bot_id=response.get("bot_id"),
            bot_token=self.client.token,
        )
        log.info(
            "Slack: workspace %s (%s) as @%s (%s)",
            response.get("team"),
            response.get("team_id"),
            response.get("user"),
            response.get("user_id"),
        )
        self._log_missing_scopes(granted_scopes(response))

    def _log_missing_scopes(self, granted: set[str] | None) -> None:
        needed = build_manifest(self.settings, None)["oauth_config"]["scopes"]["bot"]
        missing = [scope for scope in needed if granted is not None and scope not in granted]
        if missing:
            log.error(
                "the bot token lacks %s: add %s under OAuth & Permissions → Bot Token Scopes (or paste"
                " `sakuin manifest` into the app's manifest), then reinstall the app",
                ", ".join(missing),
                "it" if len(missing) == 1 else "them",
            )


SCOPES_HEADER = "x-oauth-scopes"


def granted_scopes(response: AsyncSlackResponse) -> set[str] | None:
    """The scopes Slack says the token was granted (``auth.test``'s ``x-oauth-scopes`` header)."""
    header = next((value for key, value in response.headers.items() if key.lower() == SCOPES_HEADER), None)
    return {scope.strip() for scope in header.split(",") if scope.strip()} if header is not None else None
