"""`Reply`: one Slack message as the builders produce it and the edge delivers it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reply:
    """A Slack message: the notification ``text`` and the Block Kit ``blocks``."""

    text: str
    blocks: tuple[dict, ...]

    def message(self) -> dict:
        return {"text": self.text, "blocks": list(self.blocks)}
