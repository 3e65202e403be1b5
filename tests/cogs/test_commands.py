"""The /pickomino commands: start, status, leave, end, rules, and command sync."""

from __future__ import annotations

from tests.cogs.helpers import choose, start_game
from tests.discord_harness import CHANNEL_ID, BotHarness

THREAD_ID = 700_000_000_000_000_777


async def test_one_game_per_channel_and_a_thread_is_a_channel_of_its_own(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        first = await harness.slash(anne, "pickomino", "start")
        second = await harness.slash(bob, "pickomino", "start")
        assert second.ephemeral is not None
        assert "already a Pickomino game" in second.ephemeral
        assert f"/{CHANNEL_ID}/{first.message.id}" in second.ephemeral

        in_thread = await harness.slash(
            bob, "pickomino", "start", channel_id=THREAD_ID, thread=True
        )
        assert not in_thread.message.ephemeral
        assert in_thread.message.channel_id == THREAD_ID


async def test_start_options_are_in_force(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = await harness.slash(
            anne,
            "pickomino",
            "start",
            lower_tile="any",
            flip_on_empty_failure=True,
            first_player="host",
            turn_timer=120,
        )
        text = lobby.message.text()
        assert "any tile on the grill" in text
        assert "highest grill tile is turned over" in text
        assert "First player: the host" in text
        assert "Turn timer: 2 min per turn" in text
        rules = await harness.slash(anne, "pickomino", "rules")
        assert rules.message.ephemeral
        assert "any tile on the grill" in rules.message.text()
        # No RULES_URL: no pointer to a file players cannot open, but where the rest is.
        assert "docs/RULES.md" not in rules.message.text()
        assert "type /pickomino start and Discord lists them" in rules.message.text()


async def test_rules_without_a_game_shows_the_defaults(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        rules = await harness.slash(harness.user("Anne"), "pickomino", "rules")
        assert "Turn timer: 5 min per turn" in rules.message.text()


async def test_leaving_mid_game_returns_the_tiles_and_two_players_end_abandoned(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
        live = await start_game(harness, [anne, bob, cleo], first_player="host")
        while not (await harness.session()).game.stacks[str(bob.id)]:
            message = harness.message(live.id)
            await harness.click(await harness.current_user(), message, choose(message))
        session = await harness.session()
        bobs_tiles = session.game.stacks[str(bob.id)]
        left = await harness.slash(bob, "pickomino", "leave")
        assert left.ephemeral == "You left the game."
        text = harness.message(live.id).text()
        assert "Bob left the game" in text
        assert "▫️ Bob ·" not in text and "▶️ Bob ·" not in text  # no player line of his
        after = await harness.session()
        assert after.version == session.version + 1
        assert set(bobs_tiles) <= set(after.game.grill)

        again = await harness.slash(cleo, "pickomino", "leave")
        assert again.ephemeral == "You left the game."
        final = harness.message(live.id)
        assert "abandoned" in final.text()
        assert await harness.session() is None
        nobody = await harness.slash(cleo, "pickomino", "leave")
        assert "no Pickomino game" in (nobody.ephemeral or "")


async def test_leaving_with_dice_on_the_table_still_lets_the_table_play_again(tmp_path):
    # The ended session is read back from the database for Play again, so the game
    # stored when the leave abandoned it must load (the roll cleared, a seat to move).
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        await harness.click(anne, harness.message(live.id), "Roll")
        assert (await harness.session()).game.roll is not None
        await harness.slash(bob, "pickomino", "leave")
        final = harness.message(live.id)
        assert "abandoned" in final.text()
        again = await harness.click(anne, final, "Play again")
        assert again.ephemeral is None
        assert "Pickomino lobby" in again.message.text()


async def test_leaving_the_lobby_passes_the_host_on(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = (await harness.slash(anne, "pickomino", "start")).message
        await harness.click(bob, harness.message(lobby.id), "Join")
        left = await harness.slash(anne, "pickomino", "leave")
        assert left.ephemeral == "You left the lobby."
        assert "1. Bob (host)" in harness.message(lobby.id).text()


async def test_end_needs_the_host_or_a_moderator_and_a_confirmation(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        mod = harness.user("Mod", manage_messages=True)
        live = await start_game(harness, [anne, bob])
        refused = await harness.slash(bob, "pickomino", "end")
        assert "Only the host (Anne)" in (refused.ephemeral or "")

        asked = await harness.slash(mod, "pickomino", "end")
        confirm = asked.message
        assert confirm.ephemeral and "End the Pickomino game" in confirm.text()
        assert await harness.session() is not None  # nothing happens before the confirm

        done = await harness.click(mod, confirm, "End the game")
        assert done.edited and done.message.text() == "The game was ended."
        final = harness.message(live.id)
        assert "abandoned" in final.text()
        assert [b.get("label") for b in final.buttons] == ["Play again"]
        assert await harness.session() is None


async def test_status_keeps_exactly_one_live_message(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await start_game(harness, [anne, bob])
        for _ in range(3):
            await harness.slash(bob, "pickomino", "status")
            assert len(harness.fake.live_messages()) == 1
        none = await harness.slash(bob, "pickomino", "status", channel_id=THREAD_ID, thread=True)
        assert "no Pickomino game" in (none.ephemeral or "")


async def test_commands_are_synced_once_until_the_tree_changes(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database) as first:
        assert first.bot.synced_commands
        groups = {group["name"]: group for group in first.fake.commands["global"]}
        assert sorted(groups) == ["picker", "pickomino"]
        for group in groups.values():
            names = {option["name"] for option in group["options"]}
            assert {"start", "status", "leave", "end", "rules"} <= names
        fake = first.fake
    async with BotHarness.running(database, fake=fake) as second:
        assert not second.bot.synced_commands
        assert await second.bot.sync_commands(force=True)


async def test_the_extrawurm_option_is_stored_and_explained(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        lobby = (await harness.slash(anne, "pickomino", "start", extrawurm=True)).message
        # The lobby says it in one line, and where each specialist is explained.
        assert "Extrawurm expansion" in lobby.text() and "/pickomino rules" in lobby.text()
        assert "Sitting Hen" not in lobby.text()
        assert (await harness.session()).options["extrawurm"] is True
        rules = (await harness.slash(anne, "pickomino", "rules")).message.text()
        for specialist in ("Canned Worm", "Sitting Hen", "Weasel", "Raven", "Golden Die"):
            assert specialist in rules


async def test_rules_explain_extrawurm_in_a_channel_without_it(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        rules = (await harness.slash(harness.user("Anne"), "pickomino", "rules")).message
        assert "/pickomino start extrawurm" in rules.text() and "Sitting Hen" in rules.text()
