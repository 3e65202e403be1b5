"""Pickomino's embeds: the lobby, the game in progress, and the final standings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord

from bot.games.pickomino.engine import ALL_TILES, Game, worms
from bot.games.pickomino.render.buttons import claims_in_menu, shown_claims
from bot.games.pickomino.render.text import (
    TURNED,
    WORM,
    dice_text,
    event_line,
    kept_groups,
    option_text,
    options_lines,
    roll_line,
    safe_name,
)
from bot.i18n import t
from bot.render.layout import MAX_FIELD_VALUE, clip
from bot.sessions.model import Ending, Seat, Session

COLOUR = discord.Colour.from_rgb(214, 92, 62)
LOG_LINES = 5
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _footer(embed: discord.Embed, session: Session) -> discord.Embed:
    return embed.set_footer(text=t("pickomino.footer", id=session.id, version=session.version))


def lobby_embed(session: Session, max_players: int) -> discord.Embed:
    embed = discord.Embed(
        title=t("lobby.title"),
        description=t("lobby.description", host=safe_name(session.host_name), max=max_players),
        colour=COLOUR,
    )
    lines = [
        t(_lobby_line_key(session, seat), position=position, name=safe_name(seat.name))
        for position, seat in enumerate(session.seats, start=1)
    ]
    count = len(session.seats)
    embed.add_field(
        name=t("lobby.players", count=count, max=max_players),
        value="\n".join(lines) or "—",
        inline=False,
    )
    options = "\n".join(options_lines(session.options, session.timer_seconds, session.hints))
    embed.add_field(name=t("lobby.options"), value=options, inline=False)
    return _footer(embed, session)


def _lobby_line_key(session: Session, seat: Seat) -> str:
    if seat.is_bot:
        return "lobby.player.bot"
    return "lobby.player.host" if seat.user_id == session.host_id else "lobby.player"


def closed_lobby_embed(session: Session) -> discord.Embed:
    embed = discord.Embed(title=t("lobby.title"), description=t("lobby.closed"))
    return _footer(embed, session)


def game_embed(session: Session, game: Game) -> discord.Embed:
    name_of = session.name_of
    current = game.current_player
    embed = discord.Embed(
        title=t("pickomino.title"),
        description=t("game.turn_of", name=safe_name(name_of(current))),
        colour=COLOUR,
    )
    embed.add_field(name=t("game.grill"), value=grill_text(game), inline=False)
    embed.add_field(name=t("game.players"), value=players_text(session, game), inline=False)
    embed.add_field(name=t("game.turn"), value=turn_text(session, game), inline=False)
    embed.add_field(name=t("game.log"), value=log_text(session), inline=False)
    return _footer(embed, session)


def final_embed(session: Session, game: Game | None) -> discord.Embed:
    if game is None or session.ending is Ending.CANCELLED:
        return closed_lobby_embed(session)
    abandoned = session.ending is Ending.ABANDONED
    embed = discord.Embed(
        title=t("final.title.abandoned" if abandoned else "final.title"),
        description=result_text(session, game),
        colour=COLOUR,
    )
    embed.add_field(name=t("final.standings"), value=standings_text(session, game), inline=False)
    embed.add_field(name=t("game.log"), value=log_text(session), inline=False)
    return _footer(embed, session)


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


def turn_text(session: Session, game: Game) -> str:
    lines = [
        t("game.turn.roll", dice=dice_text(game.roll)) if game.roll else t("game.turn.no_roll")
    ]
    if game.kept:
        worm_key = "game.turn.worm.yes" if game.has_worm else "game.turn.worm.no"
        kept = t("game.turn.kept", groups=kept_groups(game.kept), total=game.kept_total)
        lines.append(f"{kept} ({t(worm_key)})")
    else:
        lines.append(t("game.turn.kept.none"))
    options = shown_claims(game.claim_options())  # in the order the buttons or menu offer
    if options:
        texts = t("game.turn.stop.or").join(option_text(o, session.name_of) for o in options)
        key = "game.turn.stop.menu" if claims_in_menu(options) else "game.turn.stop"
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
    if len(standings) > 1 and standings[0].worms == standings[1].worms:
        tie = t("final.tie.highest_tile", name=winners[0], tile=standings[0].highest_tile)
        text = f"{text}\n{tie}"
    return text
