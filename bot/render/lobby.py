"""The parts of the live message every game shares: the lobby, the closed lobby, the
computer-player levels, the end confirmation and Play again."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.render.layout import ButtonSpec, Component, Layout, Style, add_line_fields
from bot.render.names import safe_name
from bot.sessions.model import Seat, Session


def session_ref(session: Session, action: ClickAction, arg: str = "") -> ComponentRef:
    """A component's target: this session at the version being shown."""
    assert session.id is not None
    return ComponentRef(action, session.id, session.version, arg)


def footer(embed: discord.Embed, session: Session) -> discord.Embed:
    return embed.set_footer(text=t("session.footer", id=session.id, version=session.version))


def lobby_embed(
    session: Session,
    *,
    game: str,
    colour: discord.Colour,
    players: tuple[int, int],
    options: list[str],
) -> discord.Embed:
    """The lobby of a game called `game`, with its option lines."""
    low, high = players
    host = safe_name(session.host_name)
    embed = discord.Embed(
        title=t("lobby.title", game=game),
        description=t("lobby.description", host=host, min=low, max=high, game=game),
        colour=colour,
    )
    lines = [
        t(_lobby_line_key(session, seat), position=position, name=safe_name(seat.name))
        for position, seat in enumerate(session.seats, start=1)
    ]
    embed.add_field(
        name=t("lobby.players", count=len(session.seats), max=high),
        value="\n".join(lines) or "—",
        inline=False,
    )
    add_line_fields(embed, t("lobby.options"), options)
    return footer(embed, session)


def _lobby_line_key(session: Session, seat: Seat) -> str:
    if seat.is_bot:
        return "lobby.player.bot"
    return "lobby.player.host" if seat.user_id == session.host_id else "lobby.player"


def closed_lobby_embed(session: Session, *, game: str) -> discord.Embed:
    embed = discord.Embed(title=t("lobby.title", game=game), description=t("lobby.closed"))
    return footer(embed, session)


def lobby_layout(session: Session) -> Layout:
    bots: list[Component] = [
        ButtonSpec(session_ref(session, ClickAction.ADD_BOT), t("lobby.button.add_bot"), emoji="🤖")
    ]
    if session.bot_seats:
        bots.append(
            ButtonSpec(session_ref(session, ClickAction.DROP_BOT), t("lobby.button.remove_bot"))
        )
    return [
        [
            ButtonSpec(
                session_ref(session, ClickAction.JOIN), t("lobby.button.join"), Style.SUCCESS
            ),
            ButtonSpec(session_ref(session, ClickAction.LEAVE), t("lobby.button.leave")),
            ButtonSpec(
                session_ref(session, ClickAction.START), t("lobby.button.start"), Style.PRIMARY
            ),
            ButtonSpec(
                session_ref(session, ClickAction.CANCEL), t("lobby.button.cancel"), Style.DANGER
            ),
        ],
        bots,
    ]


def bot_level_layout(session: Session, levels: tuple[str, ...]) -> Layout:
    """The levels the host picks from after Add bot (on an ephemeral message)."""
    return [
        [
            ButtonSpec(session_ref(session, ClickAction.BOT, level), t(f"lobby.bot_level.{level}"))
            for level in levels
        ]
    ]


def final_layout(session: Session) -> Layout:
    label = t("game.button.play_again")
    ref = session_ref(session, ClickAction.AGAIN)
    return [[ButtonSpec(ref, label, Style.SUCCESS, emoji="🔁")]]


def end_confirm_layout(session: Session) -> Layout:
    label = t("end.button.confirm")
    return [[ButtonSpec(session_ref(session, ClickAction.END), label, Style.DANGER)]]
