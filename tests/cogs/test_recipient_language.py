"""What is addressed to one person (their turn's ping, their reminder, a refusal) is in
that person's language, whoever made the move that brought it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.cogs.helpers import choose, start_game
from tests.cogs.test_turn_pings import play_turn
from tests.cogs.test_turn_timer import Clock, _tick
from tests.discord_harness import CHANNEL_ID, BotHarness


def mentions(harness: BotHarness, user_id: int) -> list[Any]:
    """The channel's messages now mentioning `user_id` (deleted ones are gone)."""
    found = [harness.fake.messages.get(i) for i in harness.fake.channel_log.get(CHANNEL_ID, [])]
    return [m for m in found if m and not m.ephemeral and m.content.startswith(f"<@{user_id}>")]


async def test_pings_reminders_and_refusals_speak_the_language_of_their_reader(tmp_path):
    clock = Clock()
    async with BotHarness.running(tmp_path / "bot.db", clock=clock) as harness:
        anne = harness.user("Anne", locale="de")
        bob = harness.user("Bob", locale="pl")
        live = await start_game(
            harness, [anne, bob], first_player="host", turn_timer=60, language="en"
        )
        [annes] = mentions(harness, anne.id)
        assert "du bist dran" in annes.content

        refused = await harness.click(bob, harness.message(live.id), "Roll")  # not his turn
        assert refused.ephemeral == "Teraz tura gracza Anne."

        await _tick(harness, clock, 31)  # the timer, not a click, reminds Anne
        [reminder] = mentions(harness, anne.id)
        assert "die Hälfte deiner Zeit ist um" in reminder.content

        await play_turn(harness, live.id)  # Anne's German clicks pass the turn to Bob
        [bobs] = mentions(harness, bob.id)
        assert "twoja tura w" in bobs.content

        refused = await harness.click(anne, harness.message(live.id), "Roll")
        assert refused.ephemeral == "Bob ist am Zug."

        await play_turn(harness, live.id)  # and Bob's Polish ones back to Anne
        [annes] = mentions(harness, anne.id)
        assert "du bist dran" in annes.content


async def test_the_language_of_a_persons_last_click_is_the_one_they_are_pinged_in(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne", locale="de")
        bob = harness.user("Bob", locale="pl")
        live = await start_game(harness, [anne, bob], first_player="host", language="en")
        bob = replace(bob, locale="fr")  # Bob switches his Discord client to French
        await harness.click(bob, harness.message(live.id), "Roll")  # refused, in French
        await play_turn(harness, live.id)
        [bobs] = mentions(harness, bob.id)
        assert "twoja tura w" in bobs.content  # a refused click changes nothing stored
        while (await harness.session()).game.current_player == str(bob.id):
            message = harness.message(live.id)  # Bob plays in French now
            await harness.click(bob, message, choose(message))
        await play_turn(harness, live.id)
        [bobs] = mentions(harness, bob.id)
        assert "c'est ton tour" in bobs.content
