"""Watched pages in Slack: what ``/wiki watch``, ``unwatch`` and ``watching`` answer, the message a
channel gets when a watched page changes (in the wiki's own terms), and App Home's list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.blocks.elements import MAX_MESSAGE_TEXT, context, header, section
from bot.blocks.mrkdwn import bold, clip, escape, escape_clipped, link
from bot.blocks.reply import Reply
from bot.i18n import _, current_language
from index import RELATION_LABELS_EN, PageChange

PAGE_CHANGE_EVENT = "sakuin_page_change"
MAX_LINES = 30
SENTENCE_CHARS = 300


def label_of(label: str) -> str:
    """A relation's label as the UI language says it (the wiki writes them in Japanese)."""
    return label if current_language() == "ja" else RELATION_LABELS_EN.get(label, label)


def change_reply(change: PageChange, url: str | None, channel: str) -> Reply:
    """The one message a change to a watched page gets in ``channel``."""
    title = bold(
        link(url, change.renamed_to or change.title) if url else escape(change.renamed_to or change.title)
    )
    lines: list[str] = []
    if change.deleted:
        head = _("{title} was removed from the wiki").format(title=bold(escape(change.title)))
    else:
        head = _("{title} changed in the wiki").format(title=title)
    if change.renamed_to is not None and change.renamed_to != change.title:
        lines.append(_("Renamed from {old}").format(old=escape(change.title)))
    elif change.renamed_to is not None and change.paths[1] is not None:
        lines.append(_("Moved to {path}").format(path=f"`{escape(change.paths[1])}`"))
    for label, names in _by_label(change.added).items():
        lines.append(_("{label}: added {names}").format(label=escape(label_of(label)), names=_names(names)))
    for label, names in _by_label(change.removed).items():
        lines.append(_("{label}: removed {names}").format(label=escape(label_of(label)), names=_names(names)))
    if change.new_sources:
        lines.append(_("Newly linked sources: {names}").format(names=_names(change.new_sources)))
    for sentence in change.new_sentences:
        lines.append(_("Summary: “{sentence}”").format(sentence=escape_clipped(sentence, SENTENCE_CHARS)))
    body = "\n".join(f"• {line}" for line in lines[:MAX_LINES])
    blocks: list[dict] = [section(head)]
    if body:
        blocks.append(section(clip(body, MAX_MESSAGE_TEXT)))
    blocks.append(context(_("This channel watches this page (`unwatch` to stop).")))
    text = _("{title} changed in the wiki").format(title=change.renamed_to or change.title)
    if change.deleted:
        text = _("{title} was removed from the wiki").format(title=change.title)
    metadata = {
        "event_type": PAGE_CHANGE_EVENT,
        "event_payload": {"path": change.paths[0], "path_now": change.paths[1], "channel": channel},
    }
    return Reply(escape_clipped(text, 300), tuple(blocks), metadata=metadata)


def _by_label(lines: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for label, name in lines:
        grouped.setdefault(label, []).append(name)
    return grouped


def _names(names: Sequence[str]) -> str:
    return ", ".join(bold(escape(name)) for name in names)


def notice_reply(text: str) -> Reply:
    """A short private answer to ``/wiki watch`` and its kin (``text`` already escaped mrkdwn)."""
    return Reply(clip(text, 300), (section(text),))


def watched_reply(title: str, *, new: bool) -> Reply:
    if new:
        text = _("This channel now watches {title}: when the page changes, I post here what changed.")
    else:
        text = _("This channel already watches {title}.")
    return notice_reply(text.format(title=bold(escape(title))))


def unwatched_reply(title: str | None) -> Reply:
    if title is None:
        return notice_reply(escape(_("This channel does not watch that page.")))
    return notice_reply(_("This channel no longer watches {title}.").format(title=bold(escape(title))))


def not_a_page_reply(name: str, candidates: Sequence[str]) -> Reply:
    if candidates:
        text = _("Several pages match {name}: {candidates}. Give the exact name.").format(
            name=bold(escape(name)), candidates=", ".join(escape(c) for c in candidates)
        )
    else:
        text = _("No page is called {name}.").format(name=bold(escape(name)))
    return notice_reply(text)


def name_needed_reply(command: str) -> Reply:
    return notice_reply(escape(_("Which page? `{command} watch NAME`").format(command=command)))


def watching_reply(titles: Sequence[str]) -> Reply:
    if not titles:
        return notice_reply(escape(_("This channel watches no page.")))
    head = bold(escape(_("This channel watches:")))
    return notice_reply(head + "\n" + "\n".join(f"• {escape(title)}" for title in titles))


def home_watch_blocks(watches: Mapping[str, Sequence[str]]) -> list[dict]:
    """App Home: the pages watched in the user's channels (channel id → titles)."""
    if not watches:
        return []
    lines = [
        f"<#{channel}>: " + ", ".join(escape(title) for title in titles)
        for channel, titles in watches.items()
    ]
    return [header(_("Watched pages")), section(clip("\n".join(lines), MAX_MESSAGE_TEXT))]
