"""The wiki's inbox: a question the wiki could not answer (the "Ask the wiki to cover this" button,
the "Save to wiki inbox" shortcut) becomes one Markdown file for the agents that maintain the wiki.

- **The file** (`request_markdown`): ``WIKI_INBOX_DIR/YYYY-MM-DD-<slug>.md`` with frontmatter
  (``type: request``, ``status: open``, ``asked_at``, ``channel``, ``permalink``, ``question``,
  ``closest_pages`` as wikilinks) and the question, or the saved thread, as its body. It names no
  Slack user id; a saved thread shows its authors' display names.
- **Exactly once.** A request's id is made from where it was asked (`request_id`), and the state
  store files each id once (`bot.state.requests`); the file's text is kept there until it landed.
- **Delivery** (`Inbox.deliver`, run at once and then by `Inbox.run`): with ``WIKI_GIT_URL`` the
  files are committed and pushed to ``WIKI_INBOX_BRANCH`` (`bot.serve.inbox_git`), else written into the
  vault's inbox folder (`VaultFolder`). A failure is retried with back-off, from any replica (a
  delivery is leased to one at a time), until it lands.
- **Answered later** (bot/loop/answered_later.py) sets the file's ``status: answered`` the same way
  (`answered_text`); a file the agents already removed is left removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import time
import unicodedata
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path, PurePosixPath
from typing import Protocol

import yaml

from bot.blocks.inbox import Where
from bot.state.requests import ANSWERED, OPEN, InboxRequest, NewRequest
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import IndexNotReady, Wiki

log = logging.getLogger("sakuin.inbox")

RETRY_BASE_S = 5.0
"""The first retry after a failed delivery; each further failure doubles the wait."""
RETRY_MAX_S = 600.0
LEASE_S = 300.0
"""How long a delivery is leased to one process (longer than a push may take)."""
IDLE_S = 30.0
"""How often deliveries left by another process are looked for, when nothing is due."""
DELIVER_WAIT_S = 10.0
"""How long filing waits for its file to land before confirming (delivery goes on after it)."""
SLUG_CHARS = 60
QUESTION_CHARS = 300


class DeliveryError(Exception):
    """A request's file could not land; the message says why (no credential in it)."""


@dataclass(frozen=True)
class ThreadMessage:
    """One message of a saved thread, as the file shows it."""

    author: str
    """The author's display name (never a user id)."""
    at: float
    text: str
    """Plain text: mentions written as ``@name``, links as ``label (url)``."""


@dataclass(frozen=True)
class Asked:
    """What a request is made from."""

    kind: str
    """``answer`` (the button under an answer) or ``thread`` (the shortcut)."""
    question: str
    channel: str
    channel_name: str | None
    message_ts: str
    """The message it was asked from: with ``kind`` and ``channel``, the request's identity."""
    thread_ts: str
    """The thread where the wiki's later answer goes."""
    permalink: str | None
    closest: tuple[str, ...]
    """The closest pages' vault paths, first first."""
    lang: str
    thread: tuple[ThreadMessage, ...] = ()


def request_id(kind: str, channel: str, message_ts: str) -> str:
    return hashlib.sha256(f"{kind}/{channel}/{message_ts}".encode()).hexdigest()[:16]


def slug(text: str) -> str:
    """File-name words of ``text``: NFKC, lower case, runs of anything else as one ``-``."""
    words = re.sub(r"[^\w]+", "-", unicodedata.normalize("NFKC", text).casefold()).strip("-_")
    if len(words) > SLUG_CHARS:
        cut = words[:SLUG_CHARS]
        words = cut.rsplit("-", 1)[0] if "-" in cut[SLUG_CHARS // 2 :] else cut
    return words.strip("-_") or "request"


def wikilink(path: str) -> str:
    return f"[[{PurePosixPath(path).stem}]]"


def new_request(asked: Asked, settings: Settings, now: float) -> NewRequest:
    """The request ``asked`` files: its id, its file's name and text."""
    day = datetime.fromtimestamp(now, settings.zone).date().isoformat()
    file = f"{settings.wiki_inbox_dir}{day}-{slug(asked.question)}.md"
    return NewRequest(
        id=request_id(asked.kind, asked.channel, asked.message_ts),
        question=asked.question,
        channel=asked.channel,
        thread_ts=asked.thread_ts,
        file=file,
        content=request_markdown(asked, datetime.fromtimestamp(now, settings.zone)),
        asked_at=now,
        lang=asked.lang,
    )


def request_markdown(asked: Asked, asked_at: datetime) -> str:
    """The request's file: frontmatter, then the question or the thread."""
    front = {
        "type": "request",
        "status": OPEN,
        "asked_at": asked_at.isoformat(timespec="seconds"),
        "channel": channel_label(asked.channel, asked.channel_name),
        "permalink": asked.permalink or "",
        "question": asked.question,
        "closest_pages": [wikilink(path) for path in asked.closest],
    }
    head = yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000)
    if asked.thread:
        zone = asked_at.tzinfo
        body = ["## Thread", ""]
        for message in asked.thread:
            when = datetime.fromtimestamp(message.at, zone).strftime("%Y-%m-%d %H:%M")
            body += [f"**{_inline(message.author)}** · {when}", "", message.text.strip(), ""]
        text = "\n".join(body)
    else:
        text = f"{asked.question.strip()}\n"
    return f"---\n{head}---\n\n{text}"


def channel_label(channel: str, name: str | None) -> str:
    if channel.startswith("D"):
        return "direct message"
    return f"#{name}" if name and name not in ("directmessage", "privategroup") else channel


def _inline(text: str) -> str:
    return " ".join(text.replace("*", "").split())


_FRONTMATTER = re.compile(r"\A---\n(?P<head>.*?\n)---\n", re.S)


def answered_text(text: str, answered_at: datetime) -> str:
    """``text`` (a request's file, as it stands) with ``status: answered`` and ``answered_at``; the
    rest of the file as the agents left it. Text without frontmatter is left as it is."""
    found = _FRONTMATTER.match(text)
    if found is None:
        return text
    lines = [line for line in found["head"].splitlines() if not line.startswith("answered_at:")]
    stamp = f"answered_at: '{answered_at.isoformat(timespec='seconds')}'"
    status = next((n for n, line in enumerate(lines) if line.startswith("status:")), None)
    if status is None:
        lines[1:1] = [f"status: {ANSWERED}", stamp]
    else:
        lines[status : status + 1] = [f"status: {ANSWERED}", stamp]
    return "---\n" + "\n".join(lines) + "\n---\n" + text[found.end() :]


def landed_text(request: InboxRequest, existing: str | None, zone: tzinfo) -> str | None:
    """What to write for ``request`` over its file's ``existing`` text (None: no file); None when
    nothing is to be written: an open request's file is written once, never over the agents'
    edits; an answered one only gets its status, and only while the file is there."""
    if request.status == ANSWERED:
        if existing is None:
            return None
        when = datetime.fromtimestamp(request.answered_at or time.time(), zone)
        updated = answered_text(existing, when)
        return updated if updated != existing else None
    return request.content if existing is None else None


class InboxWriter(Protocol):
    """Where requests' files land."""

    @property
    def where(self) -> Where: ...

    async def deliver(self, requests: Sequence[InboxRequest]) -> None:
        """Make every file land (`landed_text`); raises (DeliveryError, GitError) when they did not."""
        ...


class VaultFolder:
    """Without git: the files are written into the vault's inbox folder (``WIKI_DIR/WIKI_INBOX_DIR``).

    The vault is written by many hands: no folder on the way, and no file, may be a symbolic link
    (the write would land outside the inbox); a file is written whole or not at all.
    """

    def __init__(self, wiki_dir: Path, inbox_dir: str, zone: tzinfo) -> None:
        self.wiki_dir = Path(wiki_dir)
        self.inbox_dir = inbox_dir
        self.zone = zone

    @property
    def where(self) -> Where:
        return Where(self.inbox_dir)

    async def deliver(self, requests: Sequence[InboxRequest]) -> None:
        await asyncio.to_thread(self._write_all, requests)

    def _write_all(self, requests: Sequence[InboxRequest]) -> None:
        for request in requests:
            write_request_file(self.wiki_dir, request, self.zone)


def write_request_file(root: Path, request: InboxRequest, zone: tzinfo) -> bool:
    """Write ``request``'s file under ``root`` as `landed_text` says; True when something was written."""
    parts = PurePosixPath(request.file).parts
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise DeliveryError(f"{PurePosixPath(*parts[:-1])} is not a folder of the vault (a link?)")
        if not folder.exists():
            folder.mkdir()
    path = folder / parts[-1]
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise DeliveryError(f"{request.file} is not a regular file (a link?)")
    try:
        existing = path.read_text(encoding="utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError) as error:
        raise DeliveryError(f"{request.file} cannot be read: {error}") from None
    text = landed_text(request, existing, zone)
    if text is None:
        return False
    temporary = folder / f".{parts[-1]}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise DeliveryError(f"{request.file} cannot be written: {error}") from None
    return True


class Inbox:
    """Files requests once and makes their files land, retrying with back-off until they do."""

    def __init__(
        self,
        settings: Settings,
        state: AsyncStateStore,
        writer: InboxWriter,
        *,
        retry_base_s: float = RETRY_BASE_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.state = state
        self.writer = writer
        self.retry_base_s = retry_base_s
        self._clock = clock
        self._wake = asyncio.Event()
        self._delivering = asyncio.Lock()
        self.rounds = 0
        """Delivery rounds run (for tests and logs)."""

    @property
    def where(self) -> Where:
        return self.writer.where

    def now(self) -> float:
        return self._clock()

    async def file(self, asked: Asked) -> tuple[InboxRequest, bool]:
        """File ``asked`` (once: a request filed before is returned as it is) and try to deliver it
        at once; the request as it stands and whether this call filed it."""
        filed, created = await self.state.add_request(new_request(asked, self.settings, self.now()))
        if created:
            log.info("filed request %s: %s", filed.id, filed.file)
        if not filed.pushed:
            delivery = asyncio.ensure_future(self.deliver())
            try:
                await asyncio.wait_for(asyncio.shield(delivery), DELIVER_WAIT_S)
            except TimeoutError:
                log.info("delivering request %s takes long; it goes on in the background", filed.id)
            except Exception:
                log.exception("delivering request %s failed; it is retried", filed.id)
            self.wake()  # the delivery task's next retry is this request's, not its idle wait
        return (await self.state.inbox_request(filed.id)) or filed, created

    def wake(self) -> None:
        """Deliver as soon as possible (a request's file changed); returns at once."""
        self._wake.set()

    async def deliver(self) -> int:
        """One round: every due file this process can lease, in one delivery. How many landed."""
        async with self._delivering:
            self.rounds += 1
            owner = uuid.uuid4().hex
            requests = await self.state.claim_deliveries(owner, LEASE_S)
            if not requests:
                return 0
            try:
                await self.writer.deliver(requests)
            except Exception as error:  # a git or file failure: kept, retried
                for request in requests:
                    await self.state.fail_delivery(request.id, owner, str(error), self._retry_wait(request))
                log.error(
                    "could not deliver %d request(s) to %s (retrying in %.0f s): %s",
                    len(requests),
                    self.where,
                    self._retry_wait(requests[0]),
                    error,
                )
                return 0
            for request in requests:
                await self.state.record_delivery(request.id, owner, request.content)
                if request.attempts:
                    log.info("request %s landed after %d failure(s)", request.id, request.attempts)
            log.info("delivered %d request(s) to %s", len(requests), self.where)
            return len(requests)

    def _retry_wait(self, request: InboxRequest) -> float:
        return min(self.retry_base_s * 2**request.attempts, RETRY_MAX_S)

    async def run(self) -> None:
        """Deliver what is due, forever (a background task): at once when woken, else when the
        next retry is due, and every `IDLE_S` for what another process left."""
        while True:
            try:
                await self.deliver()
                due = await self.state.next_delivery_at()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the inbox's delivery failed; trying again")
                due = None
            wait = IDLE_S if due is None else min(max(due - self.now(), 0.05), IDLE_S)
            await wait_for_event(self._wake, wait)
            self._wake.clear()


async def wait_for_event(event: asyncio.Event, seconds: float) -> None:
    """Until ``event`` is set or ``seconds`` pass. Not ``asyncio.wait_for``: on Python 3.11 it
    swallows a cancellation that comes as the event is set, and a loop waiting so never ends."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()


def closest_pages(wiki: Wiki, question: str, limit: int = 3) -> tuple[str, ...]:
    """The pages closest to ``question`` as its answer shows them (none while the index is built)."""
    try:
        answer = wiki.answer(question)
    except IndexNotReady:
        return ()
    cited = [sentence.path for sentence in answer.sentences] if answer.confident else []
    return tuple(dict.fromkeys([*cited, *(hit.path for hit in answer.pages)]))[:limit]
