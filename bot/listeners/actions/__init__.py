"""Buttons and selects: open a page's card in place (related pages, hits, candidates), share,
vote on an answer, stop following a thread, mute (and unmute) an answer channel, ask the wiki to
cover a question."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.blocks.buttons import CHOOSE_CANDIDATE_ACTION, OPEN_PAGE_ACTION, OPEN_PAGE_SELECT, SHARE
from bot.blocks.channel_note import MUTE_CHANNEL, UNMUTE_CHANNEL
from bot.blocks.controls import FEEDBACK, STOP_FOLLOWING
from bot.blocks.inbox import WIKI_ASK
from bot.listeners.actions.feedback import handle_feedback
from bot.listeners.actions.mute_channel import handle_mute_channel, handle_unmute_channel
from bot.listeners.actions.open_page import handle_open_page
from bot.listeners.actions.share import handle_share
from bot.listeners.actions.stop_following import handle_stop_following
from bot.listeners.actions.wiki_ask import handle_wiki_ask


def register(app: AsyncApp) -> None:
    app.action(OPEN_PAGE_ACTION)(handle_open_page)
    app.action(OPEN_PAGE_SELECT)(handle_open_page)
    app.action(CHOOSE_CANDIDATE_ACTION)(handle_open_page)
    app.action(SHARE)(handle_share)
    app.action(FEEDBACK)(handle_feedback)
    app.action(STOP_FOLLOWING)(handle_stop_following)
    app.action(MUTE_CHANNEL)(handle_mute_channel)
    app.action(UNMUTE_CHANNEL)(handle_unmute_channel)
    app.action(WIKI_ASK)(handle_wiki_ask)
