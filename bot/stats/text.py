"""The lines the score commands show, through t(); no discord import.

Names come through a `NameOf` the caller gives: it gets the user id and the name
stored at game time, and returns what to show (the cog prefers the member's current
display name, escaped for markdown).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.stats.models import (
    WIN_RATE_MIN_GAMES,
    GameStory,
    GameSummary,
    Leaderboard,
    LeaderboardEntry,
    Period,
    PlayerStats,
    Ranking,
    SeatLine,
)
from bot.stats.record import Outcome, Turn

NameOf = Callable[[int, str], str]


def relative_time(unix: int) -> str:
    """Discord's timestamp markup, shown as "3 hours ago" in each reader's time zone."""
    return f"<t:{unix}:R>"


def seat_name(seat: SeatLine, name_of: NameOf) -> str:
    name = name_of(seat.user_id, seat.name)
    return t("score.name.bot", name=name) if seat.is_bot else name


# ---------------------------------------------------------------------- history


def history_line(game: GameSummary, name_of: NameOf) -> str:
    """`#12` 3 hours ago · 🏆 **Anne** 12🪱 · Bridget 9🪱 (seat order, the winner marked)."""
    players = t("score.history.separator").join(_history_seat(seat, name_of) for seat in game.seats)
    key = "score.history.line.abandoned" if game.abandoned else "score.history.line"
    return t(key, game_id=game.game_id, when=relative_time(game.ended_at), players=players)


def _history_seat(seat: SeatLine, name_of: NameOf) -> str:
    name = seat_name(seat, name_of)
    if seat.left:
        return t("score.history.seat.left", name=name)
    key = "score.history.seat.winner" if seat.won else "score.history.seat"
    return t(key, name=name, worms=seat.worms)


# ---------------------------------------------------------------------- leaderboard


def ranking_name(ranking: Ranking) -> str:
    return t(f"score.ranking.{ranking}")


def period_name(period: Period) -> str:
    return t(f"score.period.{period}")


def leaderboard_value(ranking: Ranking, entry: LeaderboardEntry) -> str:
    return t(
        f"score.leaderboard.value.{ranking}",
        wins=entry.wins,
        games=entry.games,
        rate=entry.win_rate,
        average=entry.average_worms,
    )


def leaderboard_lines(board: Leaderboard, name_of: NameOf) -> list[str]:
    return [
        t(
            "score.leaderboard.line",
            rank=entry.rank,
            name=name_of(entry.user_id, entry.name),
            value=leaderboard_value(board.ranking, entry),
        )
        for entry in board.top
    ]


def leaderboard_asker_line(board: Leaderboard, name_of: NameOf) -> str | None:
    """The asker's own rank below the top, or why they have none; None when in the top."""
    asker = board.asker
    if asker is not None:
        if board.asker_in_top:
            return None
        return t(
            "score.leaderboard.asker",
            rank=asker.rank,
            name=name_of(asker.user_id, asker.name),
            value=leaderboard_value(board.ranking, asker),
            ranked=board.ranked_players,
        )
    if board.ranking is Ranking.WIN_RATE and board.asker_games:
        return t(
            "score.leaderboard.asker.too_few",
            minimum=WIN_RATE_MIN_GAMES,
            games=board.asker_games,
        )
    return t("score.leaderboard.asker.unranked")


def leaderboard_empty(board: Leaderboard) -> str:
    if board.ranking is Ranking.WIN_RATE:
        return t("score.leaderboard.empty.win_rate", minimum=WIN_RATE_MIN_GAMES)
    if board.period is Period.ALL_TIME:
        return t("score.leaderboard.empty.all")
    return t("score.leaderboard.empty.period")


# ---------------------------------------------------------------------- one player


def player_fields(stats: PlayerStats) -> list[tuple[str, str]]:
    """(name, value) pairs for the player's card, in reading order."""
    if stats.favourite_tile is None:
        favourite = t("score.player.favourite_tile.none")
    else:
        favourite = t(
            "score.player.favourite_tile.value",
            tile=stats.favourite_tile,
            times=stats.favourite_tile_taken,
        )
    return [
        (t("score.player.games"), str(stats.games)),
        (t("score.player.wins"), str(stats.wins)),
        (t("score.player.win_rate"), t("score.player.win_rate.value", rate=stats.win_rate)),
        (
            t("score.player.average_worms"),
            t("score.player.average_worms.value", average=stats.average_worms),
        ),
        (t("score.player.best_worms"), str(stats.best_worms)),
        (t("score.player.favourite_tile"), favourite),
        (t("score.player.steals"), str(stats.steals)),
        (t("score.player.stolen_from"), str(stats.stolen_from)),
        (t("score.player.failures"), str(stats.failures)),
        (
            t("score.player.streak"),
            t(
                "score.player.streak.value",
                current=stats.current_streak,
                longest=stats.longest_streak,
            ),
        ),
    ]


# ---------------------------------------------------------------------- one game


def story_lines(story: GameStory, name_of: NameOf) -> list[str]:
    """One line per turn outcome (numbered), and a line for each player who left."""
    seats = {seat.seat: seat for seat in story.summary.seats}
    lines: list[str] = []
    number = 0
    for turn in story.turns:
        name = seat_name(seats[turn.seat], name_of)
        if turn.outcome is Outcome.LEFT:
            lines.append(t("score.game.turn.left", name=name))
            continue
        number += 1
        lines.append(_turn_line(turn, number, name, seats, name_of))
    return lines


def _turn_line(
    turn: Turn, number: int, name: str, seats: dict[int, SeatLine], name_of: NameOf
) -> str:
    if turn.outcome is Outcome.TOOK:
        return t("score.game.turn.took", number=number, name=name, tile=turn.tile)
    if turn.outcome is Outcome.STOLE:
        assert turn.other is not None
        victim = seat_name(seats[turn.other], name_of)
        return t("score.game.turn.stole", number=number, name=name, tile=turn.tile, victim=victim)
    # A failure: `tile` returned to the grill, `other` turned face down.
    if turn.tile is None and turn.other is None:
        return t("score.game.turn.failed", number=number, name=name)
    if turn.other is None:
        return t("score.game.turn.failed.returned", number=number, name=name, tile=turn.tile)
    if turn.tile is None:
        return t("score.game.turn.failed.turned_only", number=number, name=name, turned=turn.other)
    return t(
        "score.game.turn.failed.turned",
        number=number,
        name=name,
        tile=turn.tile,
        turned=turn.other,
    )


def standing_lines(game: GameSummary, name_of: NameOf) -> list[str]:
    lines = []
    for seat in game.standings():
        name = seat_name(seat, name_of)
        tiles = " ".join(f"`{tile}`" for tile in seat.tiles)
        if seat.left:
            lines.append(t("score.game.standing.left", name=name))
        elif seat.rank is None:
            lines.append(
                t("score.game.standing.unranked", name=name, worms=seat.worms, tiles=tiles)
            )
        else:
            key = "score.game.standing.winner" if seat.won else "score.game.standing"
            lines.append(t(key, rank=seat.rank, name=name, worms=seat.worms, tiles=tiles))
    return lines


def fit_lines(lines: list[str], limit: int, skipped_key: str = "score.game.turns.skipped") -> str:
    """Join lines with newlines within `limit` characters, dropping middle lines if need be.

    The start and the end of a game's story matter most, so the cut is in the middle,
    replaced by one line saying how many were left out.
    """
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    head: list[str] = []
    tail: list[str] = []
    used = len(t(skipped_key, count=len(lines))) + 2
    low, high = 0, len(lines) - 1
    take_head = True
    while low <= high:
        line = lines[low] if take_head else lines[high]
        if used + len(line) + 1 > limit:
            break
        used += len(line) + 1
        if take_head:
            head.append(line)
            low += 1
        else:
            tail.append(line)
            high -= 1
        take_head = not take_head
    skipped = high - low + 1
    return "\n".join([*head, t(skipped_key, count=skipped), *reversed(tail)])
