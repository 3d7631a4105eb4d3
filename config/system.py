"""The machine's own settings sakuin follows: the locale, for the terminal's language under
``UI_LANGUAGE=auto`` (config is the only package that reads the environment)."""

from __future__ import annotations

import os

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language of messages comes from, first set wins (as POSIX reads them)."""


def system_locale() -> str | None:
    """``en_US.UTF-8``, ``ja_JP.UTF-8`` …, or None when no locale variable is set."""
    for name in LOCALE_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None
