"""Pickomino's live message while it is played and once it has ended, as blocks of text
(Components V2); COLOUR is the game's colour (the /pickomino embeds use it too)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord

from bot.games.pickomino.engine import Game, worms
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.pictures import tile_emoji_name
from bot.games.pickomino.render.coaching import coaching_line, summary_line
from bot.games.pickomino.render.ending import END_PICTURE, end_picture
from bot.games.pickomino.render.story import log_lines, setback_line
from bot.games.pickomino.render.summary import GameSummary, PlayerTally
from bot.games.pickomino.render.text import (
    TURNED,
    WORM,
    kept_groups,
    safe_name,
    score_text,
    tile_picture,
    tile_text,
)
from bot.games.pickomino.render.turn_view import TurnView
from bot.games.pickomino.render.what_now import what_now
from bot.games.pickomino.render.what_now_words import what_now_text
from bot.i18n import t
from bot.render.emoji import show
from bot.render.layout import Block, Divider, Picture, Text, clip
from bot.render.lobby import footer, heading, section
from bot.render.names import Namer, namer
from bot.sessions.model import Ending, Session

COLOUR = discord.Colour.from_rgb(214, 92, 62)
# Seat colours, in seat order: the container's accent shows whose turn it is at a glance.
SEAT_COLOURS = (0xE8A33D, 0x4EA8DE, 0x2A9D8F, 0xF2D649, 0xD65C3E, 0x9B5DE5, 0xF28482)
LOG_LINES = 4
# The turn's lines (whose turn, a headline, the kept dice, what now) and the log's together.
TURN_AND_LOG_LINES = 6
# Discord allows 4000 characters of text in all; the grill is at most 18 tiles of ~30.
MAX_TURN_TEXT = 1000
MAX_PLAYERS_TEXT = 1000
MAX_LOG = 800
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
# Each specialist's own mark; the Golden Die's is not the roll's 🎲.
SPECIALIST_MARK = {
    Specialist.CANNED_WORM: "🥫",
    Specialist.HEN: "🐔",
    Specialist.WEASEL: "🦦",
    Specialist.RAVEN: "🐦‍⬛",
    Specialist.GOLDEN_DIE: "🪙",
}
# WORD JOINER: no line break between a tile and the specialist sitting on it.
JOIN = "\u2060"


def game_blocks(session: Session, game: Game, view: TurnView) -> tuple[Block, ...]:
    """The game in play, phone first: the turn on top, then the grill, one line per
    player, and the last moves (small)."""
    name_of = namer(session.seats)
    # The grill shares its block with the players: a block of emoji alone is drawn huge.
    table = f"{grill_text(game)}\n{players_text(game, name_of)}"
    turn = turn_text(session, game, view, name_of)
    # The log gives way to the turn's lines, so the message keeps its height on a phone.
    log = log_text(
        session, name_of, max(2, min(LOG_LINES, TURN_AND_LOG_LINES - turn.count("\n") - 1))
    )
    small = f"{log}\n{footer(session).content}" if log else footer(session).content
    return (
        Text(turn),
        Divider(),
        Text(table),
        Divider(),
        Text(small),
    )


def seat_colour(game: Game) -> int:
    """The accent of the player to move (their seat's colour), 0xRRGGBB."""
    return SEAT_COLOURS[game.current % len(SEAT_COLOURS)]


def final_blocks(session: Session, game: Game, events: list[dict[str, Any]]) -> tuple[Block, ...]:
    """The end: the winner and their worms first, the turns, the duration, the best
    steal, then the standings (the one list of them: each player's score and tiles, their
    tiles taken, steals and busts) and the picture of the scores over the turns, keyed by
    the same names in the same order. An abandoned game gives no medals."""
    abandoned = session.ending is Ending.ABANDONED
    name_of = namer(session.seats)
    summary = GameSummary.from_events(game.players, events)
    lines = [result_text(session, game, name_of), ""]
    learned = summary_line(session, game, events, name_of)  # a practice game: what it showed
    if learned:
        lines = [learned, *lines]
    lines.append(t("pickomino.final.turns", count=summary.turns))
    duration = duration_text(session)
    if duration:
        lines[-1] = f"{lines[-1]} · {duration}"
    steal = summary.best_steal
    if steal is not None:
        lines.append(
            t(
                "pickomino.final.best_steal",
                thief=safe_name(name_of(steal.thief)),
                victim=safe_name(name_of(steal.victim)),
                tile=tile_text(steal.tile),
            )
        )
    blocks: list[Block] = [
        heading(
            t("pickomino.final.title.abandoned" if abandoned else "pickomino.final.title"),
            "\n".join(lines),
        ),
        section(t("final.standings"), standings_lines(session, game, summary, name_of)),
    ]
    drawn = end_picture(session, game, summary)
    if drawn is not None:
        blocks.append(Picture(END_PICTURE, drawn))
    blocks.append(footer(session))
    return tuple(blocks)


def duration_text(session: Session) -> str:
    """How long a game lasted, in minutes ("" before it ended)."""
    if session.started_at is None or session.ended_at is None:
        return ""
    minutes = max(1, round((session.ended_at - session.started_at) / 60))
    return t("pickomino.final.duration", count=minutes)


def grill_text(game: Game) -> str:
    """The tiles on the grill, ascending: as pictures in a row, or as numbers grouped by
    their worms (`21 22 24 🪱 · 25 27 🪱🪱`); turned tiles struck through."""
    on_grill = set(game.grill)
    turned = set(game.face_down)
    tiles = game.rules.layout.all_tiles
    shown = [tile for tile in tiles if tile in on_grill or tile in turned]
    if not shown:
        return t("pickomino.grill.empty")
    marks = _specialist_marks(game)
    if all(tile_picture(tile) for tile in shown):
        back = show(tile_emoji_name("back"), TURNED)
        cells = []
        for tile in shown:
            cell = back if tile in turned else str(tile_picture(tile))
            # A tile and its specialist are one unit, set apart by a space on each side:
            # the mark can neither start the next line nor seem to sit on the next tile.
            cells.append(f" {cell}{JOIN}{marks[tile]} " if tile in marks else cell)
        return " ".join("".join(cells).split())
    groups: dict[int, list[str]] = {}
    for tile in shown:
        mark = f"{JOIN}{marks[tile]}" if tile in marks else ""
        number = f"~~{tile}~~" if tile in turned else f"**{tile}**{mark}"
        groups.setdefault(worms(tile), []).append(number)
    return " · ".join(f"{' '.join(numbers)} {WORM * count}" for count, numbers in groups.items())


def _specialist_marks(game: Game) -> dict[int, str]:
    """Extrawurm: the specialist sitting on each grill tile, as its mark."""
    if game.expansion is None:
        return {}
    return {
        place: SPECIALIST_MARK[specialist]
        for specialist, place in game.expansion.specialists.items()
        if isinstance(place, int)
    }


def players_text(game: Game, name_of: Namer) -> str:
    """One short line per player: `▶️ Cara · 32 🪱🪱🪱 · 3 🪱` (their top tile, their worms;
    with Extrawurm their 11 or 13, their specialist, and Bratwurms apart in the sum)."""
    lines = []
    for seat_index, player in enumerate(game.players):
        stack = game.stacks[player]
        marker = t("game.marker.current" if seat_index == game.current else "game.marker.waiting")
        parts = [f"{marker}{safe_name(name_of(player))}"]
        if stack:
            parts.append(tile_text(stack[-1]))
        if game.expansion is not None:
            parts.extend(_expansion_parts(game, player))
        parts.append(score_text(game.score(player), game.bratwurms(player)))
        lines.append(" · ".join(parts))
    return clip("\n".join(lines), MAX_PLAYERS_TEXT)


def _expansion_parts(game: Game, player: str) -> list[str]:
    """Extrawurm: a player's 11 or 13 and their specialist (their Bratwurms are in their
    score, apart from the worms)."""
    parts = [tile_text(tile) for tile in game.extras(player)]
    specialist = game.specialist_of(player)
    if specialist is not None:
        parts.append(SPECIALIST_MARK[specialist])
    return parts


def turn_text(session: Session, game: Game, view: TurnView, name_of: Namer) -> str:
    """Whose turn; the latest bust or steal, until the player it hit rolls again; the
    kept dice and total; and what the player to move may do now and why (the roll on
    the table is on the face buttons)."""
    head = t("pickomino.turn_of", name=safe_name(name_of(game.current_player)))
    if session.deadline is not None:
        when = discord.utils.format_dt(dt.datetime.fromtimestamp(session.deadline, dt.UTC), "R")
        head = t("pickomino.turn.deadline", head=head, when=when)
    lines = [head]
    told = setback_line(game.setback, name_of, SPECIALIST_MARK[Specialist.HEN])
    if told:
        lines.append(told)
    if game.kept:
        lines.append(kept_line(game))
    # In a practice game (/pickomino learn) the coaching line takes the place of the
    # "what now" line: the same moment, with the rule behind it.
    coach = coaching_line(session, game, name_of)
    if coach:
        lines.append(coach)
    elif (prompt := what_now(game, claims_in_menu=view.claims_in_menu)) is not None:
        lines.append(what_now_text(prompt, name_of, SPECIALIST_MARK))
    return clip("\n".join(lines), MAX_TURN_TEXT)


def kept_line(game: Game) -> str:
    """The kept dice and their total. With Extrawurm the total shows what the mover's
    specialist adds: the Canned Worm's 5 (`= 23 + 🥫 5 = 28`, when no worm die is kept)
    or the Golden Die's ninth die. Whether a worm is kept yet is the prompt's to say."""
    groups = kept_groups(game.kept)
    if game.canned_worm_counts:
        return t(
            "pickomino.turn.kept.canned_worm",
            groups=groups,
            kept=game.kept_total,
            total=game.claim_total,
        )
    kept = t("pickomino.turn.kept", groups=groups, total=game.kept_total)
    if _holds(game, Specialist.GOLDEN_DIE):
        kept = f"{kept} · {t('pickomino.turn.golden_die.kept')}"
    return kept


def _holds(game: Game, specialist: Specialist) -> bool:
    return game.expansion is not None and game.specialist_of(game.current_player) is specialist


def log_text(session: Session, name_of: Namer, lines: int = LOG_LINES) -> str:
    def is_bot(player: str) -> bool:
        seat = session.seat_by_player(player)
        return seat is not None and seat.is_bot

    shown = log_lines(session.log, name_of, is_bot, last=lines)
    return clip("\n".join(t("game.log.line", line=line) for line in shown), MAX_LOG)


def standings_lines(
    session: Session, game: Game, summary: GameSummary, name_of: Namer
) -> list[str]:
    abandoned = session.ending is Ending.ABANDONED
    lines = []
    for standing in game.standings():
        tally = summary.players.get(standing.player, PlayerTally())
        lines.append(
            t(
                "pickomino.final.line.abandoned" if abandoned else "pickomino.final.line",
                medal=MEDALS.get(standing.rank, "▫️"),
                rank=standing.rank,
                name=safe_name(name_of(standing.player)),
                score=score_text(standing.worms, standing.bratwurms),
                # The stack bottom to top, as it was built, then 11 or 13.
                tiles=" ".join(tile_text(tile) for tile in standing.tiles)
                or t("pickomino.final.tiles.none"),
            )
        )
        lines.append(
            t(
                "pickomino.final.tally",
                # Each count held to its noun: on a phone a line that wraps breaks
                # between them, never inside "2 nieudane rzuty".
                taken=unbroken(t("pickomino.final.taken", count=tally.taken)),
                steals=unbroken(t("pickomino.final.steals", count=tally.steals)),
                busts=unbroken(t("pickomino.final.busts", count=tally.busts)),
            )
        )
    left = [safe_name(name_of(player)) for player in game.left]
    if left:
        lines.append(t("pickomino.final.left", names=", ".join(left)))
    return lines


def unbroken(words: str) -> str:
    """`words` with no-break spaces: a short phrase kept on one line."""
    return words.replace(" ", "\u00a0")


def result_text(session: Session, game: Game, name_of: Namer) -> str:
    """The headline: who won with how many worms and, on a tie, why."""
    if session.ending is Ending.ABANDONED:
        return t("final.abandoned")
    standings = game.standings()
    winners = [safe_name(name_of(s.player)) for s in standings if s.rank == 1]
    best = standings[0].worms
    names = ", ".join(winners)
    if game.expansion is not None:  # points, not worms: Bratwurms count too
        shared = t("pickomino.final.winners.shared.points", names=names, count=best)
        text = t("pickomino.final.winner.points", name=winners[0], count=best)
    else:
        shared = t("pickomino.final.winners.shared", names=names, worms=best)
        text = t("pickomino.final.winner", name=winners[0], worms=best)
    if len(winners) > 1:
        return f"{shared}\n{t('pickomino.final.tie.shared')}"
    if _tie_break(session) == "highest_tile":
        tie = t("pickomino.final.tie.highest_tile", name=winners[0], tile=standings[0].highest_tile)
        text = f"{text}\n{tie}"
    return text


def _tie_break(session: Session) -> str:
    """How the engine broke a tie on worms, as its game-over event says."""
    for event in reversed(session.log):
        if event["type"] == "game_over":
            return str(event.get("tie_break", ""))
    return ""
