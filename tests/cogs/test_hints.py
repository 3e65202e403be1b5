"""The Hint button: for the player to move only, ephemeral, read-only, and off on request."""

from __future__ import annotations

from bot.games.pickomino.ai import format_hint, hint_for
from tests.cogs.helpers import add_bots, choose, open_lobby, start_game
from tests.discord_harness import BotHarness, StoredMessage

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
WEBHOOK_EDIT = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")

# Seed 1, Anne first: her first roll is 1 1 2 2 2 3 4 5.
FIRST_ROLL_HINT = "\n".join(
    [
        "💡 Keep the 3, then roll: about a 2 in 3 chance to end with a tile.",
        "• Keep the 4 (4): about a 2 in 3 chance of a tile",
        "• Keep the 5 (5): about a 2 in 3 chance of a tile",
        "• Keep the three 2s (6): about a 1 in 2 chance of a tile",
        "• Keep the two 1s (2): about a 1 in 2 chance of a tile",
        "Your chance to win the game with this play: about a 1 in 2.",
    ]
)


def has_hint(message: StoredMessage) -> bool:
    return any(":hint:" in button["custom_id"] for button in message.buttons)


async def test_the_hint_answers_the_player_to_move_alone_and_changes_nothing(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, eve = harness.user("Anne"), harness.user("Bob"), harness.user("Eve")
        live = await start_game(harness, [anne, bob], first_player="host")
        assert has_hint(live)
        rolled = await harness.click(anne, harness.message(live.id), "Roll")
        # The roll is on the face buttons; the text says what to do with it.
        assert "Keep one face: 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣" in rolled.message.text()
        before = await harness.session()
        shown = harness.message(live.id).snapshot()

        answer = await harness.click(anne, harness.message(live.id), "Hint")
        assert answer.kinds == [4] and answer.message.ephemeral
        assert answer.ephemeral == FIRST_ROLL_HINT
        assert (await harness.session()) is before  # no commit, same version
        assert harness.message(live.id).payload == shown.payload
        assert harness.fake.sent(*EDIT) == [] and harness.fake.sent(*WEBHOOK_EDIT) == []

        refused = await harness.click(bob, harness.message(live.id), "Hint")
        assert refused.ephemeral == "It's Anne's turn."
        refused = await harness.click(eve, harness.message(live.id), "Hint")
        assert refused.ephemeral == "You're not in this game."

        # The buttons are still those of the same version: Anne plays on.
        kept = await harness.click(anne, harness.message(live.id), "4️⃣")
        assert kept.edited and kept.ephemeral is None


async def test_the_hint_offers_stop_now_when_a_tile_can_be_taken(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        for _ in range(200):  # keep the best face and roll until the player could stop
            session = await harness.session()
            legal = session.game.legal_actions()
            if legal.can_roll and legal.claims:
                break
            message = harness.message(live.id)
            which = "Roll" if legal.can_roll else choose(message)  # choose keeps the best face
            await harness.click(await harness.current_user(), message, which)
        else:
            raise AssertionError("no position with a stop option")
        player = await harness.current_user()
        answer = await harness.click(player, harness.message(live.id), "Hint")
        names = {seat.player_id: seat.name for seat in session.seats}
        assert answer.ephemeral == format_hint(hint_for(session.game), names=names)
        assert "• Stop now: take " in answer.ephemeral
        assert "• Roll " in answer.ephemeral


async def test_hints_turned_off_hide_the_button(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host", hints=False)
        assert not has_hint(live)
        rolled = await harness.click(anne, harness.message(live.id), "Roll")
        assert not has_hint(rolled.message)
        rules = await harness.slash(bob, "pickomino", "rules")
        assert "Hints: off" in (rules.ephemeral or "")


async def test_hints_show_in_the_lobby_and_rules_and_not_on_a_bots_turn(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db", bot_step_seconds=60) as harness:
        anne = harness.user("Anne")
        lobby = await open_lobby(harness, anne, first_player="host")
        assert "Hints: on" in lobby.text()
        rules = await harness.slash(anne, "pickomino", "rules")
        assert "Hints: on" in (rules.ephemeral or "")
        lobby = await add_bots(harness, anne, lobby, "Easy")
        await harness.click(anne, lobby, "Start")
        assert has_hint(harness.message(lobby.id))
        for _ in range(100):  # Anne plays until the computer player is to move
            message = harness.message(lobby.id)
            await harness.click(anne, message, choose(message))
            if (await harness.session()).game.current_player != str(anne.id):
                break
        bot_turn = harness.message(lobby.id)
        assert "Pip (Easy)'s turn" in bot_turn.text()
        assert not has_hint(bot_turn) and bot_turn.enabled() == []
