"""See the bot without Discord: scripted scenes played through the real handlers (the
production DiceBot on the in-memory FakeDiscord of tests/discord_harness.py), every
message they produce drawn at 390 and 800 px by bot.preview.

    python -m tests.preview.scenes --out previews/scenes [--text] [--only NAME ...]
        [--language de]

Prints each picture's height. `--text` draws without the application emojis (the
Unicode fallback a bot shows when the emoji upload failed); `--language` plays them with
players whose Discord client is in that language (so the games speak it); `--table`
with the table on (DISCORD_CLIENT_SECRET set: Open the table on lobbies and turns). The scenes: a
lobby with a computer player, Cancel's question and the closed lobby; 3-, 5- and
7-player games in the middle of a turn; a steal and its headline on the next turn; a
person's bust; a turn ping; the old copy after /pickomino status; the end screen with
its picture; an abandoned game; an old Play again; an Extrawurm lobby, its end screen
and the Canned Worm's and the Golden Die's turns; the score pages (a game's story, the
history, a leaderboard, a player's card); the skill ratings (the end screen with each
person's change, the rating leaderboard, a card with the rating).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.games.pickomino.engine import Face, Game, Phase, Rules
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.pictures import pickomino_emojis
from bot.history.record import SeatInfo
from bot.history.sql import SqlResultStore
from bot.i18n import LOCALES, with_locale
from bot.preview import message_html
from bot.preview.shoot import WIDTHS, BrowserMissing, screenshot
from bot.render.custom_ids import ComponentRef
from bot.render.emoji import use_book
from tests.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    BotHarness,
    FakeUser,
    PrivateChat,
    StoredMessage,
)
from tests.history.games import play as play_engine
from tests.history.games import result_of

NOW = 1_800_000_000.0
KEEP_ORDER = ("keep:w", "keep:5", "keep:4", "keep:3", "keep:2", "keep:1")
PEOPLE = ["Anne", "Bartholomew", "Chloé 🌻", "dmitri_the_dice_lord", "Eve", "Fatima", "Gus"]


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@dataclass
class Album:
    """The messages drawn, by name, with what the drawing needs to show them."""

    harness: BotHarness
    pages: list[tuple[str, str]] = field(default_factory=list)
    folder: Path = Path(".")
    language: str = "en-US"  # every person's client language, so the game's too

    def person(self, name: str) -> FakeUser:
        return self.harness.user(name, locale=self.language)

    def take(self, name: str, message: StoredMessage) -> None:
        names = {str(user.id): user.name for user in self.harness.fake.members.values()}
        images = {}
        for attachment in message.payload.get("attachments") or []:
            data = self.harness.fake.uploads.get(attachment["filename"])
            if data is not None:
                path = self.folder / f"{name}-{attachment['filename']}"
                path.write_bytes(data)
                images[attachment["filename"]] = str(path)
        html = message_html(
            message.payload,
            names=names,
            emoji_images=self.emoji_images(),
            images=images,
            now=NOW + 30,
        )
        self.pages.append((name, html))

    def emoji_images(self) -> dict[str, str]:
        found = {}
        for name in self.harness.fake.emojis:
            path = self.folder / f"{name}.png"
            if path.exists():
                found[name] = str(path)
        return found


# ------------------------------------------------------------------------- playing


def by_action(message: StoredMessage, action: str, arg: str = "") -> str:
    """The custom_id of the button for a click: labels differ by language, ids do not."""
    for candidate in message.buttons:
        ref = ComponentRef.parse(candidate["custom_id"])
        if ref is not None and ref.action == action and ref.arg == arg:
            return str(candidate["custom_id"])
    raise AssertionError(f"no {action}:{arg} button")


def button(message: StoredMessage, move: str) -> dict[str, Any] | None:
    for candidate in message.enabled():
        ref = ComponentRef.parse(candidate["custom_id"])
        if ref is not None and (ref.arg == move or (move == "claim" and "claim:" in ref.arg)):
            return candidate
    return None


def choice(message: StoredMessage, *, greedy: bool) -> str:
    """A plain strategy: keep worms then high faces; stop when a tile is there (greedy:
    roll on while 6 or more dice are kept... never, so busts happen too)."""
    for move in KEEP_ORDER:
        found = button(message, move)
        if found is not None:
            return str(found["custom_id"])
    claim = button(message, "claim")
    roll = button(message, "roll")
    if claim is not None and (roll is None or not greedy):
        return str(claim["custom_id"])
    if roll is not None:
        return str(roll["custom_id"])
    raise AssertionError("nothing to click")


async def click(
    harness: BotHarness, user: FakeUser, message_id: int, action: str, arg: str = ""
) -> Any:
    message = harness.message(message_id)
    return await harness.click(user, message, by_action(message, action, arg))


async def person_to_move(harness: BotHarness) -> FakeUser | None:
    await harness.run_bots()
    session = await harness.session()
    if session is None:
        return None
    return harness.member(session.game.current_player)


async def full_lobby(
    harness: BotHarness, people: list[FakeUser], bots: int, **options: Any
) -> StoredMessage:
    """A lobby `people[0]` opened with `options`, the others joined, `bots` added."""
    host = people[0]
    options.setdefault("turn_timer", 300)
    lobby = (await harness.slash(host, "pickomino", "start", **options)).message
    for person in people[1:]:
        await click(harness, person, lobby.id, "join")
    for _ in range(bots):
        offered = await click(harness, host, lobby.id, "addbot")
        await click(harness, host, offered.message.id, "bot", "normal")
    return harness.message(lobby.id)


async def game(
    harness: BotHarness, people: list[FakeUser], bots: int, **options: Any
) -> StoredMessage:
    lobby = await full_lobby(harness, people, bots, **options)
    await click(harness, people[0], lobby.id, "start")
    return harness.message(lobby.id)


async def play_until(
    harness: BotHarness,
    live_id: int,
    done: Callable[[Any, StoredMessage], bool],
    *,
    greedy: bool = False,
    limit: int = 3000,
) -> StoredMessage:
    """Click (people) and wait (computer players) until `done(session, message)`."""
    for _ in range(limit):
        person = await person_to_move(harness)
        message = harness.message(live_id)
        session = await harness.session()
        if session is None or done(session, message):
            return message
        assert person is not None
        await harness.click(person, message, choice(message, greedy=greedy))
    raise AssertionError("the scene never came")


def mid_turn(turns: int) -> Callable[[Any, StoredMessage], bool]:
    """A person to move some turns in, with dice kept and a roll to keep from."""

    def ready(session: Any, message: StoredMessage) -> bool:
        game = session.game
        return (
            game.turn_number >= turns
            and int(game.current_player) > 0
            and game.roll is not None
            and len(set(game.kept)) >= 2
            and any(":keep:" in b["custom_id"] for b in message.enabled())
        )

    return ready


def a_persons_bust(session: Any, message: StoredMessage) -> bool:
    log = session.log
    return bool(log) and log[-1]["type"] == "failed" and int(log[-1]["player"]) > 0


# ------------------------------------------------------------------------- scenes


async def lobby_scenes(harness: BotHarness, album: Album) -> None:
    anne, bob = album.person("Anne"), album.person("Bartholomew")
    lobby = (await harness.slash(anne, "pickomino", "start")).message
    await click(harness, bob, lobby.id, "join")
    offered = await click(harness, anne, lobby.id, "addbot")
    album.take("add-bot-levels", offered.message)
    await click(harness, anne, offered.message.id, "bot", "easy")
    album.take("lobby", harness.message(lobby.id))
    asked = await click(harness, anne, lobby.id, "cancel")
    album.take("lobby-cancel-question", asked.message)
    await click(harness, anne, asked.message.id, "end")
    album.take("lobby-closed", harness.message(lobby.id))


async def turn_scenes(harness: BotHarness, album: Album, players: int) -> None:
    people = [album.person(name) for name in PEOPLE[: players - 1]]
    live = await game(harness, people, bots=1, first_player="host")
    message = await play_until(harness, live.id, mid_turn(12))
    album.take(f"turn-{players}-players", message)


async def three_player_scenes(harness: BotHarness, album: Album) -> None:
    """A 3-player game (two people and a computer player): a roll to keep from, then
    dice kept with a tile to take or dice to roll."""
    people = [album.person(name) for name in PEOPLE[:2]]
    live = await game(harness, people, bots=1, first_player="host")
    message = await play_until(harness, live.id, mid_turn(8))
    album.take("turn-3-players", message)

    def may_stop(session: Any, message: StoredMessage) -> bool:
        game = session.game
        return (
            game.turn_number >= 8
            and int(game.current_player) > 0
            and game.phase is Phase.ROLL
            and bool(game.kept)
            and bool(game.claim_options())
        )

    message = await play_until(harness, live.id, may_stop, greedy=True)
    album.take("turn-3-stop", message)


def steal_position(players: list[str]) -> Game:
    """Anne to stop with 25 kept (a worm among them) while 25 tops Chloé's stack."""
    anne, _, chloe = players
    kept = [Face.WORM] * 2 + [Face.FIVE] * 3
    grill = [tile for tile in range(21, 37) if tile != 25]
    return Game.from_position(players, grill=grill, stacks={chloe: [25]}, current=anne, kept=kept)


async def steal_scenes(harness: BotHarness, album: Album) -> None:
    """Anne steals 25 from Chloé; the headline stays through Bartholomew's turn, until
    Chloé's (3 people)."""
    people = [album.person(name) for name in PEOPLE[:3]]
    live = await game(harness, people, bots=0, first_player="host")
    await set_position(harness, steal_position)
    chloe = str(people[2].id)
    await click(harness, people[0], live.id, "move", f"claim:s25.{chloe}")
    album.take("steal-next-turn", harness.message(live.id))
    await click(harness, people[1], live.id, "move", "roll")
    album.take("steal-mid-turn", harness.message(live.id))


async def bust_scene(harness: BotHarness, album: Album) -> None:
    people = [album.person(name) for name in PEOPLE[:3]]
    live = await game(harness, people, bots=1, first_player="host")
    album.take("game-start", harness.message(live.id))
    pings = [m for m in harness.fake.channel_messages(CHANNEL_ID) if m.content.startswith("<@")]
    album.take("turn-ping", pings[-1])
    message = await play_until(harness, live.id, a_persons_bust, greedy=True)
    album.take("bust", message)
    status = await harness.slash(people[1], "pickomino", "status")
    album.take("status-new-copy", status.message)
    album.take("status-old-copy", harness.message(live.id))


async def end_scenes(harness: BotHarness, album: Album) -> None:
    people = [album.person(name) for name in PEOPLE[:3]]
    live = await game(harness, people, bots=1, first_player="host")
    final = (await play_until(harness, live.id, lambda s, m: False)).snapshot()
    album.take("final", final)
    again = await harness.click(people[1], final, by_action(final, "again"))
    old = await harness.click(people[2], final, by_action(final, "again"))
    album.take("play-again-old", old.messages[-1])
    lobby = again.message
    await click(harness, people[0], lobby.id, "join")
    await click(harness, people[1], lobby.id, "start")
    await click(harness, people[1], lobby.id, "move", "roll")
    end = await harness.slash(people[1], "pickomino", "end")
    await click(harness, people[1], end.message.id, "end")
    album.take("final-abandoned", harness.message(lobby.id))


async def set_position(harness: BotHarness, build: Callable[[list[str]], Game]) -> None:
    """Put the channel's game at a position (built from its seated players) and show it,
    as a commit and its publish would."""
    platform = harness.bot.platform

    def mutate(draft: Any, _: Any) -> list[Any]:
        draft.game = build(list(draft.game.players))
        return []

    await harness.bot.sessions.update(CHANNEL_ID, mutate, publish=platform.live.session_changed)


def extrawurm_position(players: list[str], *, mover: int) -> Game:
    """Some turns into an Extrawurm game: Anne holds the Canned Worm (and 11), Bartholomew
    the Golden Die, Chloé the Weasel; the Hen sits on 13, the Raven on 22."""
    anne, bart, chloe, bot = players
    common: dict[str, Any] = {
        "grill": [13, 22, 26, 29, 30, 31, 32, 33, 34, 35],
        "face_down": [36],
        "stacks": {anne: [24], bart: [21, 27], chloe: [23], bot: [25, 28]},
        "extras": {anne: [11]},
        "specialists": {
            Specialist.CANNED_WORM: anne,
            Specialist.HEN: 13,
            Specialist.WEASEL: chloe,
            Specialist.RAVEN: 22,
            Specialist.GOLDEN_DIE: bart,
        },
        "bratwurms": {anne: 1, bot: 1},
        "turn_number": 9 + mover,
    }
    rules = Rules(extrawurm=True)
    if mover == 0:  # no worm kept, may stop: the can makes 23 into 28 (so 26 is offered)
        kept = [Face.FIVE] * 3 + [Face.FOUR] * 2
        return Game.from_position(players, rules, current=0, kept=kept, **common)
    # nine dice: five kept, four rolled
    kept = [Face.WORM] * 2 + [Face.FOUR] * 3
    roll = [Face.FIVE, Face.THREE, Face.TWO, Face.ONE]
    return Game.from_position(
        players, rules, current=mover, phase=Phase.KEEP, kept=kept, roll=roll, **common
    )


async def extrawurm_scenes(harness: BotHarness, album: Album) -> None:
    """The lobby with Extrawurm on; the Canned Worm's and the Golden Die's effect on the
    kept total, with the specialists on the grill and in the players' lines; the end
    screen, Bratwurms counted apart."""
    people = [album.person(name) for name in PEOPLE[:3]]
    live = await full_lobby(harness, people, bots=1, first_player="host", extrawurm=True)
    album.take("extrawurm-lobby", live)
    await click(harness, people[0], live.id, "start")
    album.take("extrawurm-start", harness.message(live.id))
    final = (await play_until(harness, live.id, lambda s, m: False)).snapshot()
    album.take("extrawurm-final", final)
    # Play again (Extrawurm still on), then the positions: set up, so they come last
    # (a game's story is told from its events, which a set position does not have).
    again = (await harness.click(people[0], final, by_action(final, "again"))).message
    for person in people[1:]:
        await click(harness, person, again.id, "join")
    await click(harness, people[0], again.id, "start")
    await set_position(harness, lambda players: extrawurm_position(players, mover=0))
    album.take("extrawurm-canned-worm", harness.message(again.id))
    await set_position(harness, lambda players: extrawurm_position(players, mover=1))
    album.take("extrawurm-golden-die", harness.message(again.id))


async def score_scenes(harness: BotHarness, album: Album) -> None:
    """The score pages after a few games: a game's story, the history, a leaderboard
    and a player's card (in another language with `--language`)."""
    people = [album.person(name) for name in PEOPLE[:3]]
    for _ in range(2):
        live = await game(harness, people, bots=1, first_player="host")
        await play_until(harness, live.id, lambda s, m: False)
    row = await harness.bot.db.fetchone("SELECT max(game_id) FROM history_games")
    assert row is not None
    pages = {
        "score-game": ("game", {"id": row[0]}),
        "score-history": ("history", {}),
        "score-leaderboard": ("leaderboard", {}),
        "score-player": ("player", {}),
    }
    for name, (page, options) in pages.items():
        answer = await harness.slash(people[0], "pickomino", "score", page, **options)
        album.take(name, answer.message)


async def picker_scenes(harness: BotHarness, album: Album) -> None:
    """An eight-player Picker round halfway through, and a three-player game's end."""
    people = [album.person(name) for name in [*PEOPLE, "Hugo"]]
    lobby = (await harness.slash(people[0], "picker", "start", turn_timer=300)).message
    for person in people[1:]:
        await click(harness, person, lobby.id, "join")
    await click(harness, people[0], lobby.id, "start")
    for _ in range(12):
        await _picker_pick(harness, lobby.id)
    album.take("picker-8-players", harness.message(lobby.id))
    await harness.slash(people[0], "picker", "end")
    ended = await harness.slash(people[0], "picker", "end")
    await click(harness, people[0], ended.message.id, "end")
    few = [album.person(name) for name in ("Iris", "Jonas", "Kim")]
    other = await harness.slash(few[0], "picker", "start", turn_timer=0)
    for person in few[1:]:
        await click(harness, person, other.message.id, "join")
    await click(harness, few[0], other.message.id, "start")
    while await harness.session() is not None:
        await _picker_pick(harness, other.message.id)
    album.take("picker-final", harness.message(other.message.id))


async def _picker_pick(harness: BotHarness, message_id: int) -> None:
    message = harness.message(message_id)
    dice = [b for b in message.enabled() if ":pick:" in b["custom_id"]]
    best = max(dice, key=lambda die: int(die["label"]))
    player = await harness.current_user()
    await harness.click(player, message, best["custom_id"])


async def learn_scenes(harness: BotHarness, album: Album) -> None:
    """/pickomino learn: its start, a keep, a stop, the bust told while the computer
    plays, the steal and the end with Start a real game; /picker learn's first round."""
    edits: list[StoredMessage] = []
    edit = harness.fake._edit

    def recording(message_id: int, data: dict[str, Any]) -> StoredMessage:
        message = edit(message_id, data)
        edits.append(message.snapshot())
        return message

    harness.fake._edit = recording  # type: ignore[method-assign]
    anne = album.person("Anne")
    live = (await harness.slash(anne, "pickomino", "learn")).message
    album.take("learn-start", live)
    for move in ("roll", "keep:w"):
        await click(harness, anne, live.id, "move", move)
    album.take("learn-keep", harness.message(live.id))
    for move in ("roll", "keep:5"):
        await click(harness, anne, live.id, "move", move)
    album.take("learn-stop", harness.message(live.id))
    await click(harness, anne, live.id, "move", "claim:g25")
    await harness.run_bots()
    for move in ("roll", "keep:3", "roll"):
        await click(harness, anne, live.id, "move", move)
    await harness.run_bots()
    album.take("learn-bust", next(m for m in edits if "💥" in m.text() and "🤖" in m.text()))
    for move in ("roll", "keep:w", "roll", "keep:1"):
        await click(harness, anne, live.id, "move", move)
    album.take("learn-steal", harness.message(live.id))
    while await harness.session() is not None:
        message = harness.message(live.id)
        await harness.click(anne, message, choice(message, greedy=False))
        await harness.run_bots()
    album.take("learn-final", harness.message(live.id))
    iris = album.person("Iris")
    other = CHANNEL_ID + 1
    picker = (await harness.slash(iris, "picker", "learn", channel_id=other)).message
    album.take("learn-picker", picker)


async def anywhere_scenes(harness: BotHarness, album: Album) -> None:
    """A group DM's game in its Continue state (a computer player's turn next, nobody
    clicking), and the refusal in a server that would make every answer ephemeral."""
    chat = PrivateChat(CHANNEL_ID, group=True, name="Dice night")
    anne, bob = album.person("Anne"), album.person("Bartholomew")
    opened = await harness.slash(anne, "pickomino", "start", turn_timer=300, private=chat)
    lobby = opened.message
    await harness.click(bob, lobby, by_action(lobby, "join"), private=chat)
    offered = await harness.click(
        anne, harness.message(lobby.id), by_action(harness.message(lobby.id), "addbot"),
        private=chat,
    )  # fmt: skip
    await harness.click(anne, offered.message, by_action(offered.message, "bot", "normal"))
    message = harness.message(lobby.id)
    await harness.click(anne, message, by_action(message, "start"), private=chat)
    for _ in range(200):  # the people play until the computer player is next
        session = await harness.session()
        seat = session.seat_by_player(session.game.current_player)
        if seat.is_bot:
            break
        message = harness.message(lobby.id)
        person = harness.member(session.game.current_player)
        await harness.click(person, message, choice(message, greedy=True), private=chat)
    # Every token is in its last minutes from here: each edit (the computer player's
    # steps go on by themselves) shows the Continue state, as the last ones do.
    tokens = harness.bot.platform.live.tokens
    tokens.margin = tokens.lifetime / 2
    await harness.bot.platform.live.show_waiting(CHANNEL_ID)
    await harness.settle()
    album.take("continue-state", harness.message(lobby.id))
    # Where only Chloé installed the app, and the server switched external apps off.
    may_send = discord.Permissions(view_channel=True, send_messages=True).value
    refused = await harness.slash(
        album.person("Chloé 🌻"),
        "pickomino",
        "start",
        app_permissions=may_send,
        user_install=True,
    )
    album.take("ephemeral-refusal", refused.message)


async def review_scenes(harness: BotHarness, album: Album) -> None:
    """The end screen of a four-player game (a computer player among them) and its
    review as one of the players reads it after pressing Review: to compare heights."""
    people = [album.person(name) for name in PEOPLE[:3]]
    live = await game(harness, people, bots=1, first_player="host")
    final = (await play_until(harness, live.id, lambda s, m: False)).snapshot()
    album.take("review-final", final)
    await harness.bot.platform.reviews.close()  # computed in the background at the end
    answer = await harness.click(people[1], final, by_action(final, "review"))
    album.take("review", answer.message)


async def rating_scenes(harness: BotHarness, album: Album) -> None:
    """Skill ratings: the end screen with each person's change after a few games (saved
    straight into history, as if played before), the rating leaderboard and a card."""
    people = [album.person(name) for name in PEOPLE[:3]]
    seats = [SeatInfo(person.id, person.name, False) for person in people]
    rng = random.Random(5)
    store = SqlResultStore()
    async with harness.bot.db.transaction() as connection:
        for number in range(8):
            ended_at = int(NOW) - (8 - number) * 3600
            played = play_engine(rng, seats)
            result = result_of(played, seats, game_id=90_000 + number, ended_at=ended_at)
            result.guild_id = GUILD_ID
            await store.save(connection, result)
    live = await game(harness, people, bots=1, first_player="host")
    final = (await play_until(harness, live.id, lambda s, m: False)).snapshot()
    album.take("ratings-final", final)
    for name, page, options in (
        ("ratings-leaderboard", "leaderboard", {"ranking": "rating"}),
        ("ratings-player", "player", {}),
    ):
        answer = await harness.slash(people[0], "pickomino", "score", page, **options)
        album.take(name, answer.message)


SCENES: dict[str, Callable[[BotHarness, Album], Awaitable[None]]] = {
    "learn": learn_scenes,
    "picker": picker_scenes,
    "lobby": lobby_scenes,
    "turn-5": lambda h, a: turn_scenes(h, a, 5),
    "turn-7": lambda h, a: turn_scenes(h, a, 7),
    "bust": bust_scene,
    "end": end_scenes,
    "extrawurm": extrawurm_scenes,
    "score": score_scenes,
    # Added last: a scene's seed is its place here, and the ones above keep theirs.
    "turn-3": three_player_scenes,
    "steal": steal_scenes,
    "anywhere": anywhere_scenes,
    "review": review_scenes,
    "ratings": rating_scenes,
}


async def play(
    out: Path, *, pictures: bool, only: list[str], language: str = "en-US", table: bool = False
) -> int:
    out.mkdir(parents=True, exist_ok=True)
    if pictures:
        for name, data in pickomino_emojis().items():
            (out / f"{name}.png").write_bytes(data)
    pages: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (name, scene) in enumerate(SCENES.items()):
            if only and name not in only:
                continue
            clock = Clock()
            database = Path(folder) / f"{name}.db"
            async with BotHarness.running(
                database, seed=7 + index, clock=clock, emoji_sync=pictures, table=table
            ) as harness:
                if pictures and harness.bot.emoji_sync is not None:
                    await harness.bot.emoji_sync
                album = Album(harness, folder=out, language=language)
                await scene(harness, album)
                pages.extend(album.pages)
            use_book(None)
    try:
        shots = await screenshot(pages, WIDTHS, out)
    except BrowserMissing as error:
        print(error, file=sys.stderr)
        return 2
    for shot in sorted(shots, key=lambda s: (s.width, s.name)):
        print(f"{shot.name:<24} {shot.width:>4} px wide  {round(shot.height):>5} px tall")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.preview.scenes", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("previews/scenes"))
    parser.add_argument("--text", action="store_true", help="no emoji pictures (fallback)")
    parser.add_argument("--only", nargs="*", default=[], choices=sorted(SCENES))
    parser.add_argument("--table", action="store_true", help="the table on: Open the table")
    parser.add_argument(
        "--language", default="en-US", choices=["en-US", *LOCALES[1:]],
        help="the players' client language, so the games' too (default en-US)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    random.seed(0)
    with with_locale(args.language):  # the pictures' page chrome (Today at ..., APP)
        shown = play(
            args.out,
            pictures=not args.text,
            only=args.only,
            language=args.language,
            table=args.table,
        )
        return asyncio.run(shown)


if __name__ == "__main__":
    sys.exit(main())
