"""Picker's live message while it is played and once it has ended, as blocks of text
(Components V2): the round and whose pick on top, the dice, one line per player, and
the last picks (small)."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.picker.engine import Game, Standing
from bot.games.picker.render.coaching import coaching_line, summary_line
from bot.games.picker.render.what_now import what_now
from bot.games.picker.render.what_now_words import what_now_text
from bot.games.picker.words import COLOUR_MARK, die_text, event_line
from bot.i18n import t
from bot.render.layout import Block, Divider, Text, clip
from bot.render.lobby import footer, heading, section
from bot.render.names import safe_name
from bot.sessions.model import Ending, Session

COLOUR = discord.Colour.from_rgb(64, 132, 214)
LOG_LINES = 4
MAX_TEXT = 1000
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def round_blocks(session: Session, game: Game) -> tuple[Block, ...]:
    title = t("picker.round", round=game.round_number, rounds=game.rounds_total)
    pick_of = t("picker.pick_of", name=safe_name(session.name_of(game.current_player)))
    # In a practice game (/picker learn) the coaching line takes the place of the
    # "what now" line: the same moment, with the rule behind it.
    text = f"{pick_of}\n{table_text(session, game, coach=coaching_line(session, game))}"
    turn = heading(title, text)
    log = log_text(session)
    small = f"{log}\n{footer(session).content}" if log else footer(session).content
    return (turn, Divider(), Text(players_text(session, game)), Divider(), Text(small))


def table_text(session: Session, game: Game, *, coach: str | None = None) -> str:
    """The dice of the round: the ones left, and the ones kept with who kept them; then
    what the player to move may do (or, in a practice game, `coach`'s line)."""
    assert game.dice is not None
    seats = len(game.players)
    keepers = {
        colour: game.players[(game.first + index) % seats]
        for index, colour in enumerate(game.picks)
    }
    left, kept = [], []
    for colour, value in zip(game.colours, game.dice, strict=True):
        if colour in keepers:
            name = safe_name(session.name_of(keepers[colour]))
            kept.append(t("picker.kept_die", die=die_text(colour, value), name=name))
        else:
            left.append(die_text(colour, value))
    lines = [t("picker.on_table", dice="  ".join(left))] if left else []
    if kept:
        lines.append(" · ".join(kept))
    if coach:
        lines.append(coach)
    elif (prompt := what_now(game)) is not None:  # what to keep and why: lowest, colour sets
        lines.append(what_now_text(prompt, session.name_of))
    return clip("\n".join(lines), MAX_TEXT)


def players_text(session: Session, game: Game) -> str:
    standings = {standing.player: standing for standing in game.standings()}
    lines = []
    for player in game.players:
        standing = standings[player]
        marker = "game.marker.current" if player == game.current_player else "game.marker.waiting"
        colours = "".join(COLOUR_MARK[colour] for colour in game.colours_kept(player))
        lines.append(
            t(
                "picker.player",
                marker=t(marker),
                name=_seat_name(session, player),
                points=t("picker.points", count=standing.points),
                colours=colours or "—",
                bonus=standing.bonus,
            )
        )
    return clip("\n".join(lines), MAX_TEXT)


def _seat_name(session: Session, player: str) -> str:
    seat = session.seat_by_player(player)
    name = safe_name(session.name_of(player))
    if seat is not None and seat.is_bot:
        return t("picker.player.bot", name=name)
    if seat is not None and seat.left:
        return t("picker.player.left", name=name)
    return name


def log_text(session: Session) -> str:
    lines = [event_line(event, session.name_of) for event in session.log]
    shown = [t("game.log.line", line=line) for line in lines if line][-LOG_LINES:]
    return "\n".join(shown)


def final_blocks(session: Session, game: Game, events: list[dict[str, Any]]) -> tuple[Block, ...]:
    abandoned = session.ending is Ending.ABANDONED
    standings = game.standings()
    title = t("picker.final.abandoned" if abandoned else "picker.final")
    result = result_text(session, standings, abandoned)
    learned = summary_line(session, game, events)  # a practice game: what it showed
    head = heading(title, f"{learned}\n{result}" if learned else result)
    table = section(t("final.standings"), [standings_text(session, standings, abandoned)])
    return (head, Divider(), table, Divider(), footer(session))


def result_text(session: Session, standings: tuple[Standing, ...], abandoned: bool) -> str:
    if abandoned:
        return t("final.abandoned")
    winners = [safe_name(session.name_of(s.player)) for s in standings if s.rank == 1]
    # The number and its noun in one string: "mit 41 Punkten" takes the case "mit" asks.
    best = standings[0].score
    if len(winners) > 1:
        return t("picker.final.winners.shared", names=", ".join(winners), count=best)
    return t("picker.final.winner", name=winners[0], count=best)


def standings_text(session: Session, standings: tuple[Standing, ...], abandoned: bool) -> str:
    lines = []
    for standing in standings:
        sets = " ".join(
            t("picker.final.set", mark=COLOUR_MARK[s.colour], times=s.count, bonus=s.bonus)
            for s in standing.sets
            if s.bonus
        )
        lines.append(
            t(
                "picker.final.line",
                medal="▫️" if abandoned else MEDALS.get(standing.rank, "▫️"),
                rank=standing.rank,
                name=_seat_name(session, standing.player),
                score=standing.score,
                points=standing.points,
                bonus=standing.bonus,
                sets=sets or t("picker.final.no_sets"),
            )
        )
    return clip("\n".join(lines), MAX_TEXT)
