"""Pages' addresses outside the vault: web links under ``WIKI_BASE_URL`` and short path tokens.

A page at ``wiki/entities/Jane Doe.md`` is published (Obsidian Publish, Quartz) at
``<base>/wiki/entities/Jane%20Doe``. A pasted link is read back to the page it names ignoring
scheme, query, fragment, a trailing slash and percent-encoding. A path token stands for a path
where at most ~150 characters fit (a Slack select option's value).
"""

from __future__ import annotations

import hashlib
import unicodedata
from urllib.parse import quote, unquote, urlsplit

NOTE_SUFFIX = ".md"
TOKEN_CHARS = 32


def page_url(base_url: str, path: str) -> str:
    """The web link of a page; ``base_url`` ends with ``/``."""
    return base_url + quote(path.removesuffix(NOTE_SUFFIX))


def url_path(base_url: str, url: str) -> str | None:
    """The vault path a web link under ``base_url`` names, without its ``.md``; None for other links."""
    base, link = urlsplit(base_url), urlsplit(url.strip())
    if link.netloc.lower() != base.netloc.lower():
        return None
    prefix = unquote(base.path).rstrip("/") + "/"
    path = unquote(link.path).rstrip("/")
    if not path.startswith(prefix) or len(path) == len(prefix):
        return None
    return unicodedata.normalize("NFC", path[len(prefix) :])


def path_token(path: str) -> str:
    """A short, stable stand-in for a page path (32 hex characters of its SHA-256)."""
    return hashlib.sha256(path.encode("utf-8")).hexdigest()[:TOKEN_CHARS]
