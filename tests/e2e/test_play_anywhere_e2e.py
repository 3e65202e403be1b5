"""End to end: the bot process plays whole games where only interactions reach the
channel, against the stand-in as Discord is there (a group DM; a server where only a
person installed the app; interaction tokens that run out).

Every bot-token request into such a channel would be refused (403, 50001), a 6th
follow-up of an interaction refused (40094), a dead token refused (401, 50027): the
stand-in records each as a rejection, and the `fake_discord` fixture fails the test on
any, so these games prove the bot never tries."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.devserver.standin import FakeDiscord, FakeMessage
from bot.i18n import t
from tests.e2e import test_extrawurm_e2e as extrawurm_e2e
from tests.e2e.test_bot_e2e import (
    DEADLINE,
    BotLauncher,
    accepted_click,
    choose,
    is_final,
    no_problems,
)

pytestmark = pytest.mark.e2e

PEOPLE = ("alice", "bob", "carol")
BUDGET = 240.0  # seconds for one whole game, start-up included
TOKEN_SECONDS = 20  # the stand-in's token lifetime for the waiting test (Discord: 900)
# The computer's pause between its steps there: long enough that its turn outlasts a token.
STEP_SECONDS = TOKEN_SECONDS * 2 / 5


def person_to_move(fake: FakeDiscord, message: FakeMessage) -> str | None:
    """Whose turn the live message shows (None: the computer player's)."""
    return extrawurm_e2e.person_to_move(fake, message, PEOPLE)


async def open_table(
    fake: FakeDiscord, channel_id: int, people: tuple[str, ...] = PEOPLE, **options: object
) -> int:
    """alice opens a lobby in the channel, the other `people` join, a Normal computer
    player sits down (last), alice starts: the live message's id."""
    started = await fake.send_command(
        "alice", "pickomino start", {"turn_timer": 0, **options}, channel_id=channel_id
    )
    lobby = started.message
    assert lobby is not None and not started.ephemeral, started.describe()
    assert started.latency is not None and started.latency < DEADLINE
    for name in people[1:]:
        await accepted_click(fake, name, lobby.id, lobby.button(t("lobby.button.join")))
    offered = await fake.click("alice", lobby.id, label=t("lobby.button.add_bot"))
    levels = offered.message
    assert levels is not None and levels.is_ephemeral, offered.describe()
    edits = lobby.edits
    await fake.click("alice", levels.id, label=t("lobby.bot_level.normal"))
    await fake.wait_for(lambda: lobby.edits > edits, what="the computer player to sit")
    await accepted_click(fake, "alice", lobby.id, lobby.button(t("lobby.button.start")))
    return lobby.id


async def play_to_the_end(fake: FakeDiscord, message_id: int, deadline: float) -> FakeMessage:
    """The people click (each answered within Discord's 3 s); the computer moves alone."""
    message = fake.get_message(message_id)
    assert message is not None
    while not is_final(message):
        assert time.monotonic() < deadline, f"the game took too long:\n{message.render()}"
        person = person_to_move(fake, message)
        if person is None:  # the computer player's turn: it moves by itself
            edits = message.edits
            await fake.wait_for(
                lambda e=edits: message.edits > e, timeout=15, what="the computer to move"
            )
            continue
        _, button = choose(message)
        click = await accepted_click(fake, person, message_id, button)
        assert click.latency is not None and click.latency < DEADLINE, click.describe()
    return message


def pings_of(fake: FakeDiscord, channel_id: int) -> list[FakeMessage]:
    """The turn pings posted in the channel (deleted ones included: each is a follow-up)."""
    followups = [
        message
        for interaction in fake.interactions
        if interaction.channel_id == channel_id
        for message in interaction.followups
        if not message.is_ephemeral
    ]
    return [m for m in followups if "your turn in Pickomino" in (m.content or "")]


async def check_a_whole_game(fake: FakeDiscord, launcher: BotLauncher, channel_id: int) -> None:
    deadline = time.monotonic() + BUDGET
    # The computer steps without the default 1 s pause between its moves (as in the
    # Extrawurm game): the pause is for people to follow, and nothing checked here (tokens
    # alone, pings, follow-ups, history) depends on it; the game is a minute shorter.
    await launcher.start({"BOT_STEP_SECONDS": "0"})
    message_id = await open_table(fake, channel_id)
    final = await play_to_the_end(fake, message_id, deadline)
    # The end screen, with its picture, in the answer to the last click.
    assert final.attachments, final.render()
    assert fake.live_message(channel_id).id == message_id
    # The turn pings came, as follow-ups of the interactions, 5 at most each.
    assert pings_of(fake, channel_id), "no turn ping arrived"
    assert all(i.created_followups <= 5 for i in fake.interactions)
    # The bot's own token never went there (the stand-in would have refused it).
    assert fake.bot_token_requests(channel_id) == []
    # History: recorded and shown in the chat.
    history = await fake.send_command("bob", "pickomino score history", channel_id=channel_id)
    assert history.message is not None, history.describe()
    for name in PEOPLE:
        assert fake.user(name).display_name in history.text, history.describe()
    no_problems(launcher)


async def test_a_whole_game_in_a_group_dm_on_tokens_alone(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    chat = await fake.add_group_dm("Dice night", members=list(PEOPLE))
    await check_a_whole_game(fake, launcher, chat.id)


async def test_a_whole_game_in_a_server_that_never_added_the_bot(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    guild_id = await fake.add_guild_without_bot("Friends of dice")
    [channel] = fake.guild_channels_of(guild_id)
    await check_a_whole_game(fake, launcher, channel.id)


@pytest.fixture
async def short_tokens(fake_discord: FakeDiscord) -> FakeDiscord:
    fake_discord.token_lifetime = TOKEN_SECONDS
    return fake_discord


async def test_everyone_away_past_the_tokens_life_loses_nothing(
    short_tokens: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = short_tokens
    deadline = time.monotonic() + BUDGET
    chat = await fake.add_group_dm("Dice night", members=list(PEOPLE))
    # The bot is told the tokens' life; its computer player takes its time.
    await launcher.start(
        extra_env={
            "INTERACTION_TOKEN_SECONDS": str(TOKEN_SECONDS),
            "BOT_STEP_SECONDS": str(STEP_SECONDS),
        }
    )
    # alice against the computer, which plays right after her.
    message_id = await open_table(fake, chat.id, ("alice",), first_player="host")
    message = fake.get_message(message_id)
    assert message is not None
    # alice plays her turn to its end; then the computer's turn goes on by itself.
    while person_to_move(fake, message) == "alice":
        _, button = choose(message)
        await accepted_click(fake, "alice", message_id, button)
    last_click = time.monotonic()
    # Everyone waits half a token's life past its end: the message says what happens next
    # and offers Continue before its last token runs out.
    continue_seen_at: float | None = None
    while time.monotonic() < last_click + TOKEN_SECONDS * 3 / 2:
        if continue_seen_at is None and message.has_button(t("game.button.continue")):
            continue_seen_at = time.monotonic()
        await asyncio.sleep(0.2)
    assert continue_seen_at is not None, message.render()
    assert continue_seen_at < last_click + TOKEN_SECONDS, continue_seen_at - last_click
    assert t("continue.next.computer", name="").strip() in message.text, message.render()
    shown_before = message.edits
    # The next click (Continue) shows every change since: the computer's moves.
    pressed = await fake.click("alice", message_id, label=t("game.button.continue"))
    assert pressed.latency is not None and pressed.latency < DEADLINE, pressed.describe()
    assert not pressed.ephemeral, pressed.describe()
    assert message.edits > shown_before
    # And the game goes on to alice's turn with nothing lost: whenever the message
    # waits for a click again (the computer's turn is long), she presses Continue.
    while person_to_move(fake, message) is None and not is_final(message):
        assert time.monotonic() < deadline, message.render()
        if message.has_button(t("game.button.continue")):
            await fake.click("alice", message_id, label=t("game.button.continue"))
        await asyncio.sleep(1)
    if not is_final(message):
        person = person_to_move(fake, message)
        assert person is not None
        _, button = choose(message)
        click = await accepted_click(fake, person, message_id, button)
        assert click.latency is not None and click.latency < DEADLINE
    assert time.monotonic() < deadline
    assert fake.bot_token_requests(chat.id) == []
    no_problems(launcher)


async def test_a_server_that_makes_answers_ephemeral_is_refused_and_the_bots_dm_plays_solo(
    fake_discord: FakeDiscord, launcher: BotLauncher
) -> None:
    fake = fake_discord
    await launcher.start()
    # A server that never added the bot, with Use External Apps off: Discord would show
    # the game to alice alone, so nothing opens and she is told what would make it work.
    guild_id = await fake.add_guild_without_bot("Strict server")
    await fake.set_external_apps(guild_id, allowed=False)
    [channel] = fake.guild_channels_of(guild_id)
    refused = await fake.send_command("alice", "pickomino start", channel_id=channel.id)
    assert refused.ephemeral, refused.describe()
    assert t("place.ephemeral_only") in refused.text, refused.describe()
    assert refused.latency is not None and refused.latency < DEADLINE
    assert fake.bot_token_requests(channel.id) == []
    # alice's DM with the bot: a computer player is seated already, and she starts.
    dm = fake.bot_dm("alice")
    opened = await fake.send_command(
        "alice", "pickomino start", {"turn_timer": 0}, channel_id=dm.id
    )
    lobby = opened.message
    assert lobby is not None and not opened.ephemeral, opened.describe()
    assert "(Normal)" in lobby.text, lobby.render()
    await accepted_click(fake, "alice", lobby.id, lobby.button(t("lobby.button.start")))
    message = fake.get_message(lobby.id)
    assert message is not None and person_to_move(fake, message) in ("alice", None)
    no_problems(launcher)
