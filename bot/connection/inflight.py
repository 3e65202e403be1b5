"""The clicks a killed process was holding, answered by the process that takes its place.

A process killed (SIGKILL, the OOM killer, a crash) dies holding the interactions it had
received but not yet answered. Discord delivered them: their sequence numbers are in the
saved gateway session (bot.connection.gateway_resume), so the RESUME of the next process
does not replay them, and nothing else sends them again. Their people were told "This
interaction failed" (5 to 7 of them at each process kill of bench_soak at 1,000 games).

So each interaction is written to the journal as it arrives, before it is acted on, and
crossed out when Discord has taken its first answer (the callback's response); in
between, it is marked when the click's change is committed. The next process of the
same shards acts on those left, before its gateway connects, where Discord's 3 s still
allow an answer (an interaction's id says when it was made); the older ones go unread.
Any process of the application may answer an interaction: its id and token are all it
takes. One made for another application (a journal left by a run against a stand-in,
which has an application id of its own) is not acted on.

The next process acknowledges them first of all, before the rest of the bot is even
imported (bot.app.takeover: a deferred update, type 6, the message unchanged, no loading
state), and shows their answers when it has played them, through each interaction's
webhook (15 minutes): every step of a start before the replay ate into their 3 s, and
a click already held a second by a busy process had no time left for it. Only what can
be answered that way is (`early`, the caller's choice); one whose acknowledgement
Discord refuses as answered already (the predecessor's answer got through after all)
or as too late is not acted on at all.

A click is never played twice. One whose change its predecessor had committed is
answered with the game as it is now, its change shown, as the twin of a double tap is;
one that had not got that far is played as if it had just come. (Moves would be refused
anyway, as clicked on a version that moved on, but that refusal would tell the person
that their move did not count.) A process can die between a commit and its mark in the
journal (a busy loop resumes the committing task late): the caller also asks the game
itself (`Replayed.committed` is only what the journal knows).

The journal is one file of fixed slots, kept open: an interaction takes a free slot with
one `pwrite` of its state, length and JSON, and is marked or crossed out by rewriting the
slot's first byte. A file created and removed for each, the first way, cost the loop
about 0.2 ms a click in a restart's burst (py-spy), most of it the file system's
bookkeeping. A write this small is whole or not done, whatever kills the process, and
the page cache keeps it when the process dies; only the machine's crash can cut one
short, and a slot that is not whole JSON is dropped unread.

The file is locked (flock) while a process journals into it, and a process replays only
what it could lock: a predecessor still alive (a deploy that starts the new process
before stopping the old) keeps its clicks, and the new process keeps no journal of its
own then. The kernel drops the lock as its holder dies, however it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import orjson

from bot.connection.gateway_resume import ANSWERABLE_SECONDS, age_of, replayed_too_late

log = logging.getLogger(__name__)

# Slots for interactions in flight at once: a process at 90 clicks a second holds 10 to
# 30; when every slot is taken, the oldest interaction's goes (it is the likeliest never
# to be answered). A slot holds an interaction's JSON (a click's is 3 to 6 KiB, the
# message it was made on included); a larger one is not kept.
SLOTS = 128
SLOT_BYTES = 32 * 1024
_HEADER = 5  # the state byte, then the JSON's length (4 bytes, big-endian)
FREE, RECEIVED, COMMITTED = b"\0", b"R", b"C"
# An interaction not answered this long after it arrived never will be (the bot gave up
# on it, or answered it in a way this journal did not see): its slot goes back.
FORGET_SECONDS = 15.0
JOURNAL = "journal"
# The interaction whose handling is running, for `committed`: set around discord.py's
# parsing of it, so every task discord.py starts for it inherits it.
_HANDLING: ContextVar[int | None] = ContextVar("inflight_interaction", default=None)


@contextlib.contextmanager
def handling(interaction_id: int | None) -> Iterator[None]:
    """Within this, `Inflight.committed` marks `interaction_id` (and in the tasks started
    within it, which copy the context)."""
    token = _HANDLING.set(interaction_id)
    try:
        yield
    finally:
        _HANDLING.reset(token)


def folder_for(root: Path, shards: tuple[int, ...] | None, shard_count: int) -> Path:
    """The journal's folder of the process serving `shards` (None: all, unsharded)."""
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


@dataclass(frozen=True, slots=True)
class Left:
    """An interaction a predecessor left unanswered: its JSON, and whether its change
    was committed."""

    data: bytes
    committed: bool


@dataclass(slots=True)
class Held:
    """An interaction a predecessor left unanswered, read: whether its change was
    committed, and whether this process has acknowledged it already."""

    interaction_id: int
    data: dict[str, Any]
    committed: bool
    acknowledged: bool = False


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the handler of a replayed interaction needs to know of it."""

    committed: bool  # the journal says its change was committed
    acknowledged: bool  # answered already (a deferred update): its answer is an edit


@dataclass(slots=True)
class _Slot:
    index: int
    arrived: float
    committed: bool = False


class Inflight:
    """The journal of this process's interactions not yet answered (see the module)."""

    def __init__(self, folder: Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self._clock = clock
        self._file: int | None = None  # open, and locked, while journaling
        self._open: dict[int, _Slot] = {}  # interaction id -> its slot, oldest first
        self._free = list(range(SLOTS - 1, -1, -1))
        self._replayed: dict[int, Replayed] = {}  # acted on again, not yet handled

    @property
    def journaling(self) -> bool:
        return self._file is not None

    def take(self) -> list[Left]:
        """Lock the journal and take what a predecessor left in it; from now on journal
        this process's interactions. Nothing if another process holds it (and this one
        keeps no journal)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            file = os.open(self.folder / JOURNAL, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            log.warning(
                "cannot keep the interactions in flight in %s (%s): those a killed process "
                "held will fail",
                self.folder,
                error,
            )
            return []
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(file)
            log.warning(
                "%s is locked by another process serving the same shards: its clicks in "
                "flight are its own, and this process keeps no journal of them",
                self.folder / JOURNAL,
            )
            return []
        try:
            left = _read(os.pread(file, SLOTS * SLOT_BYTES, 0))
            os.ftruncate(file, 0)  # every slot free (zeros), the file's blocks given back
            os.ftruncate(file, SLOTS * SLOT_BYTES)
        except OSError as error:
            os.close(file)
            log.warning("cannot use %s (%s): clicks in flight are not kept", self.folder, error)
            return []
        self._file = file
        return left

    def watch(self, client: discord.Client) -> None:
        """Journal each interaction discord.py parses from the gateway, and give the
        tasks it starts for one the interaction's id (for `committed`)."""
        parsers = client._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def interaction(data: dict[str, Any]) -> None:
            with handling(self.received(data)):
                parse(data)

        parsers["INTERACTION_CREATE"] = interaction

    def received(self, data: dict[str, Any]) -> int | None:
        """Write the interaction to a free slot; its id (None if it has none)."""
        try:
            interaction_id = int(data["id"])
        except (KeyError, TypeError, ValueError):
            return None
        replayed = self._replayed.get(interaction_id)
        if self._file is None or (replayed is not None and replayed.acknowledged):
            # Not journaling; or answered already, when a successor could only be told
            # so (40060).
            return interaction_id
        self._forget_old()
        try:
            payload = orjson.dumps(data)
        except TypeError as error:
            log.info("interaction %s not kept in flight: %s", interaction_id, error)
            return interaction_id
        if len(payload) > SLOT_BYTES - _HEADER:
            log.info("interaction %s not kept in flight: %d bytes", interaction_id, len(payload))
            return interaction_id
        if not self._free and self._open:
            self._drop(next(iter(self._open)))  # the oldest
        if not self._free:
            return interaction_id  # no slot could be written at all (said already)
        # A replayed click its predecessor had committed stays so, should this process
        # die too before answering it.
        committed = replayed is not None and replayed.committed
        slot = _Slot(self._free.pop(), self._clock(), committed)
        state = COMMITTED if committed else RECEIVED
        if self._write(slot, state + len(payload).to_bytes(4, "big") + payload):
            self._open[interaction_id] = slot
        else:
            self._free.append(slot.index)
        return interaction_id

    def committed(self) -> None:
        """The change of the interaction being handled (if any) is committed: its slot
        says so, for a successor that finds it unanswered."""
        interaction_id = _HANDLING.get()
        slot = None if interaction_id is None else self._open.get(interaction_id)
        if slot is None or slot.committed:
            return  # a timer's change, an answered click's (a timer it set), or marked
        if self._write(slot, COMMITTED):
            slot.committed = True

    def answered(self, interaction_id: int) -> None:
        """Discord has taken the interaction's first answer: its slot is free again."""
        if interaction_id in self._open:
            self._drop(interaction_id)

    def answered_at(self, path: str) -> None:
        """A response to a request at this URL path came back: if it was an
        interaction's callback, that interaction is answered."""
        interaction_id = callback_interaction(path)
        if interaction_id is not None:
            self.answered(interaction_id)

    def replayed(self, interaction_id: int) -> Replayed | None:
        """What is known of this interaction if it is one a predecessor left (once: it is
        being handled)."""
        return self._replayed.pop(interaction_id, None)

    def read(self, left: list[Left]) -> list[Held]:
        """The interactions left, readable, the oldest first."""
        held = []
        for each in left:
            try:
                data = json.loads(each.data)
                interaction_id = int(data["id"])
            except (ValueError, KeyError, TypeError) as error:
                log.warning("an interaction left in flight is unreadable (%s): dropped", error)
                continue
            held.append(Held(interaction_id, data, each.committed))
        return sorted(held, key=lambda each: each.interaction_id)

    async def acknowledge(
        self,
        held: list[Held],
        acknowledge: Callable[[Held], Awaitable[bool]],
        *,
        early: Callable[[Held], bool],
    ) -> list[Held]:
        """Acknowledge at once, all together, those `early` says can be answered later
        and that are still young enough; those left to act on. `acknowledge` says
        whether there is anything left to answer (False: answered already, or too late)
        and raises if Discord could not be told."""
        now = datetime.now(UTC)
        ages = {each.interaction_id: age_of(each.data, now) for each in held}
        chosen = [
            each for each in held if early(each) and ages[each.interaction_id] <= ANSWERABLE_SECONDS
        ]
        outcomes = await asyncio.gather(
            *(acknowledge(each) for each in chosen), return_exceptions=True
        )
        gone: set[int] = set()
        for each, outcome in zip(chosen, outcomes, strict=True):
            if outcome is True:
                each.acknowledged = True
            elif outcome is False:
                gone.add(each.interaction_id)
            elif isinstance(outcome, Exception):
                # Discord or the network failing: the replay answers it as it can.
                log.warning(
                    "could not acknowledge interaction %s left in flight: %r",
                    each.interaction_id,
                    outcome,
                )
            else:
                raise outcome  # a BaseException: cancelled, interrupted
        if chosen:
            # The oldest one's age says how much of the 3 s the start took from them.
            log.info(
                "acknowledged %d of %d interactions the process before left unanswered, "
                "the oldest made %.2f s before",
                sum(each.acknowledged for each in chosen),
                len(held),
                max(ages[each.interaction_id] for each in chosen),
            )
        return [each for each in held if each.interaction_id not in gone]

    def replay(self, client: discord.Client, held: list[Held]) -> int:
        """Act on the interactions a predecessor left unanswered, those acknowledged
        already or still young enough to answer, as if they had just arrived (through
        the same parser, so those not answered yet are journaled again); how many."""
        parse = client._connection.parsers["INTERACTION_CREATE"]
        now = datetime.now(UTC)
        replayed = 0
        for each in held:  # the oldest first: they have the least time
            made_for = str(each.data.get("application_id"))
            if client.application_id is not None and made_for != str(client.application_id):
                # Journaled against another Discord (a stand-in's, `make play`) or for
                # another application: this one's answer would go to the wrong place.
                log.info(
                    "interaction %s left in flight was made for application %s, not this "
                    "one: not acted on",
                    each.interaction_id,
                    made_for,
                )
                continue
            if not each.acknowledged and replayed_too_late(each.data, now):
                continue
            self._replayed[each.interaction_id] = Replayed(each.committed, each.acknowledged)
            log.info(
                "interaction %s left unanswered by the process before: acted on",
                each.interaction_id,
            )
            parse(each.data)
            replayed += 1
        return replayed

    def _write(self, slot: _Slot, record: bytes) -> bool:
        if self._file is None:
            return False  # closed at shutdown: an answer arriving after is not written
        try:
            os.pwrite(self._file, record, slot.index * SLOT_BYTES)
        except OSError as error:
            log.warning("could not keep an interaction in flight: %s", error)
            return False
        return True

    def _drop(self, interaction_id: int) -> None:
        slot = self._open.pop(interaction_id)
        if self._write(slot, FREE):
            self._free.append(slot.index)

    def _forget_old(self) -> None:
        """Free the slots of interactions that arrived too long ago to be answered."""
        horizon = self._clock() - FORGET_SECONDS
        while self._open:
            interaction_id, slot = next(iter(self._open.items()))
            if slot.arrived > horizon:
                return
            log.info("interaction %s not seen answered in %.0f s", interaction_id, FORGET_SECONDS)
            self._drop(interaction_id)

    def close(self) -> None:
        """Stop journaling; what is in flight stays for the next process (those it can
        answer)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                os.close(self._file)
            self._file = None


def _read(journal: bytes) -> list[Left]:
    """The interactions a journal holds, oldest slot first."""
    left = []
    for start in range(0, len(journal), SLOT_BYTES):
        state = journal[start : start + 1]
        if state not in (RECEIVED, COMMITTED):
            continue
        length = int.from_bytes(journal[start + 1 : start + _HEADER], "big")
        data = journal[start + _HEADER : start + _HEADER + min(length, SLOT_BYTES - _HEADER)]
        left.append(Left(data, committed=state == COMMITTED))
    return left
