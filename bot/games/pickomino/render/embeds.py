"""Pickomino's embeds: the lobby, the game in progress, and the final standings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord

from bot.games.pickomino.engine import ALL_TILES, Game, worms
from bot.games.pickomino.render.text import (
    TURNED,
    WORM,
    dice_text,
    event_line,
    kept_groups,
    option_text,
    roll_line,
    safe_name,
)
from bot.games.pickomino.render.turn_view import TurnView
from bot.i18n import t
from bot.render.layout import MAX_FIELD_VALUE, clip
from bot.render.lobby import footer
from bot.sessions.model import Ending, Session

COLOUR = discord.Colour.from_rgb(214, 92, 62)
LOG_LINES = 5
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def game_embed(session: Session, game: Game, view: TurnView) -> discord.Embed:
    name_of = session.name_of
    current = game.current_player
    embed = discord.Embed(
        title=t("pickomino.title"),
        description=t("game.turn_of", name=safe_name(name_of(current))),
        colour=COLOUR,
    )
    embed.add_field(name=t("game.grill"), value=grill_text(game), inline=False)
    embed.add_field(name=t("game.players"), value=players_text(session, game), inline=False)
    embed.add_field(name=t("game.turn"), value=turn_text(session, game, view), inline=False)
    embed.add_field(name=t("game.log"), value=log_text(session), inline=False)
    return footer(embed, session)


def final_embed(session: Session, game: Game) -> discord.Embed:
    abandoned = session.ending is Ending.ABANDONED
    embed = discord.Embed(
        title=t("final.title.abandoned" if abandoned else "final.title"),
        description=result_text(session, game),
        colour=COLOUR,
    )
    embed.add_field(name=t("final.standings"), value=standings_text(session, game), inline=False)
    embed.add_field(name=t("game.log"), value=log_text(session), inline=False)
    return footer(embed, session)


def grill_text(game: Game) -> str:
    """Every tile on the grill or turned face down, ascending; tiles in stacks are elsewhere."""
    on_grill = set(game.grill)
    turned = set(game.face_down)
    parts = []
    for tile in ALL_TILES:
        if tile in on_grill:
            parts.append(f"`{tile}` {WORM * worms(tile)}")
        elif tile in turned:
            parts.append(f"~~`{tile}`~~ {TURNED}")
    return " · ".join(parts) if parts else t("game.grill.empty")


def players_text(session: Session, game: Game) -> str:
    lines = []
    for seat_index, player in enumerate(game.players):
        stack = game.stacks[player]
        marker_key = "game.marker.current" if seat_index == game.current else "game.marker.waiting"
        top = (
            t("game.player.top", tile=stack[-1], worms=WORM * worms(stack[-1]))
            if stack
            else t("game.player.no_top")
        )
        tiles = (
            t("game.player.tile") if len(stack) == 1 else t("game.player.tiles", count=len(stack))
        )
        lines.append(
            t(
                "game.player",
                marker=t(marker_key),
                name=safe_name(session.name_of(player)),
                top=top,
                tiles=tiles,
                worms=game.score(player),
            )
        )
    return clip("\n".join(lines), MAX_FIELD_VALUE)


def turn_text(session: Session, game: Game, view: TurnView) -> str:
    lines = [
        t("game.turn.roll", dice=dice_text(game.roll)) if game.roll else t("game.turn.no_roll")
    ]
    if game.kept:
        worm_key = "game.turn.worm.yes" if game.has_worm else "game.turn.worm.no"
        kept = t("game.turn.kept", groups=kept_groups(game.kept), total=game.kept_total)
        lines.append(f"{kept} ({t(worm_key)})")
    else:
        lines.append(t("game.turn.kept.none"))
    if view.claims:  # in the order the buttons or the menu offer them
        texts = t("game.turn.stop.or").join(option_text(o, session.name_of) for o in view.claims)
        key = "game.turn.stop.menu" if view.claims_in_menu else "game.turn.stop"
        lines.append(t(key, options=texts))
    else:
        lines.append(t("game.turn.stop.none"))
    if session.deadline is not None:
        when = discord.utils.format_dt(dt.datetime.fromtimestamp(session.deadline, dt.UTC), "R")
        lines.append(t("game.turn.deadline", when=when))
    return clip("\n".join(lines), MAX_FIELD_VALUE)


def log_text(session: Session) -> str:
    lines = [_log_line(session, event) for event in session.log]
    shown = [line for line in lines if line][-LOG_LINES:]
    return clip("\n".join(shown), MAX_FIELD_VALUE) if shown else t("game.log.empty")


def _log_line(session: Session, event: dict[str, Any]) -> str | None:
    if event["type"] == "rolled":
        seat = session.seat_by_player(event["player"])
        return roll_line(event, session.name_of) if seat is not None and seat.is_bot else None
    return event_line(event, session.name_of)


def standings_text(session: Session, game: Game) -> str:
    lines = []
    for standing in game.standings():
        tiles = ", ".join(str(tile) for tile in standing.tiles) or t("final.tiles.none")
        lines.append(
            t(
                "final.line",
                medal=MEDALS.get(standing.rank, "▫️"),
                rank=standing.rank,
                name=safe_name(session.name_of(standing.player)),
                worms=standing.worms,
                tiles=tiles,
            )
        )
    left = [safe_name(session.name_of(player)) for player in game.left]
    if left:
        lines.append(t("final.left", names=", ".join(left)))
    return clip("\n".join(lines), MAX_FIELD_VALUE)


def result_text(session: Session, game: Game) -> str:
    """Who won and, on a tie, why."""
    if session.ending is Ending.ABANDONED:
        return t("final.abandoned")
    standings = game.standings()
    winners = [safe_name(session.name_of(s.player)) for s in standings if s.rank == 1]
    if len(winners) > 1:
        return f"{t('final.winners.shared', names=', '.join(winners))}\n{t('final.tie.shared')}"
    text = t("final.winner", name=winners[0])
    if _tie_break(session) == "highest_tile":
        tie = t("final.tie.highest_tile", name=winners[0], tile=standings[0].highest_tile)
        text = f"{text}\n{tie}"
    return text


def _tie_break(session: Session) -> str:
    """How the engine broke a tie on worms, as its game-over event says."""
    for event in reversed(session.log):
        if event["type"] == "game_over":
            return str(event.get("tie_break", ""))
    return ""
