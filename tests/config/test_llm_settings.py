"""The LLM_* settings: off by default, a model name required once a server is named."""

from __future__ import annotations

import pytest

from config.settings import SettingsError, load_settings


@pytest.mark.parametrize(
    ("environment", "problem"),
    [
        (
            {"LLM_BASE_URL": "http://127.0.0.1:8000/v1"},
            "invalid setting LLM_MODEL: required when LLM_BASE_URL",
        ),
        ({"LLM_BASE_URL": "127.0.0.1:8000/v1", "LLM_MODEL": "m"}, "invalid setting LLM_BASE_URL: expected"),
        ({"LLM_BASE_URL": "ftp://models/v1", "LLM_MODEL": "m"}, "invalid setting LLM_BASE_URL: expected"),
        (
            {"LLM_BASE_URL": "http://x/v1", "LLM_MODEL": "m", "LLM_TIMEOUT": "0"},
            "invalid setting LLM_TIMEOUT",
        ),
    ],
)
def test_a_bad_model_setting_names_its_variable(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], problem: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        load_settings(_env_file=None)
    assert str(error.value).startswith(problem)


@pytest.mark.parametrize(
    ("environment", "url", "model"),
    [
        ({}, None, None),
        ({"LLM_BASE_URL": " ", "LLM_MODEL": ""}, None, None),
        ({"LLM_MODEL": "qwen3"}, None, "qwen3"),
        (
            {"LLM_BASE_URL": "https://api.openai.com/v1", "LLM_MODEL": "gpt-4o-mini"},
            "https://api.openai.com/v1",
            "gpt-4o-mini",
        ),
    ],
)
def test_the_model_is_off_until_a_server_is_named(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], url: str | None, model: str | None
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    settings = load_settings(_env_file=None)
    assert (settings.llm_base_url, settings.llm_model) == (url, model)
    assert settings.llm_timeout == 20
