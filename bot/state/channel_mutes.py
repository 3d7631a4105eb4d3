"""Who muted sakuin's answers without a mention in an answer channel (``ANSWER_CHANNELS``).

A user who clicks "Mute for me" under such an answer is not answered there again unless they
mention sakuin; "Unmute" undoes it. As for votes (`bot.state.feedback`), no user or channel id is
kept in the clear: a mute is stored under a digest of (channel, user), which is all the question
"did this user mute this channel?" needs.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from bot.state.sqlite import SqliteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS channel_mutes (
    muter TEXT PRIMARY KEY,
    at    REAL NOT NULL
);
"""


def muter_key(channel: str, user: str) -> str:
    """The digest a mute is kept under: the same (channel, user) always gives the same key."""
    return hashlib.sha256(f"mute\0{channel}\0{user}".encode()).hexdigest()


class ChannelMutes(Protocol):
    def mute_channel(self, channel: str, user: str) -> None:
        """``user`` is no longer answered without a mention in ``channel`` (muting twice is muting once)."""
        ...

    def unmute_channel(self, channel: str, user: str) -> None:
        """Undo `mute_channel` (unmuting a channel that is not muted changes nothing)."""
        ...

    def channel_muted(self, channel: str, user: str) -> bool:
        """Whether ``user`` muted ``channel``, as every store sharing the state sees it."""
        ...


class SqliteChannelMutes(SqliteFile):
    def mute_channel(self, channel: str, user: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO channel_mutes (muter, at) VALUES (?, ?) ON CONFLICT (muter) DO NOTHING",
                (muter_key(channel, user), self._clock()),
            )

    def unmute_channel(self, channel: str, user: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM channel_mutes WHERE muter = ?", (muter_key(channel, user),))

    def channel_muted(self, channel: str, user: str) -> bool:
        with self._reading() as db:
            row = db.execute(
                "SELECT 1 FROM channel_mutes WHERE muter = ?", (muter_key(channel, user),)
            ).fetchone()
        return row is not None
