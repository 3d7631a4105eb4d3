"""What sakuin trusts of what comes in from outside: a Slack request's signature, the URL it asks
to be answered at, and the text it carries.

- `signature_problem`: Slack signs ``v0:<timestamp>:<body>`` with the signing secret; a request
  whose timestamp or signature is missing, malformed, stale or wrong is refused before Bolt sees
  it, so nothing the app does (its error handler included) ever runs for it.
- `is_slack_response_url`: a ``response_url`` is only posted to on Slack's hooks host (or the
  host of ``SLACK_API_URL``, for a proxy or a local test double): a request cannot make the server
  post to an address of its choosing.
- `RefusalLog`: anyone can send a refused request, so refusals are logged at most once a minute
  (with the count of those left out), never one line each.
- `clean_text`, `clean_payload`: a lone surrogate (``\\ud800``: valid in JSON, and what Python
  makes of bytes that are not UTF-8 in a command-line argument, but never encodable as UTF-8)
  becomes U+FFFD where text comes in (Slack payloads, the command line), so nothing downstream
  fails to encode it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

MAX_CLOCK_SKEW_S = 5 * 60
"""Slack's window: a request signed longer ago (or ahead) than this is a replay."""
SLACK_HOOKS_HOST = "hooks.slack.com"
_TIMESTAMP = re.compile(r"[0-9]{1,12}")
_SIGNATURE = re.compile(r"v0=[0-9a-f]{64}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REFUSAL_LOG_INTERVAL_S = 60.0


def signature_problem(
    secret: str, timestamp: str | None, signature: str | None, body: bytes, now: float | None = None
) -> str | None:
    """Why a Slack request is not signed with ``secret`` (None when it is). The headers are
    checked for shape (ASCII digits, lowercase hex) before anything is computed from them."""
    if not secret:
        return "no signing secret is configured"
    if timestamp is None:
        return "no X-Slack-Request-Timestamp"
    if not _TIMESTAMP.fullmatch(timestamp):
        return "a malformed X-Slack-Request-Timestamp"
    if abs((time.time() if now is None else now) - int(timestamp)) > MAX_CLOCK_SKEW_S:
        return "a stale X-Slack-Request-Timestamp"
    if signature is None:
        return "no X-Slack-Signature"
    if not _SIGNATURE.fullmatch(signature):
        return "a malformed X-Slack-Signature"
    expected = hmac.new(secret.encode("utf-8"), f"v0:{timestamp}:".encode() + body, hashlib.sha256)
    if not hmac.compare_digest(f"v0={expected.hexdigest()}", signature):
        return "a wrong X-Slack-Signature"
    return None


def is_slack_response_url(url: object, api_url: str) -> bool:
    """Whether ``url`` is one Slack hands out: https on ``hooks.slack.com``, on ``hooks.`` +
    the host of ``SLACK_API_URL`` (GovSlack's ``hooks.slack-gov.com``), or on the very scheme,
    host and port of ``SLACK_API_URL`` (a proxy, the fake Slack of the tests)."""
    if not isinstance(url, str):
        return False
    try:
        given, api = urlsplit(url), urlsplit(api_url)
        given_origin = (given.scheme, given.hostname, given.port)
        api_origin = (api.scheme, api.hostname, api.port)
    except ValueError:  # a port that is not a number, a bracketed host that is not an address
        return False
    if given.username is not None or given.password is not None:
        return False
    if given_origin == api_origin and given.scheme in ("http", "https"):
        return True
    hooks_hosts = {SLACK_HOOKS_HOST, f"hooks.{api.hostname}"}
    return given.scheme == "https" and given.hostname in hooks_hosts and given.port in (None, 443)


class RefusalLog:
    """Warnings about refused requests, at most one per ``interval_s``; the next one logged after a
    quiet spell says how many were left out. One per kind of refusal (its own rhythm)."""

    def __init__(
        self,
        logger: logging.Logger,
        interval_s: float = REFUSAL_LOG_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._interval_s = interval_s
        self._clock = clock
        self._logged_at: float | None = None
        self._left_out = 0

    def refused(self, message: str, *args: object) -> None:
        """``logger.warning(message, *args)``, unless a refusal was logged less than ``interval_s``
        ago (then it is only counted)."""
        now = self._clock()
        if self._logged_at is not None and now - self._logged_at < self._interval_s:
            self._left_out += 1
            return
        if self._left_out:
            message += " (and %d more like it in the last %d s)"
            args = (*args, self._left_out, round(now - (self._logged_at or now)))
        self._logger.warning(message, *args)
        self._logged_at, self._left_out = now, 0


def clean_text(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (the replacement character)."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def clean_payload(value: Any) -> Any:
    """A parsed JSON payload with `clean_text` applied to every string in it, keys included. Lists
    and dicts are cleaned in place: Bolt hands its listeners parts of the same body."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        value[:] = [clean_payload(item) for item in value]
    elif isinstance(value, dict):
        cleaned = {clean_payload(key): clean_payload(item) for key, item in value.items()}
        value.clear()
        value.update(cleaned)
    return value
