"""/pickomino score (bot.history.ui for Pickomino) through the real bot and discord.py,
Discord faked (tests/discord_harness).

The results are games played through the engine and saved with the SQLite result store,
under the harness's server and members; one test plays a whole game by buttons first.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from bot.games.pickomino.history import STEALS
from bot.games.registry import GAMES
from bot.history.models import Cursor
from bot.history.record import GameResult, SeatInfo
from bot.history.sql import SqlResultStore
from bot.score.pager import Direction, PagerIds, PageTurn
from tests.cogs.helpers import play_to_the_end, start_game
from tests.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    BotHarness,
    FakeUser,
    InteractionResult,
)
from tests.history.games import play, result_of
from tests.history.race import race

# The games served by default: Pickomino keeps its pager prefix from before the kind.
IDS = PagerIds(GAMES.pager_prefixes())

EMBED_TOTAL = 6000
HOUR = 3600


# ---------------------------------------------------------------------- helpers


def seat(user: FakeUser) -> SeatInfo:
    return SeatInfo(user.id, user.name, False)


async def save(harness: BotHarness, results: list[GameResult]) -> None:
    store = SqlResultStore()
    async with harness.bot.db.transaction() as connection:
        for result in results:
            await store.save(connection, result)


def games(
    people: list[FakeUser],
    count: int,
    *,
    seed: int = 1,
    first_id: int = 1,
    robot: SeatInfo | None = None,
) -> list[GameResult]:
    """`count` engine-played games among `people`, one an hour up to now, newest last."""
    rng = random.Random(seed)
    now = int(time.time())
    seats = [seat(user) for user in people] + ([robot] if robot else [])
    return [
        result_of(
            play(rng, seats),
            seats,
            game_id=first_id + index,
            ended_at=now - (count - index) * HOUR,
            guild_id=GUILD_ID,
        )
        for index in range(count)
    ]


async def command(
    harness: BotHarness, user: FakeUser, name: str, **options: Any
) -> InteractionResult:
    return await harness.slash(user, "pickomino", "score", name, **options)


async def command_for(
    harness: BotHarness, user: FakeUser, name: str, target: FakeUser, *, member: bool = True
) -> InteractionResult:
    """/pickomino score <name> player:<target>, as Discord resolves a user option;
    `member=False` for someone who has left the server (a user, no member data)."""
    payload = harness._base_payload(user, 2, CHANNEL_ID, False)
    resolved: dict[str, Any] = {"users": {str(target.id): target.user_payload()}}
    if member:
        data = target.member_payload()
        data.pop("user")
        resolved["members"] = {str(target.id): data}
    payload["data"] = {
        "id": str(harness.fake.next_id()),
        "name": "pickomino",
        "type": 1,
        "options": [
            {
                "name": "score",
                "type": 2,
                "options": [
                    {
                        "name": name,
                        "type": 1,
                        "options": [{"name": "player", "type": 6, "value": str(target.id)}],
                    }
                ],
            }
        ],
        "resolved": resolved,
    }
    return await harness.dispatch(payload)


def check_embed_limits(embed: dict[str, Any]) -> None:
    """Discord refuses embeds over these limits."""
    title = embed.get("title", "")
    description = embed.get("description", "")
    footer = (embed.get("footer") or {}).get("text", "")
    fields = embed.get("fields", [])
    assert len(title) <= 256 and len(description) <= 4096 and len(footer) <= 2048
    assert len(fields) <= 25
    for field in fields:
        assert 0 < len(field["name"]) <= 256 and 0 < len(field["value"]) <= 1024
    total = len(title) + len(description) + len(footer)
    total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    assert total <= EMBED_TOTAL


def history_ids(result: InteractionResult | Any) -> list[int]:
    message = result.message if isinstance(result, InteractionResult) else result
    check_embed_limits(message.embed)
    return [int(n) for n in re.findall(r"`#(\d+)`", message.embed["description"])]


def enabled(message: Any) -> list[str]:
    return [button["label"] for button in message.enabled()]


@pytest.fixture
async def harness(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as running:
        yield running


# ---------------------------------------------------------------------- registration


async def test_the_group_is_synced_as_pickomino_score(harness):
    (pickomino,) = [c for c in harness.fake.commands["global"] if c["name"] == "pickomino"]
    (score,) = [o for o in pickomino["options"] if o["name"] == "score"]
    assert score["type"] == 2  # a sub-command group
    subcommands = {o["name"]: o for o in score["options"]}
    assert set(subcommands) == {"history", "leaderboard", "player", "game"}
    ranking = {o["name"]: o for o in subcommands["leaderboard"]["options"]}["ranking"]
    assert [c["value"] for c in ranking["choices"]] == [
        "wins",
        "win_rate",
        "average_worms",
        "games",
        "rating",
    ]
    game_id, review = subcommands["game"]["options"]
    assert game_id["name"] == "id" and game_id["type"] == 4 and game_id["autocomplete"]
    assert review["name"] == "review" and review["type"] == 5 and not review.get("required")


# ---------------------------------------------------------------------- history


async def test_history_empty_states_point_to_start(harness):
    anne = harness.user("Anne")
    answer = await command(harness, anne, "history")
    assert answer.ephemeral and "start one with /pickomino start" in answer.ephemeral
    answer = await command_for(harness, anne, "history", harness.user("Bob"))
    assert "Bob has no games" in answer.ephemeral


async def test_history_pages_through_every_game_with_previous_and_next(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 25))

    first = await command(harness, anne, "history")
    assert not first.message.ephemeral
    assert history_ids(first) == list(range(25, 15, -1))
    assert enabled(first.message) == ["Next"]
    assert "Page 1 of 3" in first.message.embed["footer"]["text"]
    assert "<t:" in first.message.embed["description"]

    second = await harness.click(anne, harness.message(first.message.id), "Next")
    assert second.edited and history_ids(second) == list(range(15, 5, -1))
    assert enabled(second.message) == ["Previous", "Next"]
    last = await harness.click(anne, second.message, "Next")
    assert history_ids(last) == [5, 4, 3, 2, 1]
    assert enabled(last.message) == ["Previous"]
    assert "Page 3 of 3" in last.message.embed["footer"]["text"]

    back = await harness.click(anne, last.message, "Previous")
    assert history_ids(back) == list(range(15, 5, -1))
    assert "Page 2 of 3" in back.message.embed["footer"]["text"]


@pytest.mark.parametrize(("count", "pages"), [(1, 1), (10, 1), (11, 2), (20, 2)])
async def test_history_paging_edges(harness, count, pages):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], count))
    answer = await command(harness, anne, "history")
    seen = history_ids(answer)
    message = answer.message
    while "Next" in enabled(message):
        message = (await harness.click(anne, message, "Next")).message
        seen += history_ids(message)
    assert seen == list(range(count, 0, -1))
    assert f"of {pages} " in message.embed["footer"]["text"]
    assert "Next" not in enabled(message)
    assert ("Previous" in enabled(message)) == (pages > 1)


async def test_the_pager_refuses_someone_elses_clicks(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 12))
    shown = await command(harness, anne, "history")

    refused = await harness.click(bob, harness.message(shown.message.id), "Next")
    assert refused.ephemeral == "Only the person who asked can turn these pages. " + (
        "Run /pickomino score history for your own."
    )
    assert not refused.edited
    assert history_ids(harness.message(shown.message.id)) == list(range(12, 2, -1))


async def test_the_pager_keeps_paging_after_a_restart(tmp_path):
    database = tmp_path / "bot.db"
    async with BotHarness.running(database) as first:
        anne, bob, cleo = first.user("Anne"), first.user("Bob"), first.user("Cleo")
        await save(first, games([anne, bob], 25) + games([bob, cleo], 3, first_id=26))
        server = (await command(first, anne, "history")).message
        server = (await first.click(anne, first.message(server.id), "Next")).message
        annes = (await command_for(first, bob, "history", anne)).message
        fake = first.fake

    # Nothing of the first bot is left: the clicks are served from their custom_ids.
    async with BotHarness.running(database, fake=fake) as second:
        last = await second.click(anne, second.message(server.id), "Next")
        assert last.edited and history_ids(last) == [8, 7, 6, 5, 4, 3, 2, 1]
        assert enabled(last.message) == ["Previous"]
        assert "Page 3 of 3" in last.message.embed["footer"]["text"]
        back = await second.click(anne, second.message(server.id), "Previous")
        assert history_ids(back) == list(range(18, 8, -1))
        assert "Page 2 of 3" in back.message.embed["footer"]["text"]
        refused = await second.click(bob, second.message(server.id), "Next")
        assert refused.ephemeral and refused.ephemeral.startswith("Only the person who asked")
        assert not refused.edited

        older = await second.click(bob, second.message(annes.id), "Next")
        assert older.message.embed["title"] == "Latest games of Anne"
        assert history_ids(older) == list(range(15, 5, -1))  # Anne's games only
        assert "Page 2 of 3" in older.message.embed["footer"]["text"]


async def test_every_game_shares_one_pager_and_one_session_component_class(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 12))
    shown = await command(harness, anne, "history")

    registered = harness.bot._connection._view_store._dynamic_items.values()
    names = sorted(item.__name__ for item in registered)
    assert names == ["ServedComponent", "ServedPageButton"]
    hooks = harness.bot.sessions.game_over_hooks
    assert sorted(hooks) == ["picker", "pickomino"]  # one history hook a game, once
    paged = await harness.click(anne, harness.message(shown.message.id), "Next")
    assert paged.kinds == [7]  # answered once, by editing the message
    assert history_ids(paged) == [2, 1]


def test_pager_custom_ids_fit_discords_limit_with_the_largest_ids():
    largest = 2**64 - 1  # a snowflake is a 64-bit number; SQLite's integers are 63-bit
    for direction in Direction:
        turn = PageTurn(
            largest, largest, direction, 10**9, Cursor(2**63 - 1, 2**63 - 1), "pickomino"
        )
        custom_id = IDS.encode(turn)
        assert len(custom_id) <= 100
        match = re.fullmatch(IDS.template, custom_id)
        assert match is not None and IDS.from_match(match) == turn
    server = PageTurn(1, None, Direction.NEXT, 2, Cursor(1_767_225_600, 42), "pickomino")
    assert IDS.encode(server) == "pks:h:1:0:n:2:t85s00.16"
    assert IDS.from_match(re.fullmatch(IDS.template, IDS.encode(server))) == server


async def test_history_marks_winners_abandoned_and_computer_games(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    robot = SeatInfo(42, "Robot", True)
    results = games([anne, bob], 2, robot=robot)
    lobby = result_of(
        None,
        [seat(anne), seat(bob)],
        game_id=3,
        ended_at=int(time.time()),
        guild_id=GUILD_ID,
        abandoned=True,
    )
    await save(harness, [*results, lobby])

    text = (await command(harness, anne, "history")).message.embed["description"]
    first, second, _ = text.splitlines()
    assert first.startswith("`#3`") and "*abandoned*" in first and "🏆" not in first
    assert "🤖 Robot" in second and "🏆" in second


async def test_one_players_history_and_a_player_who_left_the_server(harness):
    anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
    await save(harness, games([anne, bob], 3) + games([anne, cleo], 2, first_id=4, seed=2))
    del harness.fake.members[cleo.id]  # Cleo leaves the server

    answer = await command_for(harness, anne, "history", cleo, member=False)
    assert answer.message.embed["title"] == "Latest games of Cleo"
    assert history_ids(answer) == [5, 4]
    assert all("Cleo" in line for line in answer.message.embed["description"].splitlines())
    answer = await command_for(harness, anne, "history", bob)
    assert history_ids(answer) == [3, 2, 1]


# ---------------------------------------------------------------------- leaderboard


async def test_each_ranking_and_period(harness):
    people = [harness.user(name) for name in ("Anne", "Bob", "Cleo")]
    old = games(people, 6, seed=3)
    for result in old:  # played 40 days ago: all time only
        result.ended_at -= 40 * 24 * HOUR
    await save(harness, old + games(people, 6, seed=4, first_id=7))

    for ranking, value in [
        ("wins", " wins in "),
        ("win_rate", "%"),
        ("average_worms", " worms a game"),
        ("games", " games"),
    ]:
        counts = {}
        for period in ("all", "30d", "7d"):
            answer = await command(
                harness, people[0], "leaderboard", ranking=ranking, period=period
            )
            embed = answer.message.embed
            check_embed_limits(embed)
            lines = embed["description"].splitlines()
            assert len(lines) == 3 and all(value in line for line in lines)
            assert lines[0].startswith("`1.`")
            counts[period] = sum(int(n) for n in re.findall(r"(\d+) games", embed["description"]))
        if ranking == "games":
            assert counts == {"all": 36, "30d": 18, "7d": 18}


async def test_win_rate_ranks_only_players_with_five_games(harness):
    anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
    await save(harness, games([anne, bob], 5) + games([cleo, anne], 4, first_id=6))

    answer = await command(harness, cleo, "leaderboard", ranking="win_rate")
    description = answer.message.embed["description"]
    assert "Cleo" not in description.split("\n\n")[0]
    assert "at least 5 games (4 so far)" in description
    answer = await command(harness, cleo, "leaderboard", ranking="games")
    assert "Cleo" in answer.message.embed["description"]


async def test_the_askers_rank_shows_below_the_top_ten(harness):
    people = [harness.user(f"Player {index}") for index in range(12)]
    results: list[GameResult] = []
    for index in range(0, 12, 2):
        pair = people[index : index + 2]
        results += games(pair, index + 1, seed=index, first_id=len(results) + 1)
    await save(harness, results)

    answer = await command(harness, people[0], "leaderboard", ranking="games")
    top, mine = answer.message.embed["description"].split("\n\n")
    assert len(top.splitlines()) == 10 and "Player 0" not in top
    assert mine.startswith("You: `11.` **Player 0**") and "(of 12 ranked)" in mine
    answer = await command(harness, people[11], "leaderboard", ranking="games")
    assert "\n\n" not in answer.message.embed["description"]  # in the top: no extra line


async def test_computer_players_are_never_ranked(harness):
    anne = harness.user("Anne")
    played = games([anne], 3, robot=SeatInfo(42, "Robot", True))
    await save(harness, played)
    for ranking in ("games", "average_worms"):
        answer = await command(harness, anne, "leaderboard", ranking=ranking)
        assert "Robot" not in answer.message.embed["description"]
        assert "Anne" in answer.message.embed["description"]
    answer = await command(harness, anne, "leaderboard", ranking="wins")
    if any(p.won for r in played for p in r.players if not p.is_bot):
        assert "Robot" not in answer.message.embed["description"]
    else:  # nobody is ranked first with no wins, and the robot is never ranked
        assert "Nobody has won a game" in answer.ephemeral


async def test_leaderboard_empty_states(harness):
    anne = harness.user("Anne")
    answer = await command(harness, anne, "leaderboard")
    assert "No games finished in this server yet" in answer.ephemeral
    answer = await command(harness, anne, "leaderboard", ranking="win_rate")
    assert "Nobody has 5 games finished" in answer.ephemeral


# ---------------------------------------------------------------------- player


async def test_player_card(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    results = games([anne, bob], 8)
    await save(harness, results)

    answer = await command(harness, anne, "player")
    embed = answer.message.embed
    check_embed_limits(embed)
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    wins = sum(p.won for r in results for p in r.players if p.user_id == anne.id)
    steals = sum(p.details[STEALS] for r in results for p in r.players if p.user_id == anne.id)
    assert fields["Games"] == "8" and fields["Wins"] == str(wins)
    assert fields["Win rate"] == f"{wins / 8:.0%}"
    assert fields["Steals made"] == str(steals)
    assert re.fullmatch(r"\d\d \(taken \d+×\)", fields["Favourite tile"])
    assert re.fullmatch(r"\d+ now, \d+ longest", fields["Winning streak"])
    assert embed["title"] == "Anne in this server"

    for_bob = await command_for(harness, anne, "player", bob)
    assert for_bob.message.embed["title"] == "Bob in this server"


async def test_rating_leaderboard_and_card(harness):
    anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
    robot = SeatInfo(-1, "Pip (Hard)", True)
    results = games([anne, bob], 8, robot=robot)
    for result in results:  # as the recorder sets it from the seat
        result.players[-1].bot_level = "hard"
    await save(harness, results + games([cleo, anne], 2, first_id=50, seed=3))

    answer = await command(harness, anne, "leaderboard", ranking="rating")
    embed = answer.message.embed
    check_embed_limits(embed)
    assert embed["title"] == "Skill rating · All time"
    lines = embed["description"].splitlines()
    assert {line.split("**")[1] for line in lines[:2]} == {"Anne", "Bob"}  # Cleo: 2 games
    assert re.fullmatch(r"`[12]\.` \*\*(Anne|Bob)\*\* · [\d,]+ · 1?\d games", lines[0])
    assert re.fullmatch(r"🤖 Computer players: Hard [\d,]+", lines[-1])
    assert "Ranked from 5 games" in embed["footer"]["text"]

    answer = await command(harness, cleo, "leaderboard", ranking="rating")
    assert "You are not ranked yet" in answer.message.embed["description"]
    answer = await command(harness, anne, "leaderboard", ranking="rating", period="30d")
    assert answer.message.embed["title"] == "Skill rating · Last 30 days"

    answer = await command(harness, anne, "player")
    (first, *_) = answer.message.embed["fields"]
    assert first["name"] == "Skill rating"
    assert re.fullmatch(r"\*\*[\d,]+\*\* · #[12] of 2\nLikely skill [\d,]+–[\d,]+", first["value"])
    answer = await command_for(harness, anne, "player", cleo)
    (first, *_) = answer.message.embed["fields"]
    assert "ranked from 5 games" in first["value"]


async def test_rating_leaderboard_empty(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 2))
    answer = await command(harness, anne, "leaderboard", ranking="rating")
    assert answer.ephemeral == (
        "Nobody in this server has 5 games rated yet, so there is no rating board."
    )


async def test_player_who_left_the_server_and_strangers(harness):
    anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
    await save(harness, games([anne, bob], 2))
    del harness.fake.members[bob.id]
    answer = await command_for(harness, anne, "player", bob, member=False)
    assert answer.message.embed["title"] == "Bob in this server"
    answer = await command_for(harness, anne, "player", cleo)
    assert answer.ephemeral == (
        "Cleo has not played in this server yet; start a game with /pickomino start."
    )


# ---------------------------------------------------------------------- one game


async def test_game_story_and_standings(harness):
    anne, bob, cleo = harness.user("Anne"), harness.user("Bob"), harness.user("Cleo")
    (result,) = games([anne, bob, cleo], 1, seed=7)
    await save(harness, [result])

    answer = await command(harness, anne, "game", id=1)
    embed = answer.message.embed
    check_embed_limits(embed)
    assert embed["title"] == "Game #1"
    who, *rounds = embed["description"].split("\n\n", 1)[1].splitlines()
    assert who == "🟧 Anne · 🟦 Bob · 🟩 Cleo"
    # One line per round, numbered; every turn of the story is one token in them.
    assert [line.split("`")[1] for line in rounds] == [f"{n}." for n in range(1, len(rounds) + 1)]
    tokens = [token for line in rounds for token in line.split("` ", 1)[1].split("  ")]
    assert len(tokens) == len(result.story) and len(rounds) <= len(result.story) / 2
    assert all(re.fullmatch(r"[🟧🟦🟩](\d\d|💥.*|⚔️\d\d[🟧🟦🟩]|🚪)", token) for token in tokens)
    stole = [token for token in tokens if "⚔️" in token]
    assert len(stole) == sum(p.details[STEALS] for p in result.players)
    assert embed["footer"]["text"].startswith("A number: tile taken")
    standings = embed["fields"][0]
    assert standings["name"] == "Final standings" and "🏆" in standings["value"]


async def test_an_unknown_or_foreign_game_is_refused_kindly(harness):
    anne = harness.user("Anne")
    (foreign,) = games([anne, harness.user("Bob")], 1)
    foreign.guild_id = GUILD_ID + 1
    await save(harness, [foreign])
    answer = await command(harness, anne, "game", id=1)
    assert answer.ephemeral.startswith("There is no game #1 in this server.")


async def test_a_long_game_of_seven_long_names_fits_discords_limits(harness):
    people = [harness.user(f"A very long display name num {index}") for index in range(7)]
    results = games(people, 11, seed=9)
    await save(harness, results)
    longest = max(results, key=lambda r: len(r.story))
    answer = await command(harness, people[0], "game", id=longest.game_id)
    check_embed_limits(answer.message.embed)
    history_ids(await command(harness, people[0], "history"))  # checks the limits too


async def test_game_id_autocomplete_offers_recent_games(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 12))
    payload = harness._base_payload(anne, 4, CHANNEL_ID, False)
    payload["data"] = {
        "id": str(harness.fake.next_id()),
        "name": "pickomino",
        "type": 1,
        "options": [
            {
                "name": "score",
                "type": 2,
                "options": [
                    {
                        "name": "game",
                        "type": 1,
                        "options": [{"name": "id", "type": 4, "value": "1", "focused": True}],
                    }
                ],
            }
        ],
    }
    answer = await harness.dispatch(payload)
    (callback,) = answer.callbacks
    assert callback["type"] == 8
    values = [choice["value"] for choice in callback["data"]["choices"]]
    assert values == [12, 11, 10, 1]
    assert callback["data"]["choices"][0]["name"] == "#12 · Anne, Bob"


# ---------------------------------------------------------------------- end to end


async def test_a_game_played_by_buttons_shows_in_history(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    live = await start_game(harness, [anne, bob])
    await play_to_the_end(harness, live.id)

    history = await command(harness, bob, "history")
    (line,) = history.message.embed["description"].splitlines()
    assert line.startswith("`#1`") and "Anne" in line and "Bob" in line and "🏆" in line
    story = await command(harness, bob, "game", id=1)
    assert "`1.` " in story.message.embed["description"]
    card = await command(harness, anne, "player")
    assert {f["name"]: f["value"] for f in card.message.embed["fields"]}["Games"] == "1"


# ---------------------------------------------------------------------- forged and foreign


def forged_click(
    harness: BotHarness, user: FakeUser, shown: InteractionResult, custom_id: str
) -> dict[str, Any]:
    """A click on Next of the shown history as if its custom_id were `custom_id` (Discord
    sends only ids of the clicked message's components, so the message carries it too)."""
    payload = harness.click_payload(user, harness.message(shown.message.id), "Next")
    original = payload["data"]["custom_id"]
    for row in payload["message"]["components"]:
        for component in row["components"]:
            if component.get("custom_id") == original:
                component["custom_id"] = custom_id
    payload["data"]["custom_id"] = custom_id
    return payload


@pytest.mark.parametrize(
    "custom_id",
    [
        "pks:h:{asker}:0:n:2:" + "z" * 13 + ".1",  # a cursor past SQLite's integers
        "pks:h:{asker}:0:n:9999999999:1." + "z" * 13,
        "pks:h:{asker}:99999999999999999999:n:2:1.1",  # no such user
        "hs:nosuchgame:{asker}:0:n:2:1.1",  # a game this bot does not serve
    ],
)
async def test_a_forged_pager_id_is_refused_as_out_of_date(harness, custom_id):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 12))
    shown = await command(harness, anne, "history")
    refused = await harness.dispatch(
        forged_click(harness, anne, shown, custom_id.format(asker=anne.id))
    )
    assert refused.ephemeral == "This button is out of date; ask for the history again."
    assert not refused.edited
    assert history_ids(harness.message(shown.message.id)) == list(range(12, 2, -1))


async def test_an_id_that_is_no_pager_id_is_not_served_as_one(harness):
    anne, bob = harness.user("Anne"), harness.user("Bob")
    await save(harness, games([anne, bob], 12))
    shown = await command(harness, anne, "history")
    ignored = await harness.dispatch(
        forged_click(harness, anne, shown, f"pks:h:{anne.id}:0:n:-2:1.1")
    )
    assert not ignored.edited and ignored.ephemeral is None
    assert history_ids(harness.message(shown.message.id)) == list(range(12, 2, -1))


async def test_another_games_results_never_show_in_pickominos_pages(harness):
    anne, bob, runner = harness.user("Anne"), harness.user("Bob"), harness.user("Runner")
    now = int(time.time())
    await save(harness, games([anne, bob], 3))
    await save(
        harness,
        [
            race(100 + index, GUILD_ID, now - index, {seat(runner): 50, seat(anne): 1})
            for index in range(6)
        ],
    )
    for ranking in ("wins", "games", "average_worms", "win_rate"):
        answer = await command(harness, runner, "leaderboard", ranking=ranking)
        text = answer.ephemeral or answer.message.embed["description"]
        assert "Runner" not in text.split("\n\n")[0]
    games_of_anne = await command(harness, anne, "leaderboard", ranking="games")
    assert "**Anne** · 3 games" in games_of_anne.message.embed["description"]
    assert history_ids(await command(harness, anne, "history")) == [3, 2, 1]
    answer = await command(harness, runner, "player")
    assert answer.ephemeral and "Runner has not played" in answer.ephemeral
    answer = await command(harness, anne, "game", id=100)
    assert answer.ephemeral and answer.ephemeral.startswith("There is no game #100")
