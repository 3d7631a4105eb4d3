import pytest

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


@pytest.mark.parametrize("url", ["https://bot.example.com", None])
def test_assistant_pane_adds_its_feature_events_and_scope(tmp_path, url):
    manifest = build_manifest(make_settings(tmp_path, assistant_enabled=True), url)
    description = manifest["features"]["assistant_view"]["assistant_description"]
    assert 0 < len(description) <= 200
    events = manifest["settings"]["event_subscriptions"]["bot_events"]
    assert {"assistant_thread_started", "assistant_thread_context_changed", "message.im"} <= set(events)
    assert len(events) == len(set(events))
    assert {"assistant:write", "chat:write", "im:history"} <= set(manifest["oauth_config"]["scopes"]["bot"])


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
