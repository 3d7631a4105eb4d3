"""Links to wiki pages posted in Slack unfurl into a short card (only when ``WIKI_BASE_URL`` is set).

Everyone in the channel sees the unfurl: it is in the channel's language (`default_language`).
"""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.blocks.card import unfurl_blocks
from bot.i18n import default_language, use_language
from config.settings import Settings
from index import IndexNotReady, Wiki


async def unfurls_links(settings: Settings) -> bool:
    """Only with ``WIKI_BASE_URL`` are there links to wiki pages to unfurl."""
    return bool(settings.wiki_base_url)


async def handle_link_shared(
    event: dict, client: AsyncWebClient, wiki: Wiki, settings: Settings, answers: AnswerQueue
) -> None:
    urls = [link["url"] for link in event.get("links") or [] if link.get("url")]
    with use_language(default_language(settings.ui_language)):
        unfurls = await answers.run(unfurls_for, urls, wiki)
    if not unfurls:
        return
    if event.get("channel") and event.get("message_ts"):
        await client.chat_unfurl(channel=event["channel"], ts=event["message_ts"], unfurls=unfurls)
    else:
        await client.chat_unfurl(
            source=event.get("source"), unfurl_id=event.get("unfurl_id"), unfurls=unfurls
        )


def unfurls_for(urls: list[str], wiki: Wiki) -> dict[str, dict]:
    """The unfurl of each URL that is one of the wiki's pages; other URLs are left alone."""
    unfurls: dict[str, dict] = {}
    try:
        for url in urls:
            path = wiki.page_for_url(url)
            card = wiki.card(path) if path else None
            if card is not None:
                unfurls[url] = {"blocks": unfurl_blocks(card)}
    except IndexNotReady:
        return {}
    return unfurls
