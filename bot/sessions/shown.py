"""Which version of its session each live message shows, and the messages left behind.

A change is committed before it is shown, so a crash or a failed reply can leave a
message showing an older version than the database: its buttons would then be refused
as stale forever. The service records each version once it is shown, and shows again
what is behind: right after a failed publish, and at start-up from the database.

Recording costs no trip of its own: the marks ride along with the next commit, or are
written a second later when nothing else commits. A mark lost to a crash only makes
start-up show that message again, which is harmless.
"""

from __future__ import annotations

import asyncio
import logging

from bot.sessions.model import Session
from bot.storage.protocols import StorageError
from bot.storage.sessions import SessionStore

log = logging.getLogger(__name__)

FLUSH_DELAY_SECONDS = 1.0


class ShownVersions:
    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self._unsaved: dict[int, int] = {}  # session id -> version shown, not yet written
        self._flush: asyncio.TimerHandle | None = None
        self._saving: asyncio.Task[None] | None = None  # kept: the loop holds tasks weakly
        self.behind: dict[int, Session] = {}  # by id: committed but not shown (yet)

    def shown(self, session: Session) -> None:
        """The session's live message now shows its current version."""
        assert session.id is not None
        behind = self.behind.get(session.id)
        if behind is not None and behind.version <= session.version:
            del self.behind[session.id]
        if self._unsaved.get(session.id, 0) < session.version:
            self._unsaved[session.id] = session.version
        if self._flush is None:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(FLUSH_DELAY_SECONDS, self._flush_soon)

    def not_shown(self, session: Session) -> None:
        """Publishing the session failed: its message is behind until shown again."""
        assert session.id is not None
        self.behind[session.id] = session

    def take(self, session_id: int | None = None) -> dict[int, int]:
        """The unsaved marks, for a commit to write (give them back if it fails); only
        `session_id`'s when given."""
        if session_id is not None:
            version = self._unsaved.pop(session_id, None)
            return {} if version is None else {session_id: version}
        marks, self._unsaved = self._unsaved, {}
        return marks

    def give_back(self, marks: dict[int, int]) -> None:
        for session_id, version in marks.items():
            if self._unsaved.get(session_id, 0) < version:
                self._unsaved[session_id] = version

    async def save(self) -> None:
        """Write the unsaved marks now (at shutdown, or a second after a mark)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        marks = self.take()
        try:
            await self.store.mark_shown(marks)
        except (StorageError, ValueError) as error:  # ValueError: the connection is closed
            self.give_back(marks)
            log.warning("could not record the versions shown: %s", error)

    def _flush_soon(self) -> None:
        self._flush = None
        if self._unsaved:
            self._saving = asyncio.get_running_loop().create_task(
                self.save(), name="record-shown-versions"
            )
