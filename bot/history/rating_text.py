"""The lines of the rating pages, for any game, through t(); no discord import: the
rating leaderboard (`score leaderboard ranking:rating`) and the rating on a player's
card. Ratings are shown on bot.history.ratings' scale (a newcomer 1,000)."""

from __future__ import annotations

from bot.history.figures import NameOf
from bot.history.models import Period, Scope
from bot.history.rating_sql import PlayerRating, RatingBoard, RatingEntry
from bot.history.ratings import Rating
from bot.history.text import games, period_name
from bot.i18n import number, t

RATING_RANKING = "rating"  # the leaderboard's choice value


def rating_title(board: RatingBoard) -> str:
    return t(
        "score.leaderboard.title",
        ranking=t("score.ranking.rating"),
        period=period_name(board.period),
    )


def rating_value(rating: Rating) -> str:
    return t("score.rating.value", rating=number(rating.shown), games=games(rating.games))


def rating_lines(board: RatingBoard, name_of: NameOf) -> list[str]:
    """One line a person, as the other boards: equal shown ratings share a rank."""
    shared = {e.rank for e in board.top if sum(o.rank == e.rank for o in board.top) > 1}
    return [
        t(
            "score.leaderboard.line.tied" if entry.rank in shared else "score.leaderboard.line",
            rank=entry.rank,
            name=name_of(entry.user_id, entry.name),
            value=rating_value(entry.rating),
        )
        for entry in board.top
    ]


def rating_asker_line(board: RatingBoard, name_of: NameOf) -> str | None:
    """The asker's own rank below the top, or why they have none; None when in the top."""
    asker: RatingEntry | None = board.asker
    if asker is not None:
        if board.asker_in_top:
            return None
        return t(
            "score.leaderboard.asker",
            rank=asker.rank,
            name=name_of(asker.user_id, asker.name),
            value=rating_value(asker.rating),
            count=board.ranked_players,
        )
    if board.asker_games:
        return t(
            "score.rating.asker.short",
            minimum=games(board.min_games),
            games=games(board.asker_games),
        )
    return t("score.leaderboard.asker.unranked")


def computers_line(board: RatingBoard) -> str | None:
    """Each computer level's rating, strongest first: a yardstick beside the people."""
    if not board.computers:
        return None
    levels = " · ".join(
        t("score.rating.level", level=t(f"lobby.bot_level.{level}"), rating=number(rating.shown))
        for level, rating in board.computers
    )
    return t("score.rating.computers", levels=levels)


def rating_empty(board: RatingBoard, scope: Scope) -> str:
    """Why there is no rating board: nobody has enough rated games in the period."""
    chat = scope is Scope.CHAT
    if board.period is Period.ALL_TIME:
        key = "score.rating.empty.chat" if chat else "score.rating.empty"
    else:
        key = "score.rating.empty.period.chat" if chat else "score.rating.empty.period"
    return t(key, minimum=games(board.min_games))


def player_rating_field(rated: PlayerRating) -> tuple[str, str]:
    """The card's rating: the shown rating, the range the skill likely lies in, and the
    rank among the community's ranked people (or how many games until ranked)."""
    rating = rated.rating
    shown, top = number(rating.shown), number(rating.top)
    if rated.rank is None:
        value = t(
            "score.player.rating.unranked", rating=shown, top=top, minimum=games(rated.min_games)
        )
    else:
        value = t(
            "score.player.rating.ranked",
            rating=shown,
            top=top,
            rank=rated.rank,
            players=rated.ranked_players,
        )
    return t("score.player.rating"), value
