"""The line under an answer nobody mentioned sakuin for (``ANSWER_CHANNELS``), and the replies to
its button: why sakuin spoke, and how to stop it (the button, for oneself; the setting, for admins).
"""

from __future__ import annotations

from bot.blocks.elements import button, section
from bot.i18n import N_, _

MUTE_CHANNEL = "mute_channel_answers"
UNMUTE_CHANNEL = "unmute_channel_answers"
NOTE_BLOCK_ID = "channel_note"

NOTE_TEXT = N_(
    "_I answered without a mention: this channel answers its questions when the wiki knows"
    " (admins: `ANSWER_CHANNELS`)._"
)
MUTE_LABEL = N_("Mute for me")
MUTED_TEXT = N_(
    "Muted: I will not answer your questions in this channel unless you mention me. Others still get answers."
)
UNMUTE_LABEL = N_("Unmute")
UNMUTED_TEXT = N_("Unmuted: I answer your questions in this channel again when the wiki knows.")


def note_block(channel: str) -> dict:
    """The note with its "Mute for me" button (its value: the channel muted)."""
    return {
        **section(_(NOTE_TEXT), accessory=button(_(MUTE_LABEL), MUTE_CHANNEL, channel)),
        "block_id": NOTE_BLOCK_ID,
    }


def muted_blocks(channel: str) -> list[dict]:
    """What the user who muted the channel is told (only they see it), with a way back."""
    return [section(_(MUTED_TEXT), accessory=button(_(UNMUTE_LABEL), UNMUTE_CHANNEL, channel))]


def unmuted_blocks() -> list[dict]:
    return [section(_(UNMUTED_TEXT))]
