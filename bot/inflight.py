"""The clicks a killed process was holding, answered by the process that takes its place.

A process killed (SIGKILL, the OOM killer, a crash) dies holding the interactions it had
received but not yet answered. Discord delivered them: their sequence numbers are in the
saved gateway session (bot.gateway_resume), so the RESUME of the next process does not
replay them, and nothing else sends them again. Their people were told "This interaction
failed" (5 to 7 of them at each process kill of bench_soak at 1,000 games).

So each interaction is written to a file of its own as it arrives, before it is acted
on, and the file goes when Discord has taken its first answer (the callback's response).
In between, the file is renamed when the click's change is committed. The next process
of the same shards acts on the files left, before its gateway connects, where Discord's
3 s still allow an answer (an interaction's id says when it was made); the older ones go
unread. Any process may answer an interaction: its id and token are all it takes.

A click is never played twice. One whose change its predecessor had committed is
answered with the game as it is now, its change shown, as the twin of a double tap is;
one that had not got that far is played as if it had just come. (Moves would be refused
anyway, as clicked on a version that moved on, but that refusal would tell the person
that their move did not count.)

The folder is locked (flock) while a process journals into it, and a process replays
only what it could lock: a predecessor still alive (a deploy that starts the new process
before stopping the old) keeps its clicks, and the new process keeps no journal of its
own then. The kernel drops the lock as its holder dies, however it dies.

A file is a few kilobytes written by one call; the page cache keeps it when the process
dies. Only the machine's crash can cut it short, and a file that is not whole JSON is
dropped unread.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord

from bot.gateway_resume import replayed_too_late

log = logging.getLogger(__name__)

# An interaction not answered this long after it arrived never will be (the bot gave up
# on it, or answered it in a way this journal did not see): its file goes.
FORGET_SECONDS = 15.0
RECEIVED, COMMITTED = ".json", ".committed.json"
# The interaction whose handling is running, for `committed`: set around discord.py's
# parsing of it, so every task discord.py starts for it inherits it.
_HANDLING: ContextVar[int | None] = ContextVar("inflight_interaction", default=None)


def folder_for(root: Path, shards: tuple[int, ...] | None, shard_count: int) -> Path:
    """The journal of the process serving `shards` (None: all, unsharded)."""
    named = "-".join(str(shard) for shard in shards) if shards else "0"
    return root / f"inflight-{named}-of-{shard_count}"


def callback_interaction(path: str) -> int | None:
    """The interaction id of an interaction callback's URL path
    (`.../interactions/<id>/<token>/callback`), else None."""
    if not path.endswith("/callback"):
        return None
    parts = path.split("/")
    if len(parts) < 4 or parts[-4] != "interactions":
        return None
    try:
        return int(parts[-3])
    except ValueError:
        return None


class Inflight:
    """The journal of this process's interactions not yet answered (see the module)."""

    def __init__(self, folder: Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self._clock = clock
        self._lock: int | None = None
        self._open: dict[int, tuple[float, Path]] = {}  # interaction id -> (arrived, file)
        self._committed_before: set[int] = set()  # replayed, committed by the predecessor
        self.journaling = False

    def take(self) -> list[tuple[Path, bytes]]:
        """Lock the folder and take what a predecessor left (its files, read and removed);
        from now on journal this process's interactions. Nothing if another process holds
        the folder (and this one keeps no journal)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            lock = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            log.warning(
                "cannot keep the interactions in flight in %s (%s): those a killed process "
                "held will fail",
                self.folder,
                error,
            )
            return []
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(lock)
            log.warning(
                "%s is locked by another process serving the same shards: its clicks in "
                "flight are its own, and this process keeps no journal of them",
                self.folder,
            )
            return []
        self._lock = lock
        self.journaling = True
        left = []
        for path in sorted(self.folder.iterdir()):
            if not path.name.endswith(RECEIVED):
                continue
            with contextlib.suppress(OSError):
                left.append((path, path.read_bytes()))
                path.unlink()
        return left

    def watch(self, client: discord.Client) -> None:
        """Journal each interaction discord.py parses from the gateway, and give the
        tasks it starts for one the interaction's id (for `committed`)."""
        parsers = client._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def interaction(data: dict[str, Any]) -> None:
            interaction_id = self.received(data)
            token = _HANDLING.set(interaction_id)
            try:
                parse(data)
            finally:
                _HANDLING.reset(token)

        parsers["INTERACTION_CREATE"] = interaction

    def received(self, data: dict[str, Any]) -> int | None:
        """Write the interaction to its file; its id (None if it has none)."""
        try:
            interaction_id = int(data["id"])
        except (KeyError, TypeError, ValueError):
            return None
        if not self.journaling:
            return interaction_id
        self._forget_old()
        # A replayed click its predecessor had committed stays so, should this process
        # die too before answering it.
        suffix = COMMITTED if interaction_id in self._committed_before else RECEIVED
        path = self.folder / f"{interaction_id}{suffix}"
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(descriptor, json.dumps(data, separators=(",", ":")).encode())
            finally:
                os.close(descriptor)
        except (OSError, TypeError, ValueError) as error:
            log.warning("could not keep interaction %s in flight: %s", interaction_id, error)
            return interaction_id
        self._open[interaction_id] = (self._clock(), path)
        return interaction_id

    def committed(self) -> None:
        """The change of the interaction being handled (if any) is committed: its file
        says so, for a successor that finds it unanswered."""
        interaction_id = _HANDLING.get()
        entry = None if interaction_id is None else self._open.get(interaction_id)
        if interaction_id is None or entry is None or entry[1].name.endswith(COMMITTED):
            return  # a timer's change, an answered click's (a timer it set), or marked
        arrived, path = entry
        renamed = path.with_name(path.name.removesuffix(RECEIVED) + COMMITTED)
        try:
            os.rename(path, renamed)
        except OSError as error:
            log.info("could not mark interaction %s committed: %s", interaction_id, error)
            return
        self._open[interaction_id] = (arrived, renamed)

    def answered(self, interaction_id: int) -> None:
        """Discord has taken the interaction's first answer: its file goes."""
        entry = self._open.pop(interaction_id, None)
        if entry is not None:
            with contextlib.suppress(OSError):
                entry[1].unlink()

    def answered_at(self, path: str) -> None:
        """A response to a request at this URL path came back: if it was an
        interaction's callback, that interaction is answered."""
        interaction_id = callback_interaction(path)
        if interaction_id is not None:
            self.answered(interaction_id)

    def committed_before(self, interaction_id: int) -> bool:
        """Whether a predecessor committed this replayed interaction's change (once: the
        answer is being given)."""
        if interaction_id in self._committed_before:
            self._committed_before.discard(interaction_id)
            return True
        return False

    def replay(self, client: discord.Client, left: list[tuple[Path, bytes]]) -> int:
        """Act on the interactions a predecessor left unanswered, those still young
        enough to answer, as if they had just arrived (through the same parser, so
        they are journaled again); how many."""
        parse = client._connection.parsers["INTERACTION_CREATE"]
        now = datetime.now(UTC)
        replayed = 0
        for path, raw in left:
            try:
                data = json.loads(raw)
                interaction_id = int(data["id"])
            except (ValueError, KeyError, TypeError) as error:
                log.warning("%s is not an interaction (%s): dropped", path.name, error)
                continue
            if replayed_too_late(data, now):
                continue
            if path.name.endswith(COMMITTED):
                self._committed_before.add(interaction_id)
            log.info("interaction %s left unanswered by the process before: acted on", data["id"])
            parse(data)
            replayed += 1
        return replayed

    def _forget_old(self) -> None:
        """Drop the files of interactions that arrived too long ago to be answered."""
        horizon = self._clock() - FORGET_SECONDS
        while self._open:
            interaction_id, (arrived, path) = next(iter(self._open.items()))
            if arrived > horizon:
                return
            del self._open[interaction_id]
            log.info("interaction %s not seen answered in %.0f s", interaction_id, FORGET_SECONDS)
            with contextlib.suppress(OSError):
                path.unlink()

    def close(self) -> None:
        """Stop journaling; the files stay for the next process (those it can answer)."""
        self.journaling = False
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None
