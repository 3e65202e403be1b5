"""End to end: the real bot process (`python -m bot`) against the local Discord stand-in.

The bot runs as a subprocess whose REST and gateway endpoints point at ``FakeDiscord`` on
127.0.0.1, with its database in a temporary directory. The test waits for READY and the
command registration, builds every slash command from the schema the bot registered, plays
a whole three-player game by pressing the buttons of the one live message (found by their
labels or emoji, as a player finds them), kills the bot with SIGKILL in the middle of a
turn, starts it again on the same database, finishes the game on the same message, reads
``/pickomino score history``, and checks that every interaction was answered within
Discord's 3-second deadline.

The dice are rolled by the bot (``secrets.SystemRandom``), so the test plays whatever
comes: claim a tile when it can, otherwise keep a face (worms first), otherwise roll.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import ctypes
import logging
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.devserver.standin import FakeButton, FakeDiscord, FakeInteraction, FakeMessage, _walk
from bot.games.pickomino.adapter import keep_move
from bot.games.pickomino.engine import Face
from bot.games.pickomino.render.text import FACE_EMOJI
from bot.i18n import t
from bot.render.custom_ids import ComponentRef
from tests.discord_harness import free_port

# Part of the normal `pytest` run (and so of `make test`); `-m "not e2e"` leaves it out.
pytestmark = pytest.mark.e2e

logger = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 3.0  # Discord's limit for the first answer to an interaction
TEST_BUDGET = 180.0  # seconds for the whole game test, start-ups and restart included
START_TIMEOUT = 30.0  # seconds for a bot process to connect and register its commands
MAX_CLICKS = 3000
PR_SET_PDEATHSIG = 1
ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
PLAYERS = ("alice", "bob", "carol")
SPECTATOR = "dave"

CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7

# Faces in the order the test keeps them: worms first (a claim needs one), then high
# values; as the moves the face buttons carry (their emoji is a picture once synced).
KEEP_ORDER = [keep_move(Face.WORM)] + [
    keep_move(face) for face in sorted(set(Face) - {Face.WORM}, key=lambda f: -f.value)
]


def _label_pattern(key: str, **params: str) -> re.Pattern[str]:
    """A regex for a catalog string, each ``{placeholder}`` a named group."""
    text = re.escape(t(key, **{name: f"\x00{name}\x00" for name in params}))
    for name in params:
        text = text.replace(re.escape(f"\x00{name}\x00"), f"(?P<{name}>.+?)")
    return re.compile(f"^{text}$")


# A player's line in a game's final standings (its score: worms, or a sum with Bratwurms).
FINAL_LINE = _label_pattern("pickomino.final.line", medal="", rank="", name="", score="", tiles="")
ROLL = t("pickomino.button.roll")
CLAIM_LABELS = [
    _label_pattern("pickomino.button.take", tile=""),
    _label_pattern("pickomino.button.steal", tile="", name=""),
]


# --------------------------------------------------------------------------------------
# The bot process
# --------------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, get SIGKILL if pytest dies without cleaning up
    (killed by a CI timeout, say), so no bot outlives its test run."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


@dataclass
class BotProcess:
    """One `python -m bot` subprocess against ``fake``; its stdout and stderr go to
    ``log_path``."""

    popen: subprocess.Popen[bytes]
    log_path: Path
    fake: FakeDiscord
    started_at: float = field(default_factory=time.monotonic)

    @property
    def exited(self) -> bool:
        return self.popen.poll() is not None

    def log(self) -> str:
        """What the process wrote, without discord.py's colour codes."""
        try:
            return ANSI_CODE.sub("", self.log_path.read_text(errors="replace"))
        except OSError:
            return ""

    def problems(self) -> list[str]:
        """Errors and tracebacks the process logged."""
        return [
            line
            for line in self.log().splitlines()
            if re.search(r"\b(ERROR|CRITICAL)\b|^Traceback", line)
        ]

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the host dies. The stand-in is told, so
        a delete the kill cut short and the next process repeats is no problem."""
        self.fake.bot_was_killed = True
        if not self.exited:
            self.popen.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.popen.wait, 10)

    async def stop(self) -> int | None:
        """SIGTERM, then SIGKILL if it has not exited within 10 s; the exit status.

        The waits run in a thread: the bot's clean shutdown closes its gateway connection
        with the stand-in, which runs on this event loop."""
        with contextlib.suppress(ProcessLookupError):
            if not self.exited:
                self.popen.terminate()
            try:
                await asyncio.to_thread(self.popen.wait, 10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    await asyncio.to_thread(self.popen.wait, 10)
        return self.popen.returncode


class BotLauncher:
    """Starts bot processes against one stand-in and one database; stops them all."""

    def __init__(self, fake: FakeDiscord, workdir: Path, database_url: str | None = None) -> None:
        self.fake = fake
        self.workdir = workdir  # the cwd: no developer's .env is read from here
        self.database = workdir / "pickomino.db"
        self.database_url = database_url or f"sqlite:///{self.database}"
        self.processes: list[BotProcess] = []
        # Where the table listens when a test turns it on (DISCORD_CLIENT_SECRET): the
        # same for a restarted process, as for the real one.
        self.activity_addr = f"127.0.0.1:{free_port()}"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for name in ("DEV_GUILD_ID", "DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL"):
            env.pop(name, None)
        env.update(self.fake.env())
        env["DATABASE_URL"] = self.database_url
        env["ACTIVITY_ADDR"] = self.activity_addr
        env["LOG_LEVEL"] = "INFO"
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p
        )
        env["PYTHONUNBUFFERED"] = "1"
        return env

    async def start(
        self,
        extra_env: Mapping[str, str] | None = None,
        *,
        ready: Callable[[], bool] | None = None,
    ) -> BotProcess:
        """Start a bot and wait until it has identified (a new gateway session) or
        resumed one (a restart keeps its session, bot.connection.gateway_resume), or
        `ready()` says so, and its /pickomino command is registered."""
        identifies, resumes = self.fake.identifies, self.fake.resumes
        log_path = self.workdir / f"bot-{len(self.processes) + 1}.log"
        with log_path.open("wb") as log_file:
            popen = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=self.workdir,
                env=self.env() | dict(extra_env or {}),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        process = BotProcess(popen, log_path, self.fake)
        self.processes.append(process)

        def connected() -> bool:
            if ready is not None:
                return process.exited or ready()
            back = self.fake.identifies > identifies or self.fake.resumes > resumes
            return process.exited or (back and self.fake.ready)

        await self.fake.wait_for(connected, timeout=START_TIMEOUT, what="the bot to connect")
        if process.exited:
            raise AssertionError(
                f"the bot exited with {process.popen.returncode} before it connected:\n"
                + process.log()
            )
        await self.fake.wait_for_commands("pickomino", timeout=START_TIMEOUT)
        print(f"bot #{len(self.processes)} ready in {time.monotonic() - process.started_at:.2f}s")
        return process

    async def connecting(self, start: Coroutine[Any, Any, BotProcess]) -> asyncio.Task[BotProcess]:
        """Run `start` (a start of this launcher's) until its new process logs in (GET
        /users/@me, as the stand-in answers it): its imports and set-up are done, and its
        gateway session is not resumed yet, so a click made then waits at Discord for the
        shard's session and is replayed to it at its RESUME. The start, still under way.

        A click made at the process's birth instead waited out its imports too, a second
        or more on a busy machine: past the 1.5 s after which the bot acknowledges a click
        it cannot play at once (bot.ui.clicks.acknowledge_by), whose answer then is not
        the update the tests look for."""
        logins = self._logins()
        starting = asyncio.create_task(start)
        await self.fake.wait_for(
            lambda: starting.done() or self._logins() > logins,
            timeout=START_TIMEOUT,
            what="the new process to log in",
        )
        assert not starting.done(), "the process connected before the click could be made"
        return starting

    def _logins(self) -> int:
        return sum(
            1
            for request in self.fake.requests
            if request.method == "GET" and request.path.endswith("/users/@me")
        )

    async def stop_all(self) -> None:
        for process in self.processes:
            await process.stop()

    def logs(self) -> str:
        return "\n".join(
            f"----- {p.log_path.name} (exit {p.popen.returncode}) -----\n{p.log()}"
            for p in self.processes
        )


@contextlib.asynccontextmanager
async def launching(
    fake: FakeDiscord,
    workdir: Path,
    request: pytest.FixtureRequest,
    database_url: str | None = None,
) -> AsyncIterator[BotLauncher]:
    """A launcher whose processes are all stopped at the end, their logs printed if the
    test failed."""
    workdir.mkdir()
    launcher = BotLauncher(fake, workdir, database_url)
    try:
        yield launcher
    finally:
        await launcher.stop_all()
        report = getattr(request.node, "rep_call", None)
        if report is None or report.failed:
            print(launcher.logs(), file=sys.stderr)


# --------------------------------------------------------------------------------------
# Reading the live message as a player does
# --------------------------------------------------------------------------------------


def snapshot(message: FakeMessage) -> tuple[Any, Any, int]:
    return copy.deepcopy(message.embeds), copy.deepcopy(message.components), message.edits


def text_blocks(message: FakeMessage) -> list[str]:
    """The message's blocks of text (Components V2 text displays), in order."""
    return [c.get("content", "") for c in _walk(message.components) if c.get("type") == 10]


def field_value(message: FakeMessage, name: str | re.Pattern[str]) -> str:
    """The lines of the block titled with this name (`**name**` on its first line) or
    a name matching this pattern."""
    for block in text_blocks(message):
        first, _, rest = block.partition("\n")
        title = first.strip("*")
        if title == name if isinstance(name, str) else name.match(title):
            return rest
    raise LookupError(f"no block {name!r} in\n{message.render()}")


def kept_line(message: FakeMessage) -> str:
    """The "Kept ..." line at the top of the message (empty when nothing is kept)."""
    start = t("pickomino.turn.kept", groups="\x00", total="").split("\x00")[0]
    blocks = text_blocks(message)
    turn = blocks[0] if blocks else ""  # the turn comes first
    return next((line for line in turn.splitlines() if line.startswith(start)), "")


def as_unicode(line: str) -> str:
    """A line with the dice's pictures as their Unicode fallbacks: a process whose emoji
    sync has not finished draws those, its successor the pictures its sync stored."""
    faces = {
        f"{face.value}" if face is not Face.WORM else "worm": text
        for face, text in FACE_EMOJI.items()
    }
    return re.sub(r"<:pk1_die_(\w+):\d+>", lambda found: faces[found[1]], line)


def kept_dice(message: FakeMessage) -> int:
    return sum(int(n) for n in re.findall(r"×(\d+)", kept_line(message)))


def game_id(message: FakeMessage) -> int:
    """The game number the last block shows ("Game #12")."""
    blocks = text_blocks(message)
    found = re.search(r"#(\d+)", blocks[-1] if blocks else "")
    assert found, f"no game id in\n{message.render()}"
    return int(found.group(1))


def final_standings(fake: FakeDiscord, message: FakeMessage) -> dict[str, tuple[int, int]]:
    """Each player's (rank, worms) from the Standings field of the final message."""
    worms = _label_pattern("pickomino.player.worms", count="")
    found: dict[str, tuple[int, int]] = {}
    for text in field_value(message, t("final.standings")).splitlines():
        match = FINAL_LINE.match(text)
        if match is None:
            continue
        for name in PLAYERS:
            if match["name"] == fake.user(name).display_name:
                score = worms.match(match["score"])  # the base game: no Bratwurms
                assert score is not None, text
                found[name] = (int(match["rank"]), int(score["count"]))
    assert set(found) == set(PLAYERS), f"standings {found} in\n{message.render()}"
    return found


def is_final(message: FakeMessage) -> bool:
    blocks = text_blocks(message)
    return bool(blocks) and blocks[0].startswith(
        t("block.heading", title=t("pickomino.final.title"))
    )


def current_player(fake: FakeDiscord, message: FakeMessage) -> str:
    blocks = text_blocks(message)
    first_line = blocks[0].split("\n")[0] if blocks else ""
    for name in PLAYERS:
        if first_line.startswith(t("pickomino.turn_of", name=fake.user(name).display_name)):
            return name
    raise AssertionError(f"cannot tell whose turn it is from\n{message.render()}")


def enabled(message: FakeMessage) -> list[FakeButton]:
    return [b for b in message.buttons if not b.disabled and b.custom_id]


def claim_buttons(message: FakeMessage) -> list[FakeButton]:
    return [
        b
        for b in enabled(message)
        if b.label and any(pattern.match(b.label) for pattern in CLAIM_LABELS)
    ]


def face_buttons(message: FakeMessage) -> list[FakeButton]:
    """The enabled face buttons, in the order the test prefers them."""
    faces = [b for b in enabled(message) if _move_of(b) in KEEP_ORDER]
    return sorted(faces, key=lambda b: KEEP_ORDER.index(_move_of(b)))


def no_problems(launcher: BotLauncher) -> None:
    problems = [line for process in launcher.processes for line in process.problems()]
    assert not problems, "the bot logged errors:\n" + "\n".join(problems)


def _move_of(button: FakeButton) -> str:
    """The move a button makes (`keep:w`), from its custom_id."""
    ref = ComponentRef.parse(button.custom_id or "")
    return ref.arg if ref is not None else ""


def roll_button(message: FakeMessage) -> FakeButton | None:
    return next((b for b in enabled(message) if b.label == ROLL), None)


def interruptible(message: FakeMessage, kind: str) -> bool:
    """After a keep, a turn with one face kept and at least 4 dice left to roll: the roll
    after a restart almost surely keeps the turn going, so the kept dice can be checked."""
    return (
        kind == "keep"
        and not is_final(message)
        and kept_line(message).count("×") == 1
        and kept_dice(message) <= 4
        and roll_button(message) is not None
    )


def choose(message: FakeMessage) -> tuple[str, FakeButton]:
    """The test's strategy: claim if possible, else keep (worm first), else roll."""
    claims = claim_buttons(message)
    if claims:
        return "claim", claims[0]
    faces = face_buttons(message)
    if faces:
        return "keep", faces[0]
    roll = roll_button(message)
    if roll is not None:
        return "roll", roll
    raise AssertionError(f"no button to press on\n{message.render()}")


def message_behind(database: Path) -> bool:
    """Whether the stored game's message may show an older version than the database."""
    with sqlite3.connect(database) as db:
        row = db.execute(
            "SELECT shown_version < version FROM sessions WHERE status != 'over'"
        ).fetchone()
    return bool(row and row[0])


# --------------------------------------------------------------------------------------
# Clicks
# --------------------------------------------------------------------------------------


async def until_logged(process: BotProcess, text: str, timeout: float = START_TIMEOUT) -> None:
    """Until the process's log says `text` (work a start leaves to run in the background)."""
    async with asyncio.timeout(timeout):
        while text not in process.log():
            await asyncio.sleep(0.05)


async def accepted_click(
    fake: FakeDiscord, user: str, message_id: int, button: FakeButton
) -> FakeInteraction:
    """A click that must change the live message in place (an update, not a reply)."""
    before = fake.get_message(message_id)
    assert before is not None
    edits = before.edits
    click = await fake.click(user, message_id, button.custom_id)
    after = fake.get_message(message_id)
    assert after is not None
    assert click.response_type in (CB_UPDATE, CB_DEFERRED_UPDATE), click.describe()
    assert not click.ephemeral_messages, click.describe()
    if click.response_type == CB_DEFERRED_UPDATE:
        await fake.wait_for(lambda: after.edits > edits, what="the live message to change")
    assert after.edits > edits, f"{user} pressed {button.label or button.emoji}: no change"
    return click


async def refused_click(
    fake: FakeDiscord, user: str, message_id: int, button: FakeButton, expected: str
) -> FakeInteraction:
    """A click that must be answered only to the clicker, with the live message unchanged."""
    message = fake.get_message(message_id)
    assert message is not None
    before = snapshot(message)
    click = await fake.click(user, message_id, button.custom_id)
    await click.wait_quiet(0.1)
    assert click.response_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE), click.describe()
    assert click.ephemeral, click.describe()
    assert all(m.is_ephemeral for m in click.messages), click.describe()
    assert expected in click.text, f"expected {expected!r}:\n{click.describe()}"
    assert snapshot(message) == before, f"{user}'s refused click changed\n{message.render()}"
    assert fake.live_message().id == message_id
    return click


async def wrong_player_clicks(
    fake: FakeDiscord, message_id: int, button: FakeButton
) -> list[FakeInteraction]:
    """A seated player whose turn it is not, then the spectator, press ``button``."""
    message = fake.get_message(message_id)
    assert message is not None
    current = current_player(fake, message)
    other = next(name for name in PLAYERS if name != current)
    name = fake.user(current).display_name
    return [
        await refused_click(fake, other, message_id, button, t("error.not_your_turn", name=name)),
        await refused_click(fake, SPECTATOR, message_id, button, t("error.not_in_game")),
    ]


# --------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------


@dataclass
class GameLog:
    clicks: int = 0
    claims: int = 0
    turns_seen: set[str] = field(default_factory=set)
    refused: int = 0


async def open_lobby(fake: FakeDiscord, log: GameLog) -> int:
    """alice starts a lobby (timer off), bob and carol join, alice starts: the message id."""
    started = await fake.send_command("alice", "pickomino start", {"turn_timer": 0})
    assert started.response_type == CB_MESSAGE and not started.ephemeral, started.describe()
    lobby = started.message
    assert lobby is not None and lobby.has_button(t("lobby.button.join")), started.describe()
    assert fake.live_message().id == lobby.id
    for name in PLAYERS[1:]:
        await accepted_click(fake, name, lobby.id, lobby.button(t("lobby.button.join")))
    players = field_value(lobby, _label_pattern("lobby.players", count="", max=""))
    for name in PLAYERS:
        assert fake.user(name).display_name in players, lobby.render()
    # Only the host starts: bob's Start is refused to him alone.
    host = fake.user("alice").display_name
    await refused_click(
        fake, "bob", lobby.id, lobby.button(t("lobby.button.start")),
        t("error.not_host", name=host),
    )  # fmt: skip
    log.refused += 1
    await accepted_click(fake, "alice", lobby.id, lobby.button(t("lobby.button.start")))
    assert roll_button(lobby) is not None, lobby.render()
    return lobby.id


async def play(
    fake: FakeDiscord,
    message_id: int,
    log: GameLog,
    *,
    deadline: float,
    pause: Callable[[FakeMessage, str], bool] | None = None,
) -> str | None:
    """Press buttons on the live message until the game is over (returns None), or until
    ``pause(message, last_kind)`` says to stop after a click (returns that click's kind)."""
    tried_wrong_face = False
    while log.clicks < MAX_CLICKS:
        assert time.monotonic() < deadline, f"the game took too long ({log.clicks} clicks)"
        message = fake.get_message(message_id)
        assert message is not None
        assert fake.live_message().id == message_id, "the bot posted a new live message"
        if is_final(message):
            return None
        player = current_player(fake, message)
        log.turns_seen.add(player)
        kind, button = choose(message)
        if kind == "keep" and not tried_wrong_face:
            # Mid-turn, with the dice on the table: others may not keep them.
            tried_wrong_face = True
            log.refused += len(await wrong_player_clicks(fake, message_id, button))
        await accepted_click(fake, player, message_id, button)
        log.clicks += 1
        log.claims += kind == "claim"
        if pause is not None and pause(message, kind):
            return kind
    raise AssertionError(f"no end after {MAX_CLICKS} clicks:\n{fake.get_message(message_id)}")


async def test_full_game_with_sigkill_restart(
    fake_discord: FakeDiscord, launcher: BotLauncher, record_property: Callable[..., None]
) -> None:
    fake = fake_discord
    began = time.monotonic()
    deadline = began + TEST_BUDGET
    log = GameLog()
    async with asyncio.timeout(TEST_BUDGET + 30):
        first = await launcher.start()
        message_id = await open_lobby(fake, log)
        message = fake.get_message(message_id)
        assert message is not None
        the_game = game_id(message)

        # At the start of the first turn: Roll, pressed by the wrong people.
        roll = roll_button(message)
        assert roll is not None
        log.refused += len(await wrong_player_clicks(fake, message_id, roll))

        def mid_turn(message: FakeMessage, kind: str) -> bool:
            return log.clicks >= 6 and interruptible(message, kind)

        paused = await play(fake, message_id, log, deadline=deadline, pause=mid_turn)
        assert paused == "keep", "the game ended before a turn could be interrupted"
        message = fake.get_message(message_id)
        assert message is not None
        player = current_player(fake, message)
        before_kill = kept_line(message)
        before_kill_snapshot = snapshot(message)

        # SIGKILL mid-turn, then a new process on the same database.
        print(f"SIGKILL after click {log.clicks}, in {player}'s turn: {before_kill}")
        await first.kill()
        assert first.popen.returncode == -signal.SIGKILL
        await fake.wait_for(lambda: not fake.ready, what="the stand-in to see the bot gone")
        # The versions shown are recorded within a second: a kill soon after a click
        # leaves its message marked as behind, and the new process shows it again.
        edits_at_kill = message.edits
        shown_again = message_behind(launcher.database)
        syncs = fake.command_syncs
        second = await launcher.start()
        first_after_restart = len(fake.interactions)
        # It resumed the gateway session (bot.connection.gateway_resume): no second
        # IDENTIFY.
        assert (fake.identifies, fake.resumes) == (1, 1)
        await until_logged(second, "application commands unchanged")  # synced meanwhile
        assert fake.command_syncs == syncs, "the unchanged command tree was synced again"
        if shown_again:
            await fake.wait_for(lambda: message.edits > edits_at_kill, what="the start-up repair")
        assert snapshot(message)[:2] == before_kill_snapshot[:2], "the restart changed the message"

        # The restarted bot knows whose turn it is (refusals name the player)...
        roll = roll_button(message)
        assert roll is not None
        log.refused += len(await wrong_player_clicks(fake, message_id, roll))
        # ...and the dice kept before the kill are still kept after the next roll.
        await accepted_click(fake, player, message_id, roll)
        log.clicks += 1
        still_turn = not is_final(message) and current_player(fake, message) == player
        if still_turn and kept_line(message):
            assert as_unicode(kept_line(message)) == as_unicode(before_kill), message.render()
        else:  # all the rolled faces were kept already: a failure, which the log shows
            failed = t("pickomino.log.failed", name=fake.user(player).display_name)
            assert failed in message.text, message.render()

        # Finish the game on the same message.
        assert await play(fake, message_id, log, deadline=deadline) is None
        message = fake.get_message(message_id)
        assert message is not None and is_final(message)
        assert fake.live_message().id == message_id
        assert log.turns_seen == set(PLAYERS)
        assert log.claims > 0
        results = final_standings(fake, message)
        print(f"game #{the_game}: {log.clicks} clicks; standings {results}")

        # /pickomino score history lists the game, with the same worms.
        command = fake.find_command("pickomino")
        assert command is not None
        subcommands = {o["name"] for o in command.get("options") or []}
        assert "score" in subcommands, f"/pickomino score is not registered: {subcommands}"
        history = await fake.send_command("carol", "pickomino score history")
        assert history.answered and not history.rejections, history.describe()
        assert f"#{the_game}" in history.text, history.describe()
        # Seat order, the winners marked: "🏆 **Carol** 9🪱 · Alice 2🪱 · ...".
        for name, (rank, worms) in results.items():
            key = "score.history.seat.winner" if rank == 1 else "score.history.seat"
            points = t("pickomino.score.points", score=worms)
            seat = t(key, name=fake.user(name).display_name, score=points)
            assert seat in history.text, f"{name}: {seat!r} not in\n{history.describe()}"

    # Every interaction was answered, within Discord's deadline.
    interactions = fake.interactions
    unanswered = [i.describe() for i in interactions if i.latency is None]
    assert not unanswered, "unanswered interactions:\n" + "\n".join(unanswered)
    latencies = [i.latency for i in interactions if i.latency is not None]
    p50 = statistics.median(latencies)
    p95 = statistics.quantiles(latencies, n=20)[-1] if len(latencies) > 1 else latencies[0]
    worst = max(interactions, key=lambda i: i.latency or 0.0)
    restarted = interactions[first_after_restart].latency or 0.0
    summary = (
        f"e2e: {len(latencies)} interactions ({log.clicks} game clicks, {log.refused} refused, "
        f"{log.claims} claims), latency p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms ({worst.name} by {worst.user.username}), "
        f"first after the restart {restarted * 1000:.1f} ms; "
        f"test {time.monotonic() - began:.1f} s"
    )
    print(summary)
    logger.info(summary)
    record_property("interactions", len(latencies))
    record_property("latency_p50_s", round(p50, 4))
    record_property("latency_p95_s", round(p95, 4))
    record_property("latency_max_s", round(max(latencies), 4))
    record_property("latency_first_after_restart_s", round(restarted, 4))
    slow = [i.describe() for i in interactions if (i.latency or 0.0) >= DEADLINE]
    assert not slow, f"answers later than {DEADLINE}s:\n" + "\n".join(slow)

    # SIGTERM stops the bot cleanly; neither process logged an error.
    assert await second.stop() == 0, second.log()
    problems = [line for process in launcher.processes for line in process.problems()]
    assert not problems, "the bot logged errors:\n" + "\n".join(problems)
