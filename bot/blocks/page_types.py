"""The wiki's page, entity and source types as people read them, in the UI's language.

The wiki format names a fixed set of types (``type``, ``entity_type``, ``source_type``); those are
translated. A type a team invented is shown as the page writes it.
"""

from __future__ import annotations

from bot.i18n import N_, _

TYPE_LABELS = {
    # type
    "source": N_("source"),
    "entity": N_("entity"),
    "concept": N_("concept"),
    "question": N_("question"),
    "thesis": N_("thesis"),
    "comparison": N_("comparison"),
    "survey": N_("survey"),
    "ask": N_("Q&A log"),
    "brief": N_("brief"),
    "meta": N_("meta"),
    "overview": N_("overview"),
    "fold": N_("fold"),
    # entity_type
    "person": N_("person"),
    "organization": N_("organization"),
    "product": N_("product"),
    "repository": N_("repository"),
    "place": N_("place"),
    "dataset": N_("dataset"),
    # source_type
    "paper": N_("paper"),
    "article": N_("article"),
    "video": N_("video"),
    "podcast": N_("podcast"),
    "book": N_("book"),
    "slides": N_("slides"),
    "transcript": N_("transcript"),
    "data": N_("data"),
}


def type_label(kind: str) -> str:
    """``organization`` → ``organization`` / ``組織``; an unknown type as written."""
    label = TYPE_LABELS.get(kind.strip().lower())
    return _(label) if label is not None else kind
