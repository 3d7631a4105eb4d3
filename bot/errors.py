"""How an error is told in one line: in a check's detail, in a log line instead of a traceback."""

from __future__ import annotations


def describe_error(error: BaseException) -> str:
    """An error in one line for a detail: its type and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
