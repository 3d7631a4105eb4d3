"""The composer: text in, a Slack message (`Reply`) out, for commands, questions and buttons.

Slack listeners, the share button and ``sakuin ask`` all come through here, so the terminal shows
exactly what Slack would (the notices the edge sends on its own are `bot.blocks.notices`'s; a
question's answer may be rewritten by the model afterwards, `bot.answering.model_rewrite`).
These functions are synchronous (they call the wiki directly); the Slack edge runs them in a
thread. The text given here is plain text as the user meant it: listeners undo
Slack's own escaping first (`bot.blocks.mrkdwn.unescape`).

The language (`bot.i18n`): a question is answered in its own language, a command or a button in
the language the caller set for the user (their Slack locale), ``UI_LANGUAGE`` over both.
"""

from __future__ import annotations

from datetime import date

from bot.blocks.answer import answer_blocks, answer_metadata, answer_text
from bot.blocks.buttons import SHARE_PAGE_PREFIX, SHARE_TEXT_PREFIX, share_page_value, share_text_value
from bot.blocks.card import card_blocks, card_text
from bot.blocks.digest import digest_messages
from bot.blocks.help import help_blocks, help_text
from bot.blocks.lookup import candidates_blocks, no_match_blocks, unresolved_blocks
from bot.blocks.mrkdwn import escape_clipped, unescape
from bot.blocks.notices import (
    bad_day_blocks,
    gone_blocks,
    index_not_ready_blocks,
    more_messages_blocks,
    too_long_blocks,
)
from bot.blocks.reply import Reply
from bot.blocks.search import search_blocks, search_text
from bot.digest.days import day_digest, yesterday
from bot.i18n import _, language_for_command, language_for_question, use_language
from config.settings import Settings
from index import MAX_QUERY_CHARS, Card, IndexNotReady, Wiki

MAX_NAME_CHARS = 200
MAX_PREVIEW_MESSAGES = 5
"""A response_url takes about five posts; a longer digest preview ends with a pointer to the CLI."""
SEARCH_LIMIT = 5
LOOKUP_LIMIT = 8
DIGEST_WORD = "digest"
HELP_WORDS = frozenset({"", "help", "-h", "--help", "?", "？", "ヘルプ", "使い方"})


def replies_for_text(
    text: str, wiki: Wiki, settings: Settings, *, private: bool | None = None
) -> list[Reply]:
    """Like `reply_for_text`, and ``/wiki digest [YYYY-MM-DD]`` too: the preview of a day's digest
    is one message per digest message (`digest_preview`); every other answer is one message."""
    command, _space, rest = text.strip().partition(" ")
    word, _space, day_text = rest.strip().partition(" ")
    if command == settings.wiki_command and word.lower() == DIGEST_WORD:
        with use_language(language_for_command(settings.ui_language)):
            return digest_preview(day_text.strip(), wiki, settings)
    return [reply_for_text(text, wiki, settings, private=private)]


def reply_for_text(text: str, wiki: Wiki, settings: Settings, *, private: bool | None = None) -> Reply:
    """Answer ``/entity X``, ``/wiki X`` or a free question the way the bot answers it in Slack.

    ``private`` says whether the answer carries a "Share to channel" button; by default command
    answers do (Slack shows them only to the user) and answers to questions do not.
    """
    command, _space, rest = text.strip().partition(" ")
    is_command = command in (settings.entity_command, settings.wiki_command)
    language = (
        language_for_command(settings.ui_language)
        if is_command
        else language_for_question(text, settings.ui_language)
    )
    with use_language(language):
        try:
            if command == settings.entity_command:
                return entity_reply(rest, wiki, settings, private=True if private is None else private)
            if command == settings.wiki_command:
                return wiki_reply(rest, wiki, settings, private=True if private is None else private)
            return question_reply(text, wiki, settings)
        except IndexNotReady:
            return not_ready_reply()


def entity_reply(name: str, wiki: Wiki, settings: Settings, *, private: bool = True) -> Reply:
    """``/entity NAME``: the card, the candidates, "no page yet", or the nearest names and hits."""
    name = " ".join(name.split())
    if name.lower() in HELP_WORDS:
        return help_reply(wiki, settings)
    if len(name) > MAX_NAME_CHARS:
        return Reply(_("That name is too long"), tuple(too_long_blocks(len(name), MAX_NAME_CHARS)))
    share = share_text_value(f"{settings.entity_command} {name}") if private else None
    lookup = wiki.lookup(name, limit=LOOKUP_LIMIT)
    if lookup.match is not None:
        card = wiki.card(lookup.match.path)
        if card is not None:
            return Reply(card_text(card), tuple(card_blocks(card, share=share)))
    if lookup.unresolved is not None:
        blocks = unresolved_blocks(lookup.unresolved, lookup.candidates, share=share)
        text = _("{name} has no page yet").format(name=lookup.unresolved.name)
        return Reply(escape_clipped(text, 300), tuple(blocks))
    if lookup.ambiguous:
        blocks = candidates_blocks(name, lookup.candidates, share=share)
        return Reply(escape_clipped(_("Several pages match {name}").format(name=name), 300), tuple(blocks))
    result = wiki.search(name, limit=SEARCH_LIMIT)
    blocks = no_match_blocks(name, lookup.candidates, result)
    return Reply(escape_clipped(_("No page is called {name}").format(name=name), 300), tuple(blocks))


def wiki_reply(query: str, wiki: Wiki, settings: Settings, *, private: bool = True) -> Reply:
    """``/wiki QUERY``: the top hits with snippets; ``/wiki help`` (or nothing): help."""
    query = " ".join(query.split())
    if query.lower() in HELP_WORDS:
        return help_reply(wiki, settings)
    if len(query) > MAX_QUERY_CHARS:
        return too_long_reply(query)
    share = share_text_value(f"{settings.wiki_command} {query}") if private else None
    result = wiki.search(query, limit=SEARCH_LIMIT)
    return Reply(search_text(result), tuple(search_blocks(result, share=share)))


def question_reply(question: str, wiki: Wiki, settings: Settings, *, subject: str | None = None) -> Reply:
    """A mention or a DM: the answer first, then supporting passages, then the question's subject.

    ``subject`` is the page a thread's follow-up is about, used when the question names no page.
    The reply is in the question's language (``UI_LANGUAGE`` over it).
    """
    question = " ".join(question.split())
    with use_language(language_for_question(question, settings.ui_language)):
        if question.lower() in HELP_WORDS:
            return help_reply(wiki, settings)
        if len(question) > MAX_QUERY_CHARS:
            return too_long_reply(question)
        try:
            answer = wiki.answer(question, subject=subject)
            card = wiki.card(answer.subject) if answer.subject is not None else None
        except IndexNotReady:
            return not_ready_reply()
        return Reply(answer_text(answer), tuple(answer_blocks(answer, card)), answer, answer_metadata(answer))


def card_reply(path: str, wiki: Wiki, *, private: bool = True) -> Reply:
    """The card of one page (a related-page or candidate button, a shared card), in the language the
    caller set for the user who clicked."""
    try:
        card: Card | None = wiki.card(path)
    except IndexNotReady:
        return not_ready_reply()
    if card is None:
        return Reply(_("That page is no longer in the wiki"), tuple(gone_blocks()))
    share = share_page_value(path) if private else None
    return Reply(card_text(card), tuple(card_blocks(card, share=share)))


def shared_reply(value: str, wiki: Wiki, settings: Settings) -> Reply:
    """Rebuild a private answer for everyone from its "Share to channel" value."""
    if value.startswith(SHARE_PAGE_PREFIX):
        with use_language(language_for_command(settings.ui_language)):
            return card_reply(value.removeprefix(SHARE_PAGE_PREFIX), wiki, private=False)
    return reply_for_text(unescape(value.removeprefix(SHARE_TEXT_PREFIX)), wiki, settings, private=False)


def digest_preview(day_text: str, wiki: Wiki, settings: Settings) -> list[Reply]:
    """``/wiki digest [YYYY-MM-DD]``: the day's digest (default: yesterday) as it would be posted,
    an empty day included, in at most `MAX_PREVIEW_MESSAGES` messages."""
    try:
        day = date.fromisoformat(day_text) if day_text else yesterday(settings)
    except ValueError:
        blocks = bad_day_blocks(day_text, settings.wiki_command)
        return [Reply(_("Expected a date such as 2026-01-31"), tuple(blocks))]
    try:
        replies = digest_messages(day_digest(settings, wiki, day), post_empty=True)
    except IndexNotReady:
        return [not_ready_reply()]
    if len(replies) <= MAX_PREVIEW_MESSAGES:
        return replies
    shown = replies[: MAX_PREVIEW_MESSAGES - 1]
    left = len(replies) - len(shown)
    more = Reply(_("{count} more digest messages").format(count=left), tuple(more_messages_blocks(left, day)))
    return [*shown, more]


def help_reply(wiki: Wiki, settings: Settings) -> Reply:
    blocks = help_blocks(settings.entity_command, settings.wiki_command, wiki.state())
    return Reply(help_text(), tuple(blocks))


def too_long_reply(text: str) -> Reply:
    return Reply(_("That question is too long"), tuple(too_long_blocks(len(text), MAX_QUERY_CHARS)))


def not_ready_reply() -> Reply:
    return Reply(_("The wiki index is still being built"), tuple(index_not_ready_blocks()))
