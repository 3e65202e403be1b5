"""The lines the score pages show, for any game, through t(); no discord import.

Names come through a `NameOf` the caller gives: it gets the user id and the name
stored at game time, and returns what to show (the pages prefer the member's current
display name, escaped for markdown). The game's own words come from its HistoryFigures.
"""

from __future__ import annotations

from bot.history.figures import Aggregate, HistoryFigures, NameOf, StorySeat, Variant
from bot.history.models import (
    WIN_RATE_MIN_GAMES,
    GameStory,
    GameSummary,
    Leaderboard,
    LeaderboardEntry,
    Period,
    PlayerStats,
    Ranking,
    Scope,
    SeatLine,
    Variants,
)
from bot.i18n import number, percent, t


def one_decimal(value: float) -> str:
    """An average as the reader's language writes it, one decimal: 7.5, 7,5."""
    return number(value, pattern="#,##0.0")


def games(count: int) -> str:
    """ "1 game", "5 games" (in Polish "5 gier")."""
    return t("score.count.games", count=count)


def relative_time(unix: int) -> str:
    """Discord's timestamp markup, shown as "3 hours ago" in each reader's time zone."""
    return f"<t:{unix}:R>"


def seat_name(seat: SeatLine | StorySeat, name_of: NameOf) -> str:
    name = name_of(seat.user_id, seat.name)
    return t("score.name.bot", name=name) if seat.is_bot else name


def story_seat(seat: SeatLine) -> StorySeat:
    return StorySeat(seat.seat, seat.user_id, seat.name, seat.is_bot, seat.score, seat.end_state)


# ---------------------------------------------------------------------- history


def history_line(game: GameSummary, figures: HistoryFigures, name_of: NameOf) -> str:
    """`#12` 3 hours ago · 🏆 **Anne** 12🪱 · Bridget 9🪱: the winner first, then by
    score (equal scores in seat order), those who left last."""
    ordered = sorted(game.seats, key=lambda seat: (seat.left, not seat.won, -seat.score))
    players = t("score.history.separator").join(
        _history_seat(seat, figures, name_of) for seat in ordered
    )
    key = "score.history.line.abandoned" if game.abandoned else "score.history.line"
    return t(
        key,
        game_id=game.game_id,
        variant=variant_mark(game, figures),
        when=relative_time(game.ended_at),
        players=players,
    )


def played_variant(game: GameSummary, figures: HistoryFigures) -> Variant | None:
    """The game's rule variant, if this game was played with it."""
    variant = figures.variant
    return variant if variant is not None and game.variant == variant.key else None


def variant_mark(game: GameSummary, figures: HistoryFigures) -> str:
    """The sign of a game played with the game's rule variant (" 🌭"), else nothing."""
    variant = played_variant(game, figures)
    return "" if variant is None else t(variant.mark)


def _history_seat(seat: SeatLine, figures: HistoryFigures, name_of: NameOf) -> str:
    name = seat_name(seat, name_of)
    if seat.left:
        return t("score.history.seat.left", name=name)
    key = "score.history.seat.winner" if seat.won else "score.history.seat"
    return t(key, name=name, score=figures.score_text(story_seat(seat)))


# ---------------------------------------------------------------------- leaderboard


def ranking_value(ranking: Ranking, figures: HistoryFigures) -> str:
    """The leaderboard's choice value: the game's own for the average score."""
    return figures.score.ranking if ranking is Ranking.AVERAGE_SCORE else ranking.value


def ranking_key(ranking: Ranking, figures: HistoryFigures) -> str:
    """The i18n key of a ranking's name: the game's own for the average score."""
    if ranking is Ranking.AVERAGE_SCORE:
        return figures.score.name
    return f"score.ranking.{ranking}"


def ranking_name(ranking: Ranking, figures: HistoryFigures) -> str:
    return t(ranking_key(ranking, figures))


def period_key(period: Period) -> str:
    return f"score.period.{period}"


def period_name(period: Period) -> str:
    return t(period_key(period))


def variants_name(variants: Variants, figures: HistoryFigures) -> str | None:
    """The filter of a leaderboard of a game with a rule variant, or None (all games)."""
    variant = figures.variant
    if variant is None or variants is Variants.ALL:
        return None
    return t(variant.only if variants is Variants.ONLY else variant.without)


def leaderboard_title(board: Leaderboard, figures: HistoryFigures) -> str:
    ranking = ranking_name(board.ranking, figures)
    period = period_name(board.period)
    variants = variants_name(board.variants, figures)
    if variants is None:
        return t("score.leaderboard.title", ranking=ranking, period=period)
    return t("score.leaderboard.title.variant", ranking=ranking, period=period, variant=variants)


def leaderboard_value(ranking: Ranking, entry: LeaderboardEntry, figures: HistoryFigures) -> str:
    if ranking is Ranking.AVERAGE_SCORE:
        average = one_decimal(entry.average_score)
        return t(figures.score.per_game, average=average, count=entry.games)
    if ranking is Ranking.WINS:
        return t("score.leaderboard.value.wins", count=entry.wins, games=games(entry.games))
    if ranking is Ranking.WIN_RATE:
        return t(
            "score.leaderboard.value.win_rate",
            rate=percent(entry.win_rate),
            wins=entry.wins,
            count=entry.games,
        )
    return games(entry.games)


def leaderboard_lines(board: Leaderboard, figures: HistoryFigures, name_of: NameOf) -> list[str]:
    """One line a person; equal values share a rank and say so (`1.` `1.` `3.`)."""
    shared = {entry.rank for entry in board.top if sum(e.rank == entry.rank for e in board.top) > 1}
    return [
        t(
            "score.leaderboard.line.tied" if entry.rank in shared else "score.leaderboard.line",
            rank=entry.rank,
            name=name_of(entry.user_id, entry.name),
            value=leaderboard_value(board.ranking, entry, figures),
        )
        for entry in board.top
    ]


def leaderboard_asker_line(
    board: Leaderboard, figures: HistoryFigures, name_of: NameOf
) -> str | None:
    """The asker's own rank below the top, or why they have none; None when in the top."""
    asker = board.asker
    if asker is not None:
        if board.asker_in_top:
            return None
        return t(
            "score.leaderboard.asker",
            rank=asker.rank,
            name=name_of(asker.user_id, asker.name),
            value=leaderboard_value(board.ranking, asker, figures),
            count=board.ranked_players,
        )
    if board.ranking is Ranking.WIN_RATE and 0 < board.asker_games < WIN_RATE_MIN_GAMES:
        return t(
            "score.leaderboard.asker.too_few",
            minimum=games(WIN_RATE_MIN_GAMES),
            count=board.asker_games,
        )
    if board.ranking in (Ranking.WINS, Ranking.WIN_RATE) and board.asker_games:
        return t("score.leaderboard.asker.no_wins", count=board.asker_games)
    return t("score.leaderboard.asker.unranked")


# A leaderboard is a community's: a server's, or a chat's outside one.
_NO_GAMES = {
    Scope.SERVER: "score.leaderboard.empty.all",
    Scope.CHAT: "score.leaderboard.empty.all.chat",
}
_NO_GAMES_IN_PERIOD = {
    Scope.SERVER: "score.leaderboard.empty.period",
    Scope.CHAT: "score.leaderboard.empty.period.chat",
}


def leaderboard_empty(
    board: Leaderboard, figures: HistoryFigures, scope: Scope = Scope.SERVER
) -> str:
    """Why nobody is ranked: no finished games (in this server, or this chat: `scope`),
    too few for a win rate, or nothing won or scored yet (nobody is first with none)."""
    if board.players == 0:
        if board.ranking is Ranking.WIN_RATE:
            return t("score.leaderboard.empty.win_rate", minimum=games(WIN_RATE_MIN_GAMES))
        if board.period is Period.ALL_TIME and board.variants is Variants.ALL:
            return t(_NO_GAMES[scope], command=figures.command)
        return t(_NO_GAMES_IN_PERIOD[scope], command=figures.command)
    if board.ranking in (Ranking.WINS, Ranking.WIN_RATE):
        return t("score.leaderboard.empty.no_wins")
    return t("score.leaderboard.empty.no_score")


# ---------------------------------------------------------------------- one player


def player_fields(stats: PlayerStats, figures: HistoryFigures) -> list[tuple[str, str]]:
    """(name, value) pairs for the player's card, in reading order."""
    fields = [
        (t("score.player.games"), str(stats.games)),
        (t("score.player.wins"), str(stats.wins)),
        (t("score.player.win_rate"), percent(stats.win_rate)),
        (t(figures.score.name), one_decimal(stats.average_score)),
        (t(figures.score.best), str(stats.best_score)),
    ]
    if stats.left_games:
        fields.insert(1, (t("score.player.left"), str(stats.left_games)))
    variant = figures.variant
    if variant is not None and stats.variant_games:
        label = t("score.player.variant_games", variant=t(variant.name))
        fields.insert(1, (label, str(stats.variant_games)))
    favourite = figures.favourite
    if favourite is not None:
        if stats.favourite is None:
            value = t(favourite.none)
        else:
            value = t(favourite.value, item=stats.favourite, times=stats.favourite_taken)
        fields.append((t(favourite.label), value))
    for figure in figures.figures:
        counted = stats.figure(figure.key)
        shown = counted.best if figure.aggregate is Aggregate.BEST else counted.total
        fields.append((t(figure.label), str(shown)))
    fields.append(
        (
            t("score.player.streak"),
            t(
                "score.player.streak.value",
                current=stats.current_streak,
                longest=stats.longest_streak,
            ),
        )
    )
    return fields


# ---------------------------------------------------------------------- one game


def story_lines(story: GameStory, figures: HistoryFigures, name_of: NameOf) -> list[str]:
    """The game's story, one line per stored row, in the game's words."""
    seats = {seat.seat: story_seat(seat) for seat in story.summary.seats}
    return figures.story_lines(story.lines, seats, name_of)


def standing_lines(game: GameSummary, figures: HistoryFigures, name_of: NameOf) -> list[str]:
    lines = []
    for seat in game.standings():
        name = seat_name(seat, name_of)
        if seat.left:
            lines.append(t("score.game.standing.left", name=name))
            continue
        score = figures.standing(story_seat(seat))
        if seat.rank is None:
            lines.append(t("score.game.standing.unranked", name=name, score=score))
        else:
            key = "score.game.standing.winner" if seat.won else "score.game.standing"
            lines.append(t(key, rank=seat.rank, name=name, score=score))
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
