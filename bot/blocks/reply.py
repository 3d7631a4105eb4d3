"""`Reply`: one Slack message as the builders produce it and the edge delivers it."""

from __future__ import annotations

from dataclasses import dataclass

from index import Answer


@dataclass(frozen=True)
class Reply:
    """A Slack message: the notification ``text`` and the Block Kit ``blocks``."""

    text: str
    blocks: tuple[dict, ...]
    answer: Answer | None = None
    """For the answer to a question: the domain's answer it was composed from (its passages are
    what a model may rewrite it from; follow-ups and feedback read its subject and pages)."""

    metadata: dict | None = None
    """Slack message metadata (``event_type``, ``event_payload``): what an answer is, for
    workflows and checks to read (`bot.blocks.answer.answer_metadata`)."""

    def message(self) -> dict:
        message = {"text": self.text, "blocks": list(self.blocks)}
        if self.metadata is not None:
            message["metadata"] = self.metadata
        return message
