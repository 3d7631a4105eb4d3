"""AGENT_EXPERIENCE (with the older ASSISTANT_ENABLED), ANSWER_CHANNELS and ASK_REACTION, as read
from the environment."""

from __future__ import annotations

import pytest

from config.settings import SettingsError, load_settings


@pytest.mark.parametrize(
    ("environment", "experience"),
    [
        ({}, "off"),
        ({"AGENT_EXPERIENCE": "agent"}, "agent"),
        ({"AGENT_EXPERIENCE": " Agent "}, "agent"),
        ({"AGENT_EXPERIENCE": "assistant"}, "assistant"),
        ({"ASSISTANT_ENABLED": "true"}, "assistant"),  # existing installs keep their split view
        ({"ASSISTANT_ENABLED": "true", "AGENT_EXPERIENCE": "off"}, "assistant"),
        ({"ASSISTANT_ENABLED": "true", "AGENT_EXPERIENCE": "agent"}, "agent"),
        ({"ASSISTANT_ENABLED": "false", "AGENT_EXPERIENCE": "assistant"}, "assistant"),
    ],
)
def test_which_agent_experience(monkeypatch, environment: dict[str, str], experience: str) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert load_settings(_env_file=None).experience == experience


def test_an_unknown_experience_names_the_variable(monkeypatch) -> None:
    monkeypatch.setenv("AGENT_EXPERIENCE", "sidebar")
    with pytest.raises(SettingsError, match=r"^invalid setting AGENT_EXPERIENCE: "):
        load_settings(_env_file=None)


@pytest.mark.parametrize(
    ("value", "reaction"),
    [(None, "mag"), ("mag", "mag"), (":eyes:", "eyes"), (" white_check_mark ", "white_check_mark"), ("", "")],
)
def test_the_ask_reaction(monkeypatch, value: str | None, reaction: str) -> None:
    if value is not None:
        monkeypatch.setenv("ASK_REACTION", value)
    assert load_settings(_env_file=None).ask_reaction == reaction


@pytest.mark.parametrize("value", ["🔍", "Mag", "two words"])
def test_an_ask_reaction_that_is_not_an_emoji_name_names_the_variable(monkeypatch, value: str) -> None:
    monkeypatch.setenv("ASK_REACTION", value)
    with pytest.raises(SettingsError, match=r"^invalid setting ASK_REACTION: expected an emoji name"):
        load_settings(_env_file=None)


def test_answer_channels_are_comma_separated(monkeypatch) -> None:
    monkeypatch.setenv("ANSWER_CHANNELS", " C0ASK, G0PRIVATE ,,")
    assert load_settings(_env_file=None).answer_channels == ("C0ASK", "G0PRIVATE")
