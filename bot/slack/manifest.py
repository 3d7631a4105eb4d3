"""The Slack app manifest for this configuration (``sakuin manifest [--url URL]``).

With a URL the app is set up for HTTP (``sakuin serve``): every slash command, the event
subscriptions and interactivity point at ``URL/slack/events``. Without one it is set up for
Socket Mode (``sakuin socket``), where Slack needs no request URLs.

Messages in channels and private channels (``message.channels``, ``message.groups``) are
subscribed for thread follow-ups (and the questions of ``ANSWER_CHANNELS``). ``AGENT_EXPERIENCE``
adds Slack's agent feature with the ``assistant:write`` scope: ``agent`` the agent messaging
experience (``agent_view``: the Messages tab, answered through ``app_home_opened`` and
``message.im``), ``assistant`` the legacy split view (``assistant_view``) and its thread events.
With ``ASK_REACTION`` set the app gets ``reaction_added`` and ``reactions:read``.

The descriptions are in the UI language (``UI_LANGUAGE``; ``auto``: Japanese): Slack shows one
manifest to the whole workspace.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bot.blocks.inbox import SAVE_TO_INBOX, SHORTCUT_DESCRIPTION, SHORTCUT_NAME
from bot.i18n import N_, _
from config.settings import Settings

EVENTS_PATH = "/slack/events"
"""Where Slack posts commands, events and interactivity (the request URL's path)."""

APP_NAME = "sakuin"
BOT_EVENTS = (
    "app_mention",
    "message.im",
    "app_home_opened",
    "link_shared",
    # Follow-ups: messages in the threads sakuin answered in.
    "message.channels",
    "message.groups",
)
ASSISTANT_EVENTS = ("assistant_thread_started", "assistant_thread_context_changed")
ASSISTANT_SCOPES = ("assistant:write",)
REACTION_EVENTS = ("reaction_added",)
REACTION_SCOPES = ("reactions:read",)
ASSISTANT_DESCRIPTION = N_(
    "Ask the team's research wiki: who built what, which sources say so, and what links to it."
)
BOT_SCOPES = (
    "commands",
    "chat:write",
    "app_mentions:read",
    "im:history",
    "links:read",
    "links:write",
    # The digest reads its channel's history to find a post whose answer was lost (exactly once);
    # follow-ups read the messages of threads sakuin answered in.
    "channels:history",
    "groups:history",
    # `sakuin doctor` checks each digest channel exists and has the bot (conversations.info).
    "channels:read",
    "groups:read",
    # Commands, buttons and App Home speak the user's Slack locale (users.info, UI_LANGUAGE=auto).
    "users:read",
)


def build_manifest(settings: Settings, url: str | None) -> dict:
    request_url = events_url(url) if url else None
    commands = [
        command_entry(
            settings.entity_command, _("Look up a name in the research wiki"), _("NAME"), request_url
        ),
        command_entry(
            settings.wiki_command, _("Search the research wiki (or: help)"), _("QUERY | help"), request_url
        ),
    ]
    bot_events, scopes = list(BOT_EVENTS), list(BOT_SCOPES)
    event_subscriptions: dict = {"bot_events": bot_events}
    interactivity: dict = {"is_enabled": True}
    if request_url:
        event_subscriptions["request_url"] = request_url
        interactivity["request_url"] = request_url
    features: dict = {
        "app_home": {
            "home_tab_enabled": True,
            "messages_tab_enabled": True,
            "messages_tab_read_only_enabled": False,
        },
        "bot_user": {"display_name": APP_NAME, "always_online": True},
        "slash_commands": commands,
        # The wiki's inbox: a thread saved as a question for the wiki's maintainers (bot/loop/inbox.py).
        "shortcuts": [
            {
                "name": _(SHORTCUT_NAME),
                "type": "message",
                "callback_id": SAVE_TO_INBOX,
                "description": _(SHORTCUT_DESCRIPTION),
            }
        ],
    }
    if settings.experience == "agent":
        features["agent_view"] = {"agent_description": _(ASSISTANT_DESCRIPTION)}
        scopes += ASSISTANT_SCOPES
    elif settings.experience == "assistant":
        features["assistant_view"] = {"assistant_description": _(ASSISTANT_DESCRIPTION)}
        bot_events += ASSISTANT_EVENTS
        scopes += ASSISTANT_SCOPES
    if settings.ask_reaction:
        bot_events += REACTION_EVENTS
        scopes += REACTION_SCOPES
    domain = unfurl_domain(settings.wiki_base_url)
    if domain:
        features["unfurl_domains"] = [domain]
    return {
        "_metadata": {"major_version": 1, "minor_version": 1},
        "display_information": {
            "name": APP_NAME,
            "description": _("The team's research wiki in Slack"),
            "long_description": _(LONG_DESCRIPTION),
        },
        "features": features,
        "oauth_config": {"scopes": {"bot": scopes}},
        "settings": {
            "event_subscriptions": event_subscriptions,
            "interactivity": interactivity,
            "org_deploy_enabled": False,
            "socket_mode_enabled": request_url is None,
            "token_rotation_enabled": False,
        },
    }


def scopes_of_features(settings: Settings) -> dict[str, str]:
    """The scopes only an optional feature needs, each with the setting that turned it on (for
    `sakuin doctor` to say why a scope is missing)."""
    needs: dict[str, str] = {}
    if settings.experience != "off":
        needs.update(dict.fromkeys(ASSISTANT_SCOPES, "AGENT_EXPERIENCE"))
    if settings.ask_reaction:
        needs.update(dict.fromkeys(REACTION_SCOPES, "ASK_REACTION"))
    return needs


def command_entry(command: str, description: str, usage_hint: str, url: str | None) -> dict:
    entry = {"command": command, "description": description, "usage_hint": usage_hint, "should_escape": False}
    if url:
        entry["url"] = url
    return entry


def events_url(url: str) -> str:
    """``https://host`` or ``https://host/slack/events`` both become ``https://host/slack/events``."""
    base = url.rstrip("/")
    return base if base.endswith(EVENTS_PATH) else base + EVENTS_PATH


def unfurl_domain(base_url: str | None) -> str | None:
    return urlsplit(base_url).hostname if base_url else None


LONG_DESCRIPTION = N_(
    "sakuin brings the team's Obsidian research wiki into Slack. /entity NAME shows what the wiki knows "
    "about a person, organisation, product or concept: a summary, its relations as links and the pages "
    "that link back to it. /wiki QUERY searches the wiki (Japanese and English) and shows the best "
    "passages. Mention the bot with a question to get the passages that answer it in the thread "
    "(follow-up questions in that thread need no new mention), or send it a direct message. Answers "
    "to commands are private, with a button to share them."
)
