"""The gateway session kept across restarts: a new process RESUMEs its shard's session,
so the clicks made while the old one was gone are replayed to it instead of failing.

Discord keeps a session whose connection dropped, or was closed with a code other than
1000 and 1001, for a few minutes, and a RESUME naming its id and the last sequence number
received replays every event sent since, then RESUMED (Discord's gateway docs,
"Disconnecting" and "Resuming"). discord.py resumes only within one process: a process
that was killed, or restarted for a deploy, identifies afresh, and every click made in
between failed for its person ("This interaction failed"), 38 of them in bench_soak's
process kill. So each shard's session id, resume URL and last sequence are written to a
small file (`GATEWAY_SESSION_DIR/shard-<id>-of-<count>.json`) as its events arrive, and
the first connection of that shard in a new process resumes the session written there.
A session Discord no longer has is answered with INVALID_SESSION, and discord.py
identifies as it always did. twilight-gateway keeps sessions across restarts the same
way (its `Session`, "Reusing sessions").

A click replayed too late for Discord's 3 s is not acted on (`replayed_too_late`): its
person is told "This interaction failed", so the move must not be played either.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import aiohttp
import discord
import discord.client
import discord.gateway
import discord.shard
import yarl

log = logging.getLogger(__name__)

# Discord keeps a dropped session "a few minutes"; an older file is not worth a RESUME.
KEPT_SECONDS = 300.0
# A replayed click older than this cannot be answered within Discord's 3 s, counting the
# time the answer takes to get there.
ANSWERABLE_SECONDS = 2.5
# Closing with these codes ends the session at Discord (the bot shows offline at once).
ENDING_CLOSE_CODES = (1000, 1001)
RESUMABLE_CLOSE_CODE = 4000
# A saved session's size in its file (its JSON padded with spaces): about 200 bytes.
RECORD_BYTES = 512
# What opening the websocket at a saved resume URL may raise (gone, refused, no answer).
CONNECT_ERRORS = (OSError, aiohttp.ClientError, TimeoutError, discord.ConnectionClosed)


@dataclass(frozen=True, slots=True)
class SavedSession:
    session_id: str
    resume_url: str
    sequence: int
    gateway: str  # the gateway it was opened at: another one (a stand-in's) is not asked
    saved_at: float


class SessionFiles:
    """Each shard's gateway session in a file of `folder`, and which shards of this
    process resumed one (the first connection of each shard takes its file once). The
    file names the shard count too: a session of shard 0 of 1 (every guild) must not be
    resumed as shard 0 of 2."""

    def __init__(
        self, folder: Path, shard_count: int = 1, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.folder = folder
        self.shard_count = shard_count
        self._clock = clock
        self._taken: set[int | None] = set()
        self._saved: dict[int | None, tuple[str, int]] = {}
        self._forgotten: set[int | None] = set()
        self._open: dict[int | None, int] = {}  # each shard's file, open for writing
        self._broken = False  # the folder cannot be written: said once, then left alone
        self.replaying: set[int | None] = set()  # resumed, RESUMED not yet received
        self.resumed: set[int | None] = set()

    def path(self, shard_id: int | None) -> Path:
        return self.folder / f"shard-{shard_id or 0}-of-{self.shard_count}.json"

    def take(self, shard_id: int | None, gateway: str) -> SavedSession | None:
        """The session to resume at this shard's first connection in this process: the
        one saved, unless it is missing, unreadable, older than Discord keeps one, or
        opened at another gateway than `gateway` (the token is not sent to a stand-in's
        address, nor a stand-in's session to Discord)."""
        if shard_id in self._taken:
            return None
        self._taken.add(shard_id)
        path = self.path(shard_id)
        try:
            text = path.read_text(encoding="utf-8")
            if not text.strip():
                return None  # created, then killed before its first session was written
            data = json.loads(text)
            saved = SavedSession(
                session_id=str(data["session_id"]),
                resume_url=str(data["resume_url"]),
                sequence=int(data["sequence"]),
                gateway=str(data["gateway"]),
                saved_at=float(data["saved_at"]),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("%s is not a saved gateway session (%s): identifying afresh", path, error)
            return None
        if saved.gateway != gateway:
            log.info(
                "shard %s: the saved session is of %s, not %s: identifying afresh",
                shard_id,
                saved.gateway,
                gateway,
            )
            return None
        age = self.age(saved)
        if not 0 <= age <= KEPT_SECONDS:
            log.info("shard %s: the saved session is %.0f s old: identifying afresh", shard_id, age)
            return None
        return saved

    def age(self, saved: SavedSession) -> float:
        return self._clock() - saved.saved_at

    def save(
        self, shard_id: int | None, session_id: str, resume_url: str, sequence: int, gateway: str
    ) -> None:
        """Write the shard's session if its sequence moved: one write of a fixed-size
        record over the last one, in a file kept open (renaming a new file each time cost
        0.35 ms an event, on the event loop). A write this small is whole or not done,
        whatever kills the process."""
        if self._broken or self._saved.get(shard_id) == (session_id, sequence):
            return
        saved = SavedSession(session_id, resume_url, sequence, gateway, self._clock())
        record = json.dumps(asdict(saved)).encode()
        try:
            if len(record) > RECORD_BYTES:
                raise OSError(f"a session of {len(record)} bytes, more than {RECORD_BYTES}")
            os.pwrite(self._file(shard_id), record.ljust(RECORD_BYTES), 0)
        except OSError as error:
            self._broken = True
            log.warning(
                "cannot keep the gateway session in %s (%s): a restart will identify afresh, "
                "and the clicks made while it restarts will fail",
                self.folder,
                error,
            )
            return
        self._saved[shard_id] = (session_id, sequence)
        self._forgotten.discard(shard_id)

    def _file(self, shard_id: int | None) -> int:
        opened = self._open.get(shard_id)
        if opened is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            opened = os.open(self.path(shard_id), os.O_WRONLY | os.O_CREAT, 0o600)
            self._open[shard_id] = opened
        return opened

    def forget(self, shard_id: int | None) -> None:
        """The shard has no session (Discord invalidated it, or none yet): nothing to
        resume. The file goes once, not at every event."""
        if shard_id in self._forgotten:
            return
        self._forgotten.add(shard_id)
        self._saved.pop(shard_id, None)
        self.replaying.discard(shard_id)
        opened = self._open.pop(shard_id, None)
        with contextlib.suppress(OSError):
            if opened is not None:
                os.close(opened)
            self.path(shard_id).unlink(missing_ok=True)

    def close(self) -> None:
        """Close the files (the sessions stay in them for the next process)."""
        for opened in self._open.values():
            with contextlib.suppress(OSError):
                os.close(opened)
        self._open.clear()

    def resumed_every(self, shard_ids: tuple[int | None, ...]) -> bool:
        """Whether each of these shards came back by resuming (no READY will come)."""
        return bool(shard_ids) and all(shard in self.resumed for shard in shard_ids)


class ResumingWebSocket(discord.gateway.DiscordWebSocket):
    """discord.py's gateway websocket that resumes a saved session at a shard's first
    connection and keeps its own session saved (the client's `gateway_sessions`)."""

    _files: SessionFiles | None = None

    @classmethod
    async def from_client(
        cls,
        client: discord.Client,
        *,
        initial: bool = False,
        gateway: yarl.URL | None = None,
        shard_id: int | None = None,
        session: str | None = None,
        sequence: int | None = None,
        resume: bool = False,
        encoding: str = "json",
        compress: bool = True,
    ) -> Self:
        files = getattr(client, "gateway_sessions", None)
        if not isinstance(files, SessionFiles):
            files = None
        saved = None
        if files is not None and not resume:
            saved = files.take(shard_id, str(cls.DEFAULT_GATEWAY))
        if files is not None and saved is not None:
            log.info(
                "shard %s: resuming gateway session %s after sequence %d (saved %.1f s ago)",
                shard_id,
                saved.session_id,
                saved.sequence,
                files.age(saved),
            )
            files.replaying.add(shard_id)
            try:
                ws = await super().from_client(
                    client,
                    initial=initial,
                    gateway=yarl.URL(saved.resume_url),
                    shard_id=shard_id,
                    session=saved.session_id,
                    sequence=saved.sequence,
                    resume=True,
                    encoding=encoding,
                    compress=compress,
                )
            except CONNECT_ERRORS as error:
                # discord.py cannot retry a first connection (its retry reads the
                # websocket it does not have yet): identify at the usual gateway instead.
                files.replaying.discard(shard_id)
                log.warning(
                    "shard %s: cannot resume at %s (%s): identifying afresh",
                    shard_id,
                    saved.resume_url,
                    error or type(error).__name__,
                )
            else:
                ws._files = files
                return ws
        elif files is not None and resume:
            files.replaying.add(shard_id)  # discord.py's own resume, after a drop
        ws = await super().from_client(
            client,
            initial=initial,
            gateway=gateway,
            shard_id=shard_id,
            session=session,
            sequence=sequence,
            resume=resume,
            encoding=encoding,
            compress=compress,
        )
        ws._files = files
        return ws

    async def received_message(self, msg: Any, /) -> None:
        try:
            await super().received_message(msg)
        finally:
            self._keep_session()

    def _keep_session(self) -> None:
        files = self._files
        if files is None:
            return
        if self.session_id is None:  # INVALID_SESSION: Discord ended it
            files.forget(self.shard_id)
        elif self.sequence is not None:
            files.save(
                self.shard_id,
                self.session_id,
                str(self.gateway),
                self.sequence,
                str(self.DEFAULT_GATEWAY),
            )

    async def close(self, code: int = RESUMABLE_CLOSE_CODE) -> None:
        # discord.py closes with 1000 when the bot stops, which ends the session at
        # Discord. Closed with 4000 it stays resumable: the next process (a deploy's, a
        # restart's) is replayed the clicks made in between.
        if code in ENDING_CLOSE_CODES and self._files is not None and self.session_id:
            code = RESUMABLE_CLOSE_CODE
        await super().close(code)


def use_resuming_websocket() -> None:
    """Make discord.py's clients (one connection, or AutoSharded) open their gateway
    websockets as ResumingWebSocket. A client without `gateway_sessions` is served
    exactly as by discord.py's own class."""
    discord.client.DiscordWebSocket = ResumingWebSocket  # type: ignore[misc]
    discord.shard.DiscordWebSocket = ResumingWebSocket  # type: ignore[misc]


def watch_replays(client: discord.Client, files: SessionFiles) -> None:
    """Mark a shard resumed at its RESUMED, and drop a click replayed too late to answer.

    Only while a shard replays: a live click's age would depend on this machine's clock
    agreeing with Discord's, and a clock a few seconds fast must not drop every click."""
    parsers = client._connection.parsers
    parse_resumed = parsers["RESUMED"]
    parse_interaction = parsers["INTERACTION_CREATE"]

    def resumed(data: dict[str, Any]) -> None:
        shard_id = data.get("__shard_id__")
        files.replaying.discard(shard_id)
        files.resumed.add(shard_id)
        parse_resumed(data)

    def interaction(data: dict[str, Any]) -> None:
        if files.replaying and replayed_too_late(data, datetime.now(UTC)):
            return
        parse_interaction(data)

    parsers["RESUMED"] = resumed
    parsers["INTERACTION_CREATE"] = interaction


def age_of(data: dict[str, Any], now: datetime) -> float:
    """Seconds since an interaction was made, as its id says (0 if it has no id)."""
    try:
        made = discord.utils.snowflake_time(int(data["id"]))
    except (KeyError, TypeError, ValueError):
        return 0.0
    return (now - made).total_seconds()


def replayed_too_late(data: dict[str, Any], now: datetime) -> bool:
    """Whether an interaction is too old to be answered in Discord's 3 s (its id says
    when it was made); logged, as it is not acted on."""
    age = age_of(data, now)
    if age <= ANSWERABLE_SECONDS:
        return False
    log.info(
        "interaction %s replayed %.1f s after it was made, too late to answer: not acted on",
        data.get("id"),
        age,
    )
    return True
