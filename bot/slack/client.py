"""The Slack Web API client, built from our Settings (never from the environment)."""

from __future__ import annotations

import logging

from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from config.settings import Settings

RATE_LIMIT_RETRIES = 2
"""429 answers are retried after Slack's ``Retry-After`` seconds (chat.postMessage allows ~1/s/channel)."""
SERVER_ERROR_RETRIES = 2
CONNECTION_RETRIES = 2
TIMEOUT_S = 30


def build_client(settings: Settings) -> AsyncWebClient:
    """An AsyncWebClient for ``settings.slack_api_url`` that retries rate limits, 500/503 and dropped
    connections. The token may be missing (``sakuin ask`` never calls Slack)."""
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return AsyncWebClient(
        token=token,
        base_url=api_base_url(settings.slack_api_url),
        timeout=TIMEOUT_S,
        logger=logging.getLogger("bot.slack_client"),
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=CONNECTION_RETRIES),
        ],
    )


def api_base_url(url: str) -> str:
    """slack_sdk joins ``base_url + method`` as strings, so the base must end with a slash."""
    return url if url.endswith("/") else url + "/"
