"""/picker through the real handlers: a whole game with buttons, refusals, one game per
channel across both games, and a seat a person left played on by the computer."""

from __future__ import annotations

from tests.discord_harness import BotHarness, FakeUser, StoredMessage


async def _start(harness: BotHarness, people: list[FakeUser], **options: object) -> StoredMessage:
    options.setdefault("turn_timer", 0)
    live = (await harness.slash(people[0], "picker", "start", **options)).message
    assert "Picker lobby" in live.text()
    for person in people[1:]:
        await harness.click(person, harness.message(live.id), "Join")
    started = await harness.click(people[0], harness.message(live.id), "Start")
    assert started.edited, started.ephemeral
    return harness.message(live.id)


def _dice(message: StoredMessage) -> list[dict]:
    return [b for b in message.enabled() if ":pick:" in b["custom_id"]]


async def test_a_whole_game_of_picker_by_buttons(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        people = [harness.user(name) for name in ("Anne", "Bob", "Cara")]
        live = await _start(harness, people, first_player="host")
        assert "round 1 of 6" in live.text() and "Anne's pick" in live.text()
        for _ in range(3 * 6):
            message = harness.message(live.id)
            dice = _dice(message)
            assert dice, message.text()
            best = max(dice, key=lambda button: int(button["label"]))
            player = await harness.current_user()
            result = await harness.click(player, message, best["custom_id"])
            assert result.edited, result.ephemeral
        final = harness.message(live.id)
        assert "game over" in final.text() and "Play again" in final.labels()
        assert await harness.session() is None


async def test_only_the_player_to_pick_may_pick(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cara, eve = (harness.user(name) for name in ("Anne", "Bob", "Cara", "Eve"))
        live = await _start(harness, [anne, bob, cara], first_player="host")
        version = (await harness.session()).version
        die = _dice(harness.message(live.id))[0]["custom_id"]
        assert (await harness.click(bob, harness.message(live.id), die)).ephemeral == (
            "It's Anne's turn."
        )
        assert (await harness.click(eve, harness.message(live.id), die)).ephemeral == (
            "You're not in this game."
        )
        assert (await harness.session()).version == version


async def test_one_game_per_channel_across_both_games(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")
        await harness.slash(anne, "pickomino", "start", turn_timer=0)
        refused = await harness.slash(anne, "picker", "start", turn_timer=0)
        assert "already a Pickomino game" in (refused.ephemeral or "")
        assert "https://discord.com/channels/" in (refused.ephemeral or "")


async def test_a_person_who_leaves_is_played_on_by_the_computer(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cara = (harness.user(name) for name in ("Anne", "Bob", "Cara"))
        live = await _start(harness, [anne, bob, cara], first_player="host")
        left = await harness.slash(bob, "picker", "leave")
        assert left.ephemeral == "You left the game."
        session = await harness.session()
        assert session is not None and session.seat_by_player(str(bob.id)).left
        for _ in range(3 * 6):
            session = await harness.session()
            if session is None:
                break
            player = await harness.current_user()
            if player.id == bob.id:
                await harness.run_bots()
                continue
            message = harness.message(live.id)
            result = await harness.click(player, message, _dice(message)[0]["custom_id"])
            assert result.edited, result.ephemeral
        await harness.run_bots()
        assert await harness.session() is None
        assert "left" in harness.message(live.id).text()
        # The score pages count Bob's game as left, not as a game he played and lost.
        history = await harness.slash(anne, "picker", "score", "history")
        assert history.message.embed["description"].endswith("~~Bob~~ (left)")
        card = await harness.slash(bob, "picker", "score", "player")
        assert card.ephemeral == (
            "Bob has no finished games in this server yet (1 abandoned or left)."
        )
        board = await harness.slash(anne, "picker", "score", "leaderboard", ranking="games")
        shown = board.message.embed["description"]
        assert shown == "`1.` **Anne** · 1 game *(tied)*\n`1.` **Cara** · 1 game *(tied)*"


async def test_picker_history_is_kept_apart_from_pickomino(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cara = (harness.user(name) for name in ("Anne", "Bob", "Cara"))
        live = await _start(harness, [anne, bob, cara], first_player="host")
        while await harness.session() is not None:
            message = harness.message(live.id)
            player = await harness.current_user()
            await harness.click(player, message, _dice(message)[0]["custom_id"])
        picker_history = await harness.slash(anne, "picker", "score", "history")
        assert picker_history.message.embeds, picker_history.ephemeral
        history_text = picker_history.message.text()
        assert "Anne" in history_text and "pts" in history_text
        story = await harness.slash(anne, "picker", "score", "game", id=1)
        story_text = story.message.text()
        assert "becomes the Picker" in story_text and story_text.count("`") >= 2 * 6
        card = await harness.slash(anne, "picker", "score", "player")
        assert "Colour bonus points" in card.message.text()
        pickomino_history = await harness.slash(anne, "pickomino", "score", "history")
        assert "Anne" not in (
            pickomino_history.message.text() if pickomino_history.messages else ""
        )
