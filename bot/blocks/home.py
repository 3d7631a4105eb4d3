"""The App Home tab: recent sources and how to use the commands."""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.digest import source_blocks
from bot.blocks.elements import (
    MAX_VIEW_BLOCKS,
    context,
    divider,
    fit_blocks,
    header,
    section,
)
from bot.blocks.help import index_status, usage_lines
from bot.i18n import _
from bot.mrkdwn import bold
from index.model import DigestItem, IndexState


def home_view(
    recent: Sequence[DigestItem],
    state: IndexState,
    entity_command: str,
    wiki_command: str,
) -> dict:
    """The ``home`` view for views.publish (at most 100 blocks)."""
    blocks = [
        header(_("sakuin: the research wiki in Slack")),
        context(index_status(state)),
        section(bold(_("How to use it")) + "\n" + "\n".join(usage_lines(entity_command, wiki_command))),
        divider(),
        header(_("Recent sources")),
    ]
    if recent:
        for item in recent:
            blocks += source_blocks(item)
    else:
        blocks.append(section(_("No sources yet.")))
    return {"type": "home", "blocks": fit_blocks(blocks, MAX_VIEW_BLOCKS)}
