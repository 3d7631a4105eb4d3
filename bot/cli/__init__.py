"""The ``sakuin`` command line: its commands, the terminal, the installation's checks.

``sakuin = "bot.cli:main"`` (pyproject.toml) is the entry point: `main` lives in `bot/cli/commands.py`.
"""

from bot.cli.commands import main

__all__ = ["main"]
