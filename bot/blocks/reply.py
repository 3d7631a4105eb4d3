"""`Reply`: one Slack message as the builders produce it and the edge delivers it."""

from __future__ import annotations

from dataclasses import dataclass

from index.model import SearchResult


@dataclass(frozen=True)
class Reply:
    """A Slack message: the notification ``text`` and the Block Kit ``blocks``."""

    text: str
    blocks: tuple[dict, ...]
    result: SearchResult | None = None
    """For the answer to a question: the search it was built from (the passages a model may rewrite)."""

    def message(self) -> dict:
        return {"text": self.text, "blocks": list(self.blocks)}
