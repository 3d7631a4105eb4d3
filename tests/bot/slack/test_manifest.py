import pytest

from bot.i18n import use_language
from bot.slack.manifest import build_manifest, events_url
from tests.conftest import make_settings


def test_http_manifest_points_every_request_url_at_slack_events(tmp_path):
    manifest = build_manifest(make_settings(tmp_path), "https://bot.example.com")
    url = "https://bot.example.com/slack/events"
    assert [c["command"] for c in manifest["features"]["slash_commands"]] == ["/entity", "/wiki"]
    assert all(c["url"] == url for c in manifest["features"]["slash_commands"])
    assert manifest["settings"]["event_subscriptions"]["request_url"] == url
    assert manifest["settings"]["interactivity"] == {"is_enabled": True, "request_url": url}
    assert manifest["settings"]["socket_mode_enabled"] is False
    assert set(manifest["settings"]["event_subscriptions"]["bot_events"]) == {
        "app_mention",
        "message.im",
        "app_home_opened",
        "link_shared",
        "message.channels",
        "message.groups",
        "reaction_added",  # ASK_REACTION is on by default
    }
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {
        "commands",
        "chat:write",
        "app_mentions:read",
        "im:history",
        "links:read",
        "links:write",
    } <= scopes
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert "unfurl_domains" not in manifest["features"]
    assert "assistant_view" not in manifest["features"] and "assistant:write" not in scopes
    assert "agent_view" not in manifest["features"] and "reactions:read" in scopes


@pytest.mark.parametrize("url", ["https://bot.example.com", None])
@pytest.mark.parametrize(
    "setting", [{"assistant_enabled": True}, {"agent_experience": "assistant"}], ids=["old", "new"]
)
def test_assistant_pane_adds_its_feature_events_and_scope(tmp_path, url, setting):
    manifest = build_manifest(make_settings(tmp_path, **setting), url)
    assert "agent_view" not in manifest["features"]
    description = manifest["features"]["assistant_view"]["assistant_description"]
    assert 0 < len(description) <= 200
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    assert {"assistant_thread_started", "assistant_thread_context_changed", "message.im"} <= set(events)
    assert len(events) == len(set(events))
    assert {"assistant:write", "chat:write", "im:history"} <= set(manifest["oauth_config"]["scopes"]["bot"])


@pytest.mark.parametrize("url", ["https://bot.example.com", None])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_agent_experience_is_the_agent_view_with_the_messages_tab(tmp_path, url, language):
    # ASSISTANT_ENABLED no longer matters once AGENT_EXPERIENCE says which.
    settings = make_settings(tmp_path, agent_experience="agent", assistant_enabled=True)
    with use_language(language):
        manifest = build_manifest(settings, url)
    features = manifest["features"]
    description = features["agent_view"]["agent_description"]
    assert 0 < len(description) <= 200 and ("研究" in description) is (language == "ja")
    assert "assistant_view" not in features
    assert features["app_home"]["messages_tab_enabled"] is True
    assert features["app_home"]["messages_tab_read_only_enabled"] is False
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    assert {"app_home_opened", "message.im"} <= set(events) and len(events) == len(set(events))
    assert not {"assistant_thread_started", "assistant_thread_context_changed"} & set(events)
    assert {"assistant:write", "chat:write", "im:history"} <= set(manifest["oauth_config"]["scopes"]["bot"])


@pytest.mark.parametrize(
    ("reaction", "subscribed"), [("mag", True), (":eyes:", True), ("", False), ("  ", False)]
)
def test_the_ask_reaction_brings_its_event_and_scope_only_when_on(tmp_path, reaction, subscribed):
    manifest = build_manifest(make_settings(tmp_path, ask_reaction=reaction), None)
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    scopes = manifest["oauth_config"]["scopes"]["bot"]
    assert ("reaction_added" in events) is subscribed and ("reactions:read" in scopes) is subscribed
    # Answer channels need the channel messages sakuin reads for follow-ups anyway.
    assert {"message.channels", "message.groups"} <= set(events)
    assert {"channels:history", "groups:history"} <= set(scopes)


def test_socket_manifest_has_no_request_urls(tmp_path):
    settings = make_settings(
        tmp_path, entity_command="/who", wiki_command="/kb", wiki_base_url="https://w.example.org/x"
    )
    manifest = build_manifest(settings, None)
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert "request_url" not in manifest["settings"]["event_subscriptions"]
    assert "request_url" not in manifest["settings"]["interactivity"]
    commands = manifest["features"]["slash_commands"]
    assert [c["command"] for c in commands] == ["/who", "/kb"] and all("url" not in c for c in commands)
    assert manifest["features"]["unfurl_domains"] == ["w.example.org"]


def test_manifest_fields_respect_the_schema_lengths(tmp_path):
    manifest = build_manifest(make_settings(tmp_path), "https://bot.example.com/")
    info = manifest["display_information"]
    assert 175 <= len(info["long_description"]) <= 4000 and len(info["description"]) <= 140
    for command in manifest["features"]["slash_commands"]:
        assert 2 <= len(command["command"]) <= 32 and len(command["description"]) <= 2000
        assert len(command["usage_hint"]) <= 1000


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://a.example", "https://a.example/slack/events"),
        ("https://a.example/", "https://a.example/slack/events"),
        ("https://a.example/slack/events", "https://a.example/slack/events"),
        ("https://a.example/bot/", "https://a.example/bot/slack/events"),
    ],
)
def test_events_url(url, expected):
    assert events_url(url) == expected
