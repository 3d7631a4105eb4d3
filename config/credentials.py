"""Credentials that settings carry inside URLs (``WIKI_GIT_URL``, ``STATE_DB``), and hiding them.

A URL such as ``https://x-access-token:ghp_…@github.com/team/wiki.git`` or
``postgresql://sakuin:pw@db:5432/sakuin`` is a secret in part. `CredentialUrl` is the URL as a
plain ``str`` (what git and psycopg are handed) whose ``repr`` hides the credentials, so a printed
`Settings` never shows them; `redact_url` and `redact_text` hide them in what is logged, shown in
``/healthz`` or raised (git and libpq both echo the URL in their error messages).

git is a child process, and a command line is readable by every user of the machine (``ps``): it is
given `git_command_url` there, and the URL's credentials in `git_environment`, which only the
same user (and root) can read.
"""

from __future__ import annotations

import base64
import os
import re
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

HIDDEN = "***"
_HTTP_SCHEMES = ("http", "https")
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]*://)(?P<userinfo>[^/@\s'\"]+)@")


def redact_url(url: str) -> str:
    """The URL with its password hidden; an http(s) user name alone is hidden too (a bare token,
    as in ``https://ghp_…@github.com/…``). An ssh user (``git@host``) is no secret and stays."""
    return _USERINFO.sub(_hide_userinfo, url)


def redact_text(text: str, *urls: str | None) -> str:
    """``text`` with every credential of ``urls`` hidden, wherever it appears (also percent-decoded
    or on its own), and any other ``scheme://user:secret@`` in it redacted as well."""
    for secret in sorted({part for url in urls if url for part in _secrets(url)}, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    return redact_url(text)


def git_command_url(url: str) -> str:
    """What git is given on its command line for ``url``: an http(s) URL without its user and
    token (`git_environment` carries them), any other with its password redacted."""
    parts = _http_with_userinfo(url)
    if parts is None:
        return redact_url(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def git_environment(url: str) -> dict[str, str] | None:
    """The environment for a git command on ``url``: this process's, plus the URL's http(s) user
    and token as the ``Authorization: Basic`` header git would have sent, set as
    ``http.<scheme>://<host>/.extraHeader`` (so only that server gets it) through ``GIT_CONFIG_*``
    after any such settings already there. None (inherit as it is) when the URL holds none."""
    parts = _http_with_userinfo(url)
    if parts is None:
        return None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    basic = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    environment = dict(os.environ)
    given = environment.get("GIT_CONFIG_COUNT", "")
    count = int(given) if given.isdigit() else 0
    environment.update(
        {
            "GIT_CONFIG_COUNT": str(count + 1),
            f"GIT_CONFIG_KEY_{count}": f"http.{parts.scheme.lower()}://{host}/.extraHeader",
            f"GIT_CONFIG_VALUE_{count}": f"Authorization: Basic {basic}",
        }
    )
    return environment


def _http_with_userinfo(url: str) -> SplitResult | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in _HTTP_SCHEMES or "@" not in parts.netloc:
        return None
    return parts


def _hide_userinfo(match: re.Match[str]) -> str:
    scheme, userinfo = match["scheme"], match["userinfo"]
    user, colon, _ = userinfo.partition(":")
    if colon:
        return f"{scheme}{user}:{HIDDEN}@"
    if scheme.removesuffix("://").lower() in _HTTP_SCHEMES:
        return f"{scheme}{HIDDEN}@"
    return match.group(0)


def _secrets(url: str) -> set[str]:
    try:
        parts = urlsplit(url)
        password, user = parts.password, parts.username
    except ValueError:
        return set()
    found = set()
    if password:
        found.add(password)
    elif user and parts.scheme.lower() in _HTTP_SCHEMES:
        found.add(user)
    return {variant for secret in found for variant in (secret, unquote(secret)) if len(variant) >= 4}


class CredentialUrl(str):
    """A URL that may hold credentials: a ``str`` everywhere, redacted in its ``repr``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({redact_url(str(self))!r})"

    @property
    def redacted(self) -> str:
        return redact_url(str(self))

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(
            cls, core_schema.str_schema(), serialization=core_schema.to_string_ser_schema()
        )
