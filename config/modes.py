"""The settings each long-running mode needs: the one list `sakuin serve` and `sakuin socket`
refuse to start by and `sakuin doctor` checks against, so the two always agree."""

from __future__ import annotations

from config.settings import Settings, require

MODES: dict[str, tuple[str, ...]] = {
    "sakuin serve": ("slack_bot_token", "slack_signing_secret"),
    "sakuin socket": ("slack_bot_token", "slack_app_token"),
}


def missing_settings(settings: Settings, mode: str) -> list[str]:
    """The variables ``mode`` needs that are not set, by name (``SLACK_BOT_TOKEN``)."""
    return [name.upper() for name in MODES[mode] if getattr(settings, name) is None]


def require_mode(settings: Settings, mode: str) -> None:
    """Stop with one line naming every setting ``mode`` needs that is missing."""
    require(settings, *MODES[mode], by=mode)
