"""More claims than buttons (any lower tile): one "Stop and take…" menu offers them all,
for the player to move only, on the version they saw, after a restart too."""

from __future__ import annotations

from bot.games.pickomino.engine import Face, Phase
from bot.sessions.model import Session
from bot.sessions.tools import ChangeTools
from tests.cogs.helpers import start_game
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeUser, StoredMessage

MENU = "Stop and take…"


async def _sixteen_claims(harness: BotHarness, victim: FakeUser) -> None:
    """The player to move has kept 36 with 36 on top of `victim`'s stack: every grill tile
    below 36 and the steal, 16 claims. Set up as a committed change, shown on the live
    message the way a timer's change is."""

    def set_up(session: Session, tools: ChangeTools) -> list:
        game = session.game
        game.grill.remove(36)
        game.stacks[str(victim.id)].append(36)
        game.kept = [Face.WORM] * 6 + [Face.THREE] * 2
        game.phase = Phase.CLAIM
        return []

    service = harness.bot.sessions
    await service.update(CHANNEL_ID, set_up, publish=service.listener.session_changed)


def _claim_buttons(message: StoredMessage) -> list[str]:
    return [b["custom_id"] for b in message.buttons if ":claim:" in b["custom_id"]]


async def test_the_menu_offers_every_claim_and_takes_the_lowest_tile(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, eve = harness.user("Anne"), harness.user("Bob"), harness.user("Eve")
        live = await start_game(harness, [anne, bob], first_player="host", lower_tile="any")
        await _sixteen_claims(harness, bob)
        message = harness.message(live.id)
        before = await harness.session()

        assert _claim_buttons(message) == []
        assert len(message.rows) <= 5 and [len(row) for row in message.rows][1] == 1
        labels = message.option_labels(MENU)
        assert len(labels) == 16
        assert labels[0] == "Take 35 (4 🪱)" and labels[-2:] == [
            "Take 21 (1 🪱)",
            "Steal 36 from Bob (4 🪱)",
        ]
        text = message.text()
        # Sixteen claims are the menu's to list: the prompt says where, not what.
        assert "Every face kept" not in text and "All dice kept" not in text
        assert "Your turn is done: pick your tile in the menu" in text
        assert "take 21" not in text
        assert "no button" not in text
        shown = message.snapshot()

        wrong = await harness.choose(bob, message, MENU, "claim:g21")
        assert wrong.ephemeral == "It's Anne's turn." and not wrong.edited
        spectator = await harness.choose(eve, message, MENU, "claim:g21")
        assert spectator.ephemeral == "You're not in this game."
        crafted = harness.choose_payload(anne, message, MENU, "claim:g21")
        # A menu's option is a move like a button's: the game refuses one not legal now.
        crafted["data"]["values"] = ["roll"]
        refusal = "The turn is over: every die or every face is kept. Take a tile."
        assert (await harness.dispatch(crafted)).ephemeral == refusal
        assert await harness.session() is before
        assert harness.message(live.id).payload == shown.payload

        taken = await harness.choose(anne, message, MENU, "claim:g21")

        assert taken.edited and taken.ephemeral is None
        after = await harness.session()
        assert after.version == before.version + 1
        assert after.game.stacks[str(anne.id)] == [21] and 21 not in after.game.grill
        assert after.game.current_player == str(bob.id)
        assert "Anne took 21" in taken.message.text()
        assert taken.message.selects == []  # Bob's turn starts with Roll
        row = await harness.bot.sessions.store.get(after.id)  # committed before the reply
        assert row is not None and row.version == after.version
        events = await harness.bot.sessions.store.events(after.id)
        assert events[-1]["type"] == "took" and events[-1]["tile"] == 21

        stale = await harness.choose(anne, shown, MENU, "claim:g22")  # the menu of before
        assert "moved on" in (stale.ephemeral or "")
        assert await harness.session() is after


async def test_the_menu_works_after_a_restart_and_can_steal(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database, close=False) as first:  # then "kill -9"
        anne, bob = first.user("Anne"), first.user("Bob")
        live = await start_game(first, [anne, bob], first_player="host", lower_tile="any")
        await _sixteen_claims(first, bob)
        fake = first.fake

    async with BotHarness.running(database, fake=fake) as second:
        message = second.message(live.id)
        stolen = await second.choose(anne, message, MENU, f"claim:s36.{bob.id}")
        assert stolen.edited and stolen.ephemeral is None
        game = (await second.session()).game
        assert game.stacks[str(anne.id)] == [36] and game.stacks[str(bob.id)] == []
