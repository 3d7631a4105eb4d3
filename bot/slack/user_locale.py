"""Each Slack user's UI language, from their Slack locale (``users.info`` with ``include_locale``).

Commands, buttons and App Home follow the user's locale under ``UI_LANGUAGE=auto``. The lookup
runs after Slack has been acknowledged, is cached per user, and never holds a reply up for long:
when Slack does not answer within `LOOKUP_WAIT_S` the reply goes out in the fallback language
while the lookup finishes in the background and fills the cache for the next one. A failed
lookup (no ``users:read`` scope, a deleted user, an outage) is remembered for a short while, so
an outage costs one call per user, not one per click.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from slack_sdk.web.async_client import AsyncWebClient

from bot.i18n import LANGUAGES, Language, language_for_locale

log = logging.getLogger(__name__)

LOOKUP_WAIT_S = 1.5
"""How long a reply waits for a first lookup before going out in the fallback language."""
KNOWN_TTL_S = 6 * 3600.0
"""A locale rarely changes; after this long it is looked up again."""
UNKNOWN_TTL_S = 300.0
"""How long a failed lookup is remembered before it is tried again."""
MAX_USERS = 10_000


class UserLanguages:
    """The language to use for each user, looked up once and cached (one per app)."""

    def __init__(self, ui_language: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.ui_language = ui_language
        self._clock = clock
        self._known: dict[str, tuple[Language, float]] = {}
        self._pending: dict[str, asyncio.Task[Language | None]] = {}

    def cached(self, user_id: str | None) -> Language:
        """The language without calling Slack: the setting, the cached locale, or the fallback."""
        if self.ui_language in LANGUAGES or not user_id:
            return language_for_locale(None, self.ui_language)
        entry = self._known.get(user_id)
        return entry[0] if entry else language_for_locale(None, self.ui_language)

    async def language(self, client: AsyncWebClient, user_id: str | None) -> Language:
        """The user's language, asking Slack only when ``UI_LANGUAGE=auto`` and it is not cached."""
        if self.ui_language in LANGUAGES or not user_id:
            return self.cached(user_id)
        entry = self._known.get(user_id)
        if entry and entry[1] > self._clock():
            return entry[0]
        task = self._pending.get(user_id)
        if task is None:
            task = asyncio.create_task(self._look_up(client, user_id), name=f"locale {user_id}")
            self._pending[user_id] = task
        try:
            await asyncio.wait_for(asyncio.shield(task), LOOKUP_WAIT_S)
        except TimeoutError:
            log.info("users.info for %s is slow; answering in the fallback language meanwhile", user_id)
        return self.cached(user_id)

    async def _look_up(self, client: AsyncWebClient, user_id: str) -> Language | None:
        try:
            response = await client.users_info(user=user_id, include_locale=True)
            locale = (response.get("user") or {}).get("locale")
            language = language_for_locale(locale, self.ui_language)
            self._remember(user_id, language, KNOWN_TTL_S)
            return language
        except Exception as error:  # any failure (scope, user, network) only costs the locale
            log.warning(
                "could not read the Slack locale of %s (%s); using the fallback language", user_id, error
            )
            self._remember(user_id, language_for_locale(None, self.ui_language), UNKNOWN_TTL_S)
            return None
        finally:
            self._pending.pop(user_id, None)

    def _remember(self, user_id: str, language: Language, ttl_s: float) -> None:
        if len(self._known) >= MAX_USERS and user_id not in self._known:
            self._known.pop(next(iter(self._known)))  # the oldest entry
        self._known[user_id] = (language, self._clock() + ttl_s)
