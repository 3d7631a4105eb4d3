"""``sakuin shell`` driven through a pseudo-terminal, as a person types into it: follow-ups are asked
about the last answer's subject as in a Slack thread, ``:new`` starts over, ``:help`` is the
shell's help, and the arrow keys recall earlier lines (readline) instead of printing ``^[[A``."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE_VAULT, REPO

CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
UP = "\x1b[A"
QUESTION = "Minder を開発したのはどこ?"
FOLLOW_UP = "それを本番で運用しているのは?"  # the README's follow-up: "it" is the thread's subject


class Terminal:
    """A process on a pseudo-terminal: `type` a line, `read_until` the screen shows something."""

    def __init__(self, fd: int, process: subprocess.Popen[bytes]) -> None:
        self.fd = fd
        self.process = process
        self.screen = ""

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode("utf-8"))

    def read_until(self, marker: str, timeout: float = 90.0) -> str:
        """Everything shown since the last call, up to and including ``marker``."""
        raw = b""
        deadline = time.monotonic() + timeout
        while marker not in ANSI.sub("", raw.decode("utf-8", errors="ignore")):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(left, 0))
            if not ready:
                shown = ANSI.sub("", raw.decode("utf-8", errors="ignore"))
                raise AssertionError(f"timed out waiting for {marker!r}; the screen shows:\n{shown}")
            try:
                raw += os.read(self.fd, 65536)
            except OSError:  # the process ended and closed the terminal
                break
        text = ANSI.sub("", raw.decode("utf-8", errors="ignore"))
        self.screen += text
        return text


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Terminal]:
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-c", CLI, "shell"],
        cwd=tmp_path,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "WIKI_DIR": str(EXAMPLE_VAULT),
            "INDEX_DIR": str(tmp_path / "index"),
            "UI_LANGUAGE": "auto",
            "TERM": "xterm",
            "NO_COLOR": "1",
        },
        close_fds=True,
    )
    os.close(terminal)
    try:
        yield Terminal(controller, process)
    finally:
        process.kill()
        process.wait()
        os.close(controller)


def first_answer_line(shown: str, typed: str) -> str:
    """The first line of the answer after the echo of ``typed``."""
    lines = [line for line in shown.split("\n") if line.strip()]
    echo = next(i for i, line in enumerate(lines) if line.rstrip().endswith(typed))
    return lines[echo + 1]


def test_follow_ups_are_asked_about_the_last_answers_subject(shell: Terminal) -> None:
    shell.read_until("sakuin> ")
    shell.type(QUESTION + "\r")
    assert "ByteDance — Minder の開発元" in shell.read_until("sakuin [Minder]> ")

    shell.type(FOLLOW_UP + "\r")
    about_minder = first_answer_line(shell.read_until("sakuin [Minder]> "), FOLLOW_UP)
    assert "— Minder §" in about_minder

    shell.type(":help\r")  # the shell's help (in Japanese, as the terminal speaks under auto)
    shown = shell.read_until("sakuin [Minder]> ")
    assert "`:new` で新しい会話" in shown and "Wiki のほかの箇所" not in shown

    shell.type(":new\r")
    assert "新しい会話を始めます。" in shell.read_until("sakuin> ")
    shell.type(UP + UP + UP + "\r")  # :new, :help, then the follow-up: recalled, not printed as ^[[A
    alone = first_answer_line(shell.read_until("sakuin"), FOLLOW_UP)
    assert "— Minder §" not in alone  # no subject now: the same words find another page first

    shell.type(":quit\r")
    shell.process.wait(timeout=30)
    assert shell.process.returncode == 0
    assert "^[[A" not in shell.screen
