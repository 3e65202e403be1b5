"""End to end: one whole Extrawurm game, two people and two computer players, with the
real bot process against the local Discord stand-in and its dice pinned (DICE_SEED).

The people press the buttons of the live message (the Weasel when offered, else a claim,
else a face, else Roll, else taking the bust); the computer players move on their own.
Whenever a person is to move, the message is checked against the game the bot stored:
the extra tiles 11 and 13 and every specialist on its grill tile, each player's held
specialist, extra tile and Bratwurms in their line, and the Canned Worm's or Golden Die's
effect on the kept total. At the end the standings on the message are the engine's.

The test asserts nothing about which moves the computer players choose beyond their
being legal (the bot would refuse anything else): only what the message shows.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.devserver.standin import FakeButton, FakeDiscord, FakeMessage
from bot.games.pickomino.adapter import PickominoAdapter
from bot.games.pickomino.engine import Game
from bot.games.pickomino.engine.specialists import SETUP_TILES, Specialist
from bot.games.pickomino.render.blocks import SPECIALIST_MARK
from bot.i18n import t
from bot.render.custom_ids import ComponentRef
from tests.e2e.test_bot_e2e import (
    DEADLINE,
    FINAL_LINE,
    KEEP_ORDER,
    BotLauncher,
    accepted_click,
    is_final,
    no_problems,
    text_blocks,
)

pytestmark = pytest.mark.e2e

PEOPLE = ("alice", "bob")
LEVELS = ("normal", "easy")  # the computer players the host adds
SEED = "2015"  # any seed plays a whole game; pinned, a failure replays the same way
TEST_BUDGET = 150.0
MAX_STEPS = 2000
HELD_MARKS = {s: SPECIALIST_MARK[s] for s in Specialist if s is not Specialist.RAVEN}


# --------------------------------------------------------------------------------------
# What the bot stored, and what the message shows
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    game: Game
    names: dict[str, str]  # player id -> seat name


def stored(database: Path, message_id: int) -> Stored:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT state FROM sessions WHERE message_id = ?", (message_id,))
        state = json.loads(row.fetchone()[0])
    game = PickominoAdapter().load(state["game"])
    names = {str(seat["user_id"]): seat["name"] for seat in state["seats"]}
    return Stored(game, names)


def tile_shown(text: str, tile: int, mark: str = "") -> bool:
    """A tile as its picture (`<:pk1_tile_23:…>`) or as text (`**23**` on the grill,
    `23 🪱` in a player's line), with `mark` right after it when given (joined to it by
    a word joiner, so a wrapped row never parts them)."""
    shown = rf"(?:<:pk1_tile_{tile}:\d+>|\*\*{tile}\*\*|\b{tile} 🪱)"
    return bool(re.search(shown + ("\u2060" + re.escape(mark) if mark else ""), text))


def held_part(line: str) -> str:
    """A player's line without its last part, their score (`· 11 🪱` is not tile 11)."""
    return line.rsplit(" · ", 1)[0]


def table_lines(message: FakeMessage, players: int) -> tuple[str, list[str]]:
    """The grill and one line per player (the block after the turn)."""
    lines = text_blocks(message)[1].splitlines()
    return "\n".join(lines[:-players]), lines[-players:]


@dataclass
class Seen:
    held: set[Specialist] = field(default_factory=set)
    extras: set[int] = field(default_factory=set)
    bratwurms: bool = False
    canned_worm_total: bool = False
    golden_die: bool = False
    weasel: int = 0
    person_steps: int = 0


def check_shown(message: FakeMessage, now: Stored, seen: Seen) -> None:
    """The live message shows the stored game's expansion as it is."""
    game = now.game
    expansion = game.expansion
    assert expansion is not None
    shown = message.render()
    grill, lines = table_lines(message, len(game.players))
    for specialist, place in expansion.specialists.items():
        if isinstance(place, int):
            assert tile_shown(grill, place, SPECIALIST_MARK[specialist]), (specialist, shown)
    for tile in (11, 13):
        assert tile_shown(grill, tile) == (tile in game.grill), (tile, shown)
    for player, line in zip(game.players, lines, strict=True):
        assert now.names[player] in line, (player, shown)
        held = expansion.held_by(player)
        for specialist, mark in HELD_MARKS.items():
            assert (mark in line) == (held is specialist), (player, specialist, shown)
        if held is not None:
            seen.held.add(held)
        for tile in game.extras(player):
            assert tile_shown(held_part(line), tile), (player, tile, shown)
            seen.extras.add(tile)
        count = game.bratwurms(player)
        if count:
            score = game.score(player)
            worms = score - count
            summed = t("pickomino.player.score", count=score, worms=worms, bratwurms=count)
            assert line.endswith(summed), (player, shown)
            seen.bratwurms = True
        else:
            assert "🌭" not in line, (player, shown)
    turn = text_blocks(message)[0]
    if game.canned_worm_counts and game.kept:
        assert f"+ 🥫 5 = **{game.claim_total}**" in turn, shown
        seen.canned_worm_total = True
    if expansion.holds(game.current_player, Specialist.GOLDEN_DIE) and (game.kept or not game.roll):
        # With the kept dice, or before the first roll as what to do: roll nine.
        start = t(
            "pickomino.now.start.golden_die", golden_die="🎲", dice=t("pickomino.now.dice", count=9)
        )
        effect = t("pickomino.turn.golden_die.kept") if game.kept else start
        assert effect in turn, shown
        seen.golden_die = True


# --------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------


def moves(message: FakeMessage) -> dict[str, FakeButton]:
    """The enabled game buttons by the move they make (`roll`, `keep:w`, `claim:g25`)."""
    found = {}
    for button in message.buttons:
        ref = ComponentRef.parse(button.custom_id or "")
        if ref is not None and ref.action == "move" and not button.disabled:
            found[ref.arg] = button
    return found


def person_choice(message: FakeMessage) -> tuple[str, FakeButton]:
    """The Weasel when it is offered, else a claim, else a face (worms first), else a
    roll, else taking the bust."""
    offered = moves(message)
    if "weasel" in offered:
        return "weasel", offered["weasel"]
    claims = sorted(move for move in offered if move.startswith("claim:"))
    if claims:
        return "claim", offered[claims[0]]
    for move in KEEP_ORDER:
        if move in offered:
            return "keep", offered[move]
    for move in ("roll", "accept"):
        if move in offered:
            return move, offered[move]
    raise AssertionError(f"nothing to press on\n{message.render()}")


def person_to_move(
    fake: FakeDiscord, message: FakeMessage, people: Sequence[str] = PEOPLE
) -> str | None:
    """Whose turn the live message shows, of `people` (None: a computer player's)."""
    first = text_blocks(message)[0].split("\n")[0]
    for name in people:
        if first.startswith(t("pickomino.turn_of", name=fake.user(name).display_name)):
            return name
    return None


async def open_lobby(fake: FakeDiscord) -> int:
    started = await fake.send_command(
        "alice", "pickomino start", {"extrawurm": True, "turn_timer": 0}
    )
    lobby = started.message
    assert lobby is not None and not started.ephemeral, started.describe()
    # The lobby says in one line that the expansion is on, with each specialist's mark,
    # and where each is explained (/pickomino rules), so it stays short on a phone.
    short = t("pickomino.options.extrawurm.short", rules=f"/pickomino {t('command.name.rules')}")
    assert short in lobby.text, lobby.render()
    assert all(SPECIALIST_MARK[specialist] in short for specialist in Specialist)
    await accepted_click(fake, "bob", lobby.id, lobby.button(t("lobby.button.join")))
    for level in LEVELS:
        offered = await fake.click("alice", lobby.id, label=t("lobby.button.add_bot"))
        levels = offered.message
        assert levels is not None, offered.describe()
        edits = lobby.edits
        await fake.click("alice", levels.id, label=t(f"lobby.bot_level.{level}"))
        await fake.wait_for(lambda e=edits: lobby.edits > e, what="the computer player to sit")
    await accepted_click(fake, "alice", lobby.id, lobby.button(t("lobby.button.start")))
    return lobby.id


async def play_to_the_end(
    fake: FakeDiscord, database: Path, message_id: int, seen: Seen, deadline: float
) -> None:
    message = fake.get_message(message_id)
    assert message is not None
    for _ in range(MAX_STEPS):
        assert time.monotonic() < deadline, f"the game took too long: {seen}"
        assert fake.live_message().id == message_id, "the bot posted a new live message"
        if is_final(message):
            return
        person = person_to_move(fake, message)
        if person is None:  # a computer player's turn: it moves by itself
            edits = message.edits
            await fake.wait_for(
                lambda e=edits: message.edits > e,
                timeout=15,
                what="a computer player to move",
                details=message.render,
            )
            continue
        check_shown(message, stored(database, message_id), seen)
        seen.person_steps += 1
        kind, button = person_choice(message)
        seen.weasel += kind == "weasel"
        await accepted_click(fake, person, message_id, button)
    raise AssertionError(f"no end after {MAX_STEPS} steps:\n{message.render()}")


def shown_score(text: str) -> int:
    """The score a standings line counts: `12 🪱`, or with Bratwurms their sum at the
    end of `7 🪱 + 2 🌭 = 9 points`, checked to add up."""
    numbers = [int(number) for number in re.findall(r"\d+", text)]
    if len(numbers) == 3:
        assert numbers[0] + numbers[1] == numbers[2], text
    return numbers[-1]


def final_standings(message: FakeMessage, names: dict[str, str]) -> dict[str, tuple[int, int, str]]:
    """Each player's (rank, score, tiles shown) from the end message's standings."""
    found: dict[str, tuple[int, int, str]] = {}
    for text in message.text.splitlines():
        match = FINAL_LINE.match(text)
        if match is None:
            continue
        for player, name in names.items():
            if name in match["name"]:
                found[player] = (int(match["rank"]), shown_score(match["score"]), match["tiles"])
    return found


async def test_a_whole_extrawurm_game(fake_discord: FakeDiscord, launcher: BotLauncher) -> None:
    fake = fake_discord
    began = time.monotonic()
    seen = Seen()
    async with asyncio.timeout(TEST_BUDGET + 30):
        process = await launcher.start({"DICE_SEED": SEED, "BOT_STEP_SECONDS": "0"})
        message_id = await open_lobby(fake)
        message = fake.get_message(message_id)
        assert message is not None
        start = stored(launcher.database, message_id)
        assert len(start.game.players) == len(PEOPLE) + len(LEVELS)
        grill, _ = table_lines(message, len(start.game.players))
        for specialist, tile in SETUP_TILES.items():  # each on its tile, beside 11 and 13
            assert tile_shown(grill, tile, SPECIALIST_MARK[specialist]), message.render()
        assert tile_shown(grill, 13), message.render()

        await play_to_the_end(fake, launcher.database, message_id, seen, began + TEST_BUDGET)

        end = stored(launcher.database, message_id)
        assert end.game.is_over and not end.game.abandoned
        shown = final_standings(message, end.names)
        assert {p: (rank, score) for p, (rank, score, _) in shown.items()} == {
            s.player: (s.rank, s.worms) for s in end.game.standings()
        }, message.render()
        for standing in end.game.standings():  # every tile, the extra tiles too
            tiles = shown[standing.player][2]
            for tile in standing.tiles:
                assert tile_shown(tiles, tile), (standing, message.render())
        scores = {p: end.game.score(p) for p in end.game.players}
        print(f"extrawurm e2e: {seen}; scores {scores}; {time.monotonic() - began:.1f} s")

    # People played, specialists changed hands and the message showed it.
    assert seen.person_steps > 10
    assert seen.held, "no specialist was ever held"
    slow = [i.describe() for i in fake.interactions if (i.latency or 0.0) >= DEADLINE]
    assert not slow, "answers later than 3 s:\n" + "\n".join(slow)
    assert await process.stop() == 0, process.log()
    no_problems(launcher)
