"""Frontmatter: the flat YAML block between two ``---`` lines at the top of a page.

Forgiving by design (wiki-format §3): inline and block lists, ``aliases: []``, quoted scalars,
unknown keys and CRLF are all fine. PyYAML turns ``created: 2026-06-02`` into a date, so every
date is stringified. When YAML refuses the block, a line-by-line reading (as the harness does)
still recovers the flat keys, and the problem is reported.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import yaml

# libyaml's loader is about nine times faster; the pure-Python one behaves the same.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPENING = re.compile(r"\A(?:\ufeff)?---[ \t]*\n")
_CLOSING = re.compile(r"^---[ \t]*$", re.MULTILINE)
_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*):\s*(.*)$")
_LIST_ITEM = re.compile(r"^\s+-\s*(.*)$")


@dataclass(frozen=True)
class Split:
    meta: dict[str, object]
    body: str
    problem: str | None = None


def split_frontmatter(text: str) -> Split:
    """Separate frontmatter from the body. Without a closing ``---`` there is no frontmatter."""
    opening = _OPENING.match(text)
    if not opening:
        return Split({}, text)
    closing = _CLOSING.search(text, opening.end())
    if not closing:
        return Split({}, text, "frontmatter has no closing '---'; read as body")
    block = text[opening.end() : closing.start()]
    body = text[closing.end() :].lstrip("\n")
    try:
        loaded = yaml.load(block, Loader=_LOADER) if block.strip() else {}
    except (yaml.YAMLError, RecursionError) as error:  # RecursionError: a self-referencing anchor
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark else ""
        return Split(_read_lines(block), body, f"frontmatter is not valid YAML{where}; read line by line")
    if not isinstance(loaded, dict):
        return Split({}, body, "frontmatter is not a mapping; ignored")
    return Split({str(key): _plain(value) for key, value in loaded.items()}, body)


def _plain(value: object) -> object:
    if isinstance(value, dt.datetime):
        # An offset is kept: the digest converts ``created: 2026-05-01T20:00:00Z`` to its own zone.
        return value.isoformat(" ", "minutes") if value.tzinfo else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def _read_lines(block: str) -> dict[str, object]:
    """The harness's line-by-line reading of flat frontmatter."""
    meta: dict[str, object] = {}
    current: str | None = None
    for line in block.splitlines():
        item = _LIST_ITEM.match(line)
        if item and current is not None:
            existing = meta.get(current)
            items = existing if isinstance(existing, list) else []
            items.append(_unquote(item.group(1)))
            meta[current] = items
            continue
        key_line = _KEY_LINE.match(line)
        if key_line:
            current = key_line.group(1)
            value = key_line.group(2).strip()
            meta[current] = _unquote(value) if value else []
    return meta


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def text_value(meta: dict[str, object], key: str) -> str | None:
    """A scalar as text, or None when absent or empty."""
    value = meta.get(key)
    if value is None or isinstance(value, list | dict):
        return None
    text = str(value).strip()
    return text or None


def list_value(meta: dict[str, object], key: str) -> tuple[str, ...]:
    """A list as a tuple of texts. A comma string (plain vaults) counts as a list too."""
    value = meta.get(key)
    if value is None:
        return ()
    if isinstance(value, list):
        items = [str(item).strip() for item in value if item is not None]
    elif isinstance(value, str):
        inline = value.strip()
        if inline.startswith("[") and inline.endswith("]"):
            inline = inline[1:-1]
        items = [_unquote(part) for part in inline.split(",")] if "[[" not in inline else [inline]
    else:
        items = [str(value)]
    return tuple(item for item in items if item)
