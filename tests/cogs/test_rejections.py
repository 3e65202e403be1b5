"""Who may press what: wrong turn, spectators, stale buttons, double clicks."""

from __future__ import annotations

from bot.ui.double_taps import TWIN_SECONDS
from tests.cogs.helpers import start_game
from tests.discord_harness import BotHarness


async def _stored_version(harness: BotHarness) -> int:
    session = await harness.session()
    return session.version


async def test_wrong_turn_and_spectator_get_an_ephemeral_answer_and_nothing_changes(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, eve = harness.user("Anne"), harness.user("Bob"), harness.user("Eve")
        live = await start_game(harness, [anne, bob], first_player="host")
        version = await _stored_version(harness)
        before = harness.message(live.id).snapshot()

        wrong = await harness.click(bob, harness.message(live.id), "Roll")
        assert wrong.ephemeral == "It's Anne's turn."
        spectator = await harness.click(eve, harness.message(live.id), "Roll")
        assert spectator.ephemeral == "You're not in this game."

        assert await _stored_version(harness) == version
        assert harness.message(live.id).payload == before.payload


def _tap_clock(harness: BotHarness) -> list[float]:
    """The double-tap detector's clock, moved by hand: [now]."""
    now = [0.0]
    harness.bot.platform.clicks.double_taps.clock = lambda: now[0]
    return now


async def test_a_click_on_an_older_state_changes_nothing(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        now = _tap_clock(harness)
        old = harness.message(live.id).snapshot()
        await harness.click(anne, old, "Roll")
        version = await _stored_version(harness)

        now[0] += TWIN_SECONDS + 1  # long after: no double tap, a click on an old state
        stale = await harness.click(anne, old, "Roll")  # the Roll of the version before

        assert "moved on" in (stale.ephemeral or "")
        assert await _stored_version(harness) == version


async def test_a_double_click_applies_the_action_once(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        message = harness.message(live.id).snapshot()
        version = await _stored_version(harness)

        first, second = await harness.dispatch_together(
            harness.click_payload(anne, message, "Roll"),
            harness.click_payload(anne, message, "Roll"),
        )

        assert first.edited and not first.ephemeral
        # The second tap is acknowledged quietly (a deferred update): nothing to read.
        assert second.kinds == [6] and second.messages == []
        assert await _stored_version(harness) == version + 1
        events = await harness.bot.sessions.store.events(1)
        assert [event["type"] for event in events].count("rolled") == 1


async def test_a_double_tap_is_quiet_while_a_stale_click_of_another_person_is_explained(
    tmp_path,
):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        now = _tap_clock(harness)
        old = harness.message(live.id).snapshot()
        assert (await harness.click(anne, old, "Roll")).edited
        version = await _stored_version(harness)

        now[0] += 1.0  # her finger again, a second later, on the message she saw
        again = await harness.click(anne, old, "Roll")
        assert again.kinds == [6] and again.messages == []

        others = await harness.click(bob, old, "Roll")  # the same old button, not his tap
        assert "moved on" in (others.ephemeral or "")
        now[0] += TWIN_SECONDS + 1
        late = await harness.click(anne, old, "Roll")  # hers, but long after
        assert "moved on" in (late.ephemeral or "")
        assert await _stored_version(harness) == version


async def test_buttons_of_an_old_copy_and_of_an_ended_game_are_refused(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        live = await start_game(harness, [anne, bob], first_player="host")
        old_copy = harness.message(live.id).snapshot()

        status = await harness.slash(bob, "pickomino", "status")
        new_live = status.message
        assert new_live.id != live.id
        assert harness.message(live.id).buttons == []  # the older copy lost its buttons
        assert [m.id for m in harness.fake.live_messages()] == [new_live.id]

        refused = await harness.click(anne, old_copy, "Roll")
        assert "old copy" in (refused.ephemeral or "")
        accepted = await harness.click(anne, harness.message(new_live.id), "Roll")
        assert accepted.edited

        await harness.slash(anne, "pickomino", "end")
        confirm = harness.fake.channel_messages()[-1]
        assert confirm.ephemeral
        await harness.click(anne, confirm, "End the game")
        ended = await harness.click(anne, old_copy, "Roll")
        assert "over" in (ended.ephemeral or "")


async def test_lobby_buttons_check_host_and_players(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        lobby = (await harness.slash(anne, "pickomino", "start")).message
        alone = await harness.click(anne, harness.message(lobby.id), "Start")
        assert alone.ephemeral == "At least 2 players are needed to start."
        now = _tap_clock(harness)
        seen = harness.message(lobby.id).snapshot()
        await harness.click(bob, seen, "Join")
        twice = await harness.click(bob, seen, "Join")  # the same tap, arriving twice
        assert twice.kinds == [6] and twice.messages == []  # a double tap: quiet
        now[0] += TWIN_SECONDS + 1
        twice = await harness.click(bob, harness.message(lobby.id), "Join")
        assert twice.ephemeral == "You're already in this game."
        not_host = await harness.click(bob, harness.message(lobby.id), "Start")
        assert "Only the host (Anne)" in (not_host.ephemeral or "")
        cancel = await harness.click(bob, harness.message(lobby.id), "Cancel")
        assert "Only the host" in (cancel.ephemeral or "")
        moderator = harness.user("Mod", manage_messages=True)
        asked = await harness.click(moderator, harness.message(lobby.id), "Cancel")
        assert asked.ephemeral == "Close this Pickomino lobby for everyone?"  # not at once
        assert harness.message(lobby.id).buttons != []
        await harness.click(moderator, asked.message, "Close the lobby")
        closed = harness.message(lobby.id)
        assert closed.text().count("Mod closed this lobby.") == 1  # and says who closed it
        assert closed.buttons == []
        assert await harness.session() is None
