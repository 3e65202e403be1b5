"""Shared steps for the cog tests: open a game, add computer players, play a turn or a
whole game by buttons."""

from __future__ import annotations

from tests.discord_harness import BotHarness, FakeUser, StoredMessage

FACES_BEST_FIRST = ("🪱", "5️⃣", "4️⃣", "3️⃣", "2️⃣", "1️⃣")
DECENT_TILE = 25  # stop for a tile of two worms or more while rolling is still possible


async def start_game(
    harness: BotHarness, players: list[FakeUser], **options: object
) -> StoredMessage:
    """Open a lobby as players[0], let the others join, start; return the live message."""
    options.setdefault("turn_timer", 0)
    started = await harness.slash(players[0], "pickomino", "start", **options)
    live = started.message
    for player in players[1:]:
        await harness.click(player, harness.message(live.id), "Join")
    result = await harness.click(players[0], harness.message(live.id), "Start")
    assert result.edited, result.ephemeral
    return harness.message(live.id)


async def open_lobby(harness: BotHarness, host: FakeUser, **options: object) -> StoredMessage:
    """/pickomino start as `host` (turn timer off unless given); return the lobby message."""
    options.setdefault("turn_timer", 0)
    return (await harness.slash(host, "pickomino", "start", **options)).message


async def add_bots(
    harness: BotHarness, host: FakeUser, lobby: StoredMessage, *levels: str
) -> StoredMessage:
    """Add bot, then pick each level in turn on the host's ephemeral message."""
    offered = await harness.click(host, harness.message(lobby.id), "Add bot")
    picker = offered.message
    assert picker.ephemeral and picker.labels() == ["Easy", "Normal", "Hard"]
    for level in levels:
        picked = await harness.click(host, harness.message(picker.id), level)
        assert picked.edited, picked.ephemeral
        assert "sits at the table" in picked.message.text()
    return harness.message(lobby.id)


def choose(message: StoredMessage) -> str:
    """A simple, legal choice from the enabled buttons: keep the best face, stop when
    the kept dice allow a claim and the total is decent, else roll."""
    enabled = message.enabled()
    faces = {(b.get("emoji") or {}).get("name"): b for b in enabled if ":keep:" in b["custom_id"]}
    for face in FACES_BEST_FIRST:
        if face in faces:
            return faces[face]["custom_id"]
    claims = [b for b in enabled if ":claim:" in b["custom_id"]]
    roll = [b for b in enabled if b["custom_id"].endswith(":roll")]
    if claims and (not roll or _claimed_tile(claims[0]["custom_id"]) >= DECENT_TILE):
        return claims[0]["custom_id"]
    return roll[0]["custom_id"]


def _claimed_tile(custom_id: str) -> int:
    """The tile a claim button takes: `...:claim:g27` or `...:claim:s27.<victim>`."""
    move = custom_id.split(":claim:", 1)[1]
    return int(move[1:].split(".")[0])


async def play_to_the_end(harness: BotHarness, live_id: int, limit: int = 2000) -> StoredMessage:
    """Click the current player's choices until the game is over; return the final message."""
    for _ in range(limit):
        message = harness.message(live_id)
        if any(":again:" in b["custom_id"] for b in message.buttons):
            return message
        player = await harness.current_user()
        result = await harness.click(player, message, choose(message))
        assert result.edited, result.ephemeral
    raise AssertionError("the game did not end")
