"""Frontmatter: the flat YAML block between two ``---`` lines at the top of a page.

Forgiving by design (wiki-format §3): inline and block lists, ``aliases: []``, quoted scalars,
unknown keys and CRLF are all fine. PyYAML turns ``created: 2026-06-02`` into a date, so every
date is stringified. When YAML refuses the block, a line-by-line reading (as the harness does)
still recovers the flat keys, and the problem is reported.

Bounded for any block: a value that does not exist (``created: 2026-02-30``, ``!!int abc``) loses
its field, not the page. YAML aliases share one loaded structure that copying into plain values
would expand (nine levels of nine aliases, the "billion laughs", are a billion values; ``a: &a
[*a]`` is infinite), so the copy is given a budget proportional to the block's own size and a
depth; a block beyond either is read line by line instead, and the problem reported.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

# libyaml's loader is about nine times faster; the pure-Python one behaves the same.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = 16
"""How deep lists and mappings may nest in frontmatter (real ones nest once or twice)."""
_SIZE_FACTOR = 2
"""Loaded values (one per node, plus the characters of texts) a block may hold per character of its
own: without aliases a block never holds more, so only aliases expanding it reach the limit."""


class _Invalid:
    """A scalar its tag's constructor refused (``2026-02-30`` as a date): its field is dropped."""

    def __init__(self, text: str, kind: str) -> None:
        self.text, self.kind = text, kind


class _Loader(_SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, where a scalar that is not what its tag says loads as `_Invalid`."""


def _tolerant(kind: str, construct: Callable[[Any, Any], object]) -> Callable[[Any, Any], object]:
    def construct_or_invalid(loader: Any, node: Any) -> object:
        try:
            return construct(loader, node)
        except Exception:  # the constructors raise ValueError, KeyError, AttributeError …
            return _Invalid(str(node.value), kind)

    return construct_or_invalid


def _add_tolerant_constructors() -> None:
    for tag, kind in (("timestamp", "date"), ("int", "integer"), ("float", "number"), ("bool", "boolean")):
        name = f"tag:yaml.org,2002:{tag}"
        _Loader.add_constructor(name, _tolerant(kind, _Loader.yaml_constructors[name]))


_add_tolerant_constructors()


class _Unbounded(Exception):
    """The loaded block expands beyond its budget or nests too deep; the message says which."""


class _Dropped(Exception):
    def __init__(self, invalid: _Invalid) -> None:
        self.invalid = invalid


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
        loaded = yaml.load(block, Loader=_Loader) if block.strip() else {}
    except Exception as error:  # YAMLError, and whatever else a hostile block makes PyYAML raise
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark else ""
        return Split(_read_lines(block), body, f"frontmatter is not valid YAML{where}; read line by line")
    if not isinstance(loaded, dict):
        return Split({}, body, "frontmatter is not a mapping; ignored")
    try:
        meta, dropped = _plain_fields(loaded, _SIZE_FACTOR * len(block) + 100)
    except _Unbounded as error:
        return Split(_read_lines(block), body, f"frontmatter {error}; read line by line")
    problems = [
        f"frontmatter field '{key}' dropped: {shown(value)!r} is not a valid {kind}"
        for key, value, kind in dropped
    ]
    return Split(meta, body, "; ".join(problems) or None)


def _plain_fields(
    loaded: dict[object, object], budget: int
) -> tuple[dict[str, object], list[tuple[str, str, str]]]:
    """The loaded fields as plain values (dates as text), within ``budget`` values; and the fields
    dropped for holding an invalid value (key, the value as written, what it should have been)."""
    left = [budget]
    meta: dict[str, object] = {}
    dropped: list[tuple[str, str, str]] = []
    for key, value in loaded.items():
        name = key.text if isinstance(key, _Invalid) else str(_plain(key, left, 1))
        try:
            meta[name] = _plain(value, left, 1)
        except _Dropped as error:
            dropped.append((name, error.invalid.text, error.invalid.kind))
    return meta, dropped


def _plain(value: object, left: list[int], depth: int) -> object:
    """``value`` with dates as text, counting what it holds against ``left[0]``."""
    left[0] -= 1 + (len(value) if isinstance(value, str | bytes) else 0)
    if left[0] < 0:
        raise _Unbounded("expands far beyond its own size (YAML aliases)")
    if depth > MAX_DEPTH:
        raise _Unbounded(f"nests deeper than {MAX_DEPTH} levels (or refers to itself)")
    if isinstance(value, _Invalid):
        raise _Dropped(value)
    if isinstance(value, dt.datetime):
        # An offset is kept: the digest converts ``created: 2026-05-01T20:00:00Z`` to its own zone.
        return value.isoformat(" ", "minutes") if value.tzinfo else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(item, left, depth + 1) for item in value]
    if isinstance(value, set):  # !!set: in a stable order
        return [_plain(item, left, depth + 1) for item in sorted(value, key=str)]
    if isinstance(value, dict):
        return {
            str(_plain(key, left, depth + 1)): _plain(item, left, depth + 1) for key, item in value.items()
        }
    return value


def shown(text: str, limit: int = 40) -> str:
    """A value as a problem quotes it: short."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
