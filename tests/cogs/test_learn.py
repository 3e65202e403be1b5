"""/pickomino learn and /picker learn through the real handlers: a whole practice game
in English and German with the coaching line at each scripted step (a keep, a claim, a
bust and a steal; a keep, a roll done again, the bonus, the Picker), recorded as
practice and absent from the leaderboard, ending with Start a real game."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.games.registry import GAMES
from bot.i18n import t, with_locale
from tests.discord_harness import BotHarness, FakeUser, StoredMessage
from tests.fixtures.games.hilo.plugin import HILO

LOCALES = {"en-US": "en", "de": "de"}


def _line(language: str, key: str, **params: Any) -> str:
    with with_locale(language):
        return t(key, **params)


class Shown:
    """Every text the live message showed (each edit), for the computer's turns."""

    def __init__(self, harness: BotHarness) -> None:
        self.texts: list[str] = []
        fake = harness.fake
        edit = fake._edit

        def recording(message_id: int, data: dict[str, Any]) -> StoredMessage:
            message = edit(message_id, data)
            self.texts.append(message.text())
            return message

        fake._edit = recording  # type: ignore[method-assign]

    def any_with(self, line: str) -> bool:
        return any(line in text for text in self.texts)


def _move(message: StoredMessage, *parts: str) -> str | None:
    """The first enabled move button whose custom_id holds one of `parts`, in order."""
    ids = [button["custom_id"] for button in message.enabled()]
    for part in parts:
        for custom_id in ids:
            if part in custom_id:
                return custom_id
    return None


async def _press(harness: BotHarness, user: FakeUser, live_id: int, part: str) -> None:
    """Press the live message's move whose custom_id holds `part`; it must be accepted."""
    message = harness.message(live_id)
    move = _move(message, part)
    assert move is not None, (part, message.text(), message.labels())
    answer = await harness.click(user, message, move)
    assert answer.edited, answer.ephemeral


async def _practice_is_ranked_nowhere(harness: BotHarness, user: FakeUser, game: str) -> None:
    rows = await harness.bot.db.fetchall("SELECT game FROM history_games")
    assert [row[0] for row in rows] == [f"{game}:practice"]
    assert await harness.bot.db.fetchall("SELECT * FROM history_totals") == []
    board = await harness.slash(user, game, "score", "leaderboard")
    with with_locale(LOCALES[user.locale]):
        empty = t("score.leaderboard.empty.all", command=f"/{game}")
    assert board.ephemeral == empty or empty in (board.message.text() if board.messages else "")


async def _real_game(harness: BotHarness, learner: FakeUser, final: StoredMessage, language: str):
    label = _line(language, "learn.button.real_game")
    review = _line(language, "review.button")
    assert [shown for shown in final.labels() if shown != review] == [label]
    before = final.snapshot()
    stranger = harness.user("Eve")
    refused = await harness.click(stranger, final, label)
    assert refused.ephemeral == _line("en", "error.not_in_game")
    opened = await harness.click(learner, final, label)
    lobby = opened.message
    assert _line(language, "lobby.button.join") in lobby.labels()
    session = await harness.session()
    assert session is not None and not session.practice
    assert [seat.user_id for seat in session.seats] == [learner.id]
    assert harness.message(final.id).labels() == []  # the button is gone
    stale = await harness.click(learner, before, label)
    assert stale.ephemeral is not None  # the clear refusal of an old button


async def _learn(
    harness: BotHarness, locale: str, game: str
) -> tuple[Shown, FakeUser, StoredMessage]:
    """Anne, her client in `locale`, types /<game> learn: what the live message shows
    from now on, Anne, and the live message."""
    shown = Shown(harness)
    anne = harness.user("Anne", locale=locale)
    live = (await harness.slash(anne, game, "learn")).message
    return shown, anne, live


def _summarised(final: StoredMessage, language: str, game: str) -> None:
    """The end of a practice game: won, shared or lost, and the summary that the learner
    did all the tutorial shows."""
    line = partial(_line, language)
    summaries = [line(f"{game}.learn.summary.{end}") for end in ("won", "shared", "lost")]
    assert any(summary in final.text() for summary in summaries), final.text()
    assert line(f"{game}.learn.summary.all") in final.text()


async def _after_practice(
    harness: BotHarness, learner: FakeUser, final: StoredMessage, game: str
) -> None:
    await _practice_is_ranked_nowhere(harness, learner, game)
    await _real_game(harness, learner, final, LOCALES[learner.locale])


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_whole_pickomino_practice_game_coaches_each_step(tmp_path: Path, locale: str):
    language = LOCALES[locale]
    line = partial(_line, language)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        shown, anne, live = await _learn(harness, locale, "pickomino")
        session = await harness.session()
        assert session.practice and session.language == language
        computer = next(seat for seat in session.seats if seat.is_bot)
        assert computer.bot_level == "normal"
        bot_name = f"🤖 {computer.name}"
        assert line("pickomino.learn.start", low=21, high=28) in live.text()

        # Turn 1: a keep, then a claim.
        await _press(harness, anne, live.id, ":roll")
        assert line("pickomino.learn.keep.first") in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":keep:w")
        assert line("pickomino.learn.need_more", total=15) in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":roll")
        assert "🎓" in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":keep:5")
        stop = line("pickomino.learn.stop", total=25, tile=25)
        assert stop in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":claim:g25")
        await harness.run_bots()
        assert shown.any_with(line("pickomino.learn.took", tile=25))

        # Turn 3: a bust (no worm in the first roll, then only the face kept).
        assert (
            line("pickomino.learn.steal_aim", name=bot_name, tile=28)
            in harness.message(live.id).text()
        )
        await _press(harness, anne, live.id, ":roll")
        await _press(harness, anne, live.id, ":keep:3")
        assert line("pickomino.learn.need_worm") in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":roll")
        await harness.run_bots()
        # The rule and the cost (the 💥 headline tells the roll and the tiles).
        rule = line("pickomino.learn.bust.no_new_face")
        assert shown.any_with(f"{rule} {line('pickomino.learn.bust.cost.both')}")

        # Turn 5: the computer holds 24 on top; exactly 24 steals it.
        assert (
            line("pickomino.learn.steal_aim", name=bot_name, tile=24)
            in harness.message(live.id).text()
        )
        await _press(harness, anne, live.id, ":roll")
        await _press(harness, anne, live.id, ":keep:w")
        await _press(harness, anne, live.id, ":roll")
        await _press(harness, anne, live.id, ":keep:1")
        assert (
            line("pickomino.learn.claim.steal", name=bot_name, tile=24)
            in harness.message(live.id).text()
        )
        await _press(harness, anne, live.id, ":claim:s24")
        await harness.run_bots()
        assert shown.any_with(line("pickomino.learn.stole", tile=24))

        # Then random dice to the end, coached all along.
        for _ in range(400):
            if await harness.session() is None:
                break
            message = harness.message(live.id)
            assert "🎓" in message.text()
            move = _move(message, ":claim:s", ":claim:g", ":keep:w", ":keep:5", ":keep:4")
            move = move or _move(message, ":keep:", ":roll")
            assert move is not None, message.text()
            answer = await harness.click(anne, message, move)
            assert answer.edited, answer.ephemeral
            await harness.run_bots()
        final = harness.message(live.id)
        # Anne kept, took, stole and busted: all of it, and nothing she did not do.
        _summarised(final, language, "pickomino")
        assert line("pickomino.learn.summary.no_steal") not in final.text()
        # The review opens by itself: to Anne alone, in her language, her costliest
        # decision explained first; and Review beside Start a real game shows it again.
        await harness.bot.platform.reviews.close()
        title = line("review.title", game_id=session.id)
        reviewed = [
            message
            for result in harness.fake._results.values()
            for message in result.messages
            if message.ephemeral and title in message.text()
        ]
        assert len(reviewed) == 1
        assert reviewed[0].text().startswith("🎓")
        assert line("review.button") in final.labels()
        again = await harness.click(anne, final, line("review.button"))
        assert title in again.message.text() and again.message.ephemeral
        await _after_practice(harness, anne, final, "pickomino")


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_whole_picker_practice_game_coaches_each_step(tmp_path: Path, locale: str):
    language = LOCALES[locale]
    line = partial(_line, language)
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        shown, anne, live = await _learn(harness, locale, "picker")
        session = await harness.session()
        assert session.practice and len(session.bot_seats) == 2
        # Round 1: red 2, orange 6, yellow 4; keeping the 2 makes Anne the Picker.
        assert line("picker.learn.keep", value="**2**") in live.text()
        await _press(harness, anne, live.id, ":pick:red")
        await harness.run_bots()
        assert shown.any_with(line("picker.learn.you_picker", value="**2**"))
        # Round 2: every die showed 4, rolled again; Anne keeps first.
        assert line("picker.learn.reroll", value="**4**") in harness.message(live.id).text()
        await _press(harness, anne, live.id, ":pick:orange")
        await harness.run_bots()
        for _ in range(20):
            if await harness.session() is None:
                break
            message = harness.message(live.id)
            assert "🎓" in message.text()
            await harness.click(anne, message, _move(message, ":pick:") or "")
            await harness.run_bots()
        assert shown.any_with(line("picker.learn.bonus", colour="🟠")) or shown.any_with(
            line("picker.learn.bonus", colour="🔴")
        )
        final = harness.message(live.id)
        _summarised(final, language, "picker")  # all: the Picker in round 1
        await _after_practice(harness, anne, final, "picker")


async def test_a_practice_game_is_refused_where_a_game_is_live(tmp_path: Path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob = harness.user("Anne"), harness.user("Bob")
        await harness.slash(anne, "pickomino", "start", turn_timer=0)
        refused = await harness.slash(bob, "picker", "learn")
        assert "already a Pickomino" in (refused.ephemeral or "")
        assert not (await harness.session()).practice


async def test_learn_is_offered_by_the_games_with_a_tutorial_only(tmp_path: Path):
    """What Discord (and make play's suggestions, read from the registered commands) lists:
    /pickomino learn and /picker learn, with their translations; a game without a
    tutorial (the test-only hilo) has no learn command."""
    async with BotHarness.running(tmp_path / "bot.db", games=GAMES.with_game(HILO)) as harness:
        groups = {group["name"]: group for group in harness.fake.commands["global"]}
        for name in ("pickomino", "picker"):
            learn = {o["name"]: o for o in groups[name]["options"]}["learn"]
            assert learn["name_localizations"]["de"] == "lernen"
            assert learn["description"] == _line("en", "command.learn")
        assert "learn" not in {o["name"] for o in groups["hilo"]["options"]}
