"""The parts of the live message every game shares: the lobby, the closed lobby, the
computer-player levels, the end confirmation, and Play again (or, after a practice
game, Start a real game)."""

from __future__ import annotations

from bot.i18n import t
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.render.layout import (
    MAX_PER_ROW,
    MAX_ROWS,
    Block,
    ButtonSpec,
    Component,
    Layout,
    Style,
    Text,
)
from bot.render.names import safe_name
from bot.sessions.model import Ending, Seat, Session, Status


def session_ref(session: Session, action: ClickAction, arg: str = "") -> ComponentRef:
    """A component's target: this session at the version being shown."""
    assert session.id is not None
    return ComponentRef(action, session.id, session.version, arg)


def footer(session: Session) -> Text:
    """The last block of every live message: which game it is."""
    return Text(t("session.footer", id=session.id))


def heading(title: str, text: str = "") -> Text:
    """A titled block: the title as a small heading, then the text."""
    return Text(t("block.heading", title=title) + (f"\n{text}" if text else ""))


def section(name: str, lines: list[str]) -> Text:
    """A named list (the lobby's players, its options, the standings)."""
    return Text(t("block.section", name=name) + "\n" + ("\n".join(lines) or "—"))


def message_link(session: Session) -> str:
    """A link to the session's live message (to its channel while it has none)."""
    # Discord's links to a DM or group DM have "@me" where a server's id goes.
    place = session.guild_id or "@me"
    channel = f"https://discord.com/channels/{place}/{session.channel_id}"
    return channel if session.message_id is None else f"{channel}/{session.message_id}"


def moved_blocks(session: Session, *, game: str) -> tuple[Block, ...]:
    """An older copy of the live message (after /<game> status): where it went."""
    return (heading(game, t("session.moved", link=message_link(session))), footer(session))


def lobby_blocks(
    session: Session, *, game: str, players: tuple[int, int], options: list[str]
) -> tuple[Block, ...]:
    """The lobby of a game called `game`, with its option lines."""
    low, high = players
    host = safe_name(session.host_name)
    lines = [
        t(_lobby_line_key(session, seat), position=position, name=safe_name(seat.name))
        for position, seat in enumerate(session.seats, start=1)
    ]
    return (
        heading(
            t("lobby.title", game=game),
            t("lobby.description", host=host, min=low, max=high, game=game),
        ),
        section(t("lobby.players", count=len(session.seats), max=high), lines),
        section(t("lobby.options"), options),
        footer(session),
    )


def _lobby_line_key(session: Session, seat: Seat) -> str:
    if seat.is_bot:
        return "lobby.player.bot"
    return "lobby.player.host" if seat.user_id == session.host_id else "lobby.player"


def closed_lobby_blocks(session: Session, *, game: str) -> tuple[Block, ...]:
    closer = session.closed_by
    text = t("lobby.closed.by", name=safe_name(closer)) if closer else t("lobby.closed")
    return (heading(t("lobby.title", game=game), text), footer(session))


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
            # Not red, and it asks first: it sits next to Start.
            ButtonSpec(session_ref(session, ClickAction.CANCEL), t("lobby.button.cancel")),
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


def final_layout(session: Session, *, reviewed: bool = False) -> Layout:
    """Play again (after a practice game, Start a real game), and with `reviewed` (a
    finished game of a game that reviews them) Review beside it."""
    if session.practice:  # the lesson is over: on to a game that counts
        ref = session_ref(session, ClickAction.REAL)
        row: list[Component] = [
            ButtonSpec(ref, t("learn.button.real_game"), Style.SUCCESS, emoji="🎲")
        ]
    else:
        label = t("game.button.play_again")
        row = [
            ButtonSpec(session_ref(session, ClickAction.AGAIN), label, Style.SUCCESS, emoji="🔁")
        ]
    if reviewed and session.ending is Ending.FINISHED:
        review = session_ref(session, ClickAction.REVIEW)
        row.append(ButtonSpec(review, t("review.button"), Style.SECONDARY, emoji="🔍"))
    return [row]


def end_confirm_layout(session: Session) -> Layout:
    """The confirm button of /<game> end and of the lobby's Cancel (closing a lobby)."""
    key = "lobby.button.close" if session.status is Status.LOBBY else "end.button.confirm"
    return [[ButtonSpec(session_ref(session, ClickAction.END), t(key), Style.DANGER)]]


def with_table(layout: Layout, session: Session) -> Layout:
    """`layout` with Open the table (the game as a Discord Activity): on the last row
    of buttons if it has room, else on a row of its own; unchanged where neither fits
    (the App Launcher still opens it)."""
    button = ButtonSpec(
        session_ref(session, ClickAction.TABLE), t("table.launch.button"), emoji="🎮"
    )
    rows = [list(row) for row in layout]
    last = rows[-1] if rows else []
    if last and len(last) < MAX_PER_ROW and all(isinstance(item, ButtonSpec) for item in last):
        return [*rows[:-1], [*last, button]]
    if len(rows) < MAX_ROWS:
        return [*rows, [button]]
    return rows


def waiting_block(session: Session, to_move: Seat | None) -> Text:
    """The live message's last words before its token runs out (only interactions reach
    it): the game goes on by itself (or at the table), and what happens next."""
    at_table = f"{t('continue.at_table')}\n" if session.at_table else ""
    if to_move is not None and to_move.computer_plays:
        next_line = t("continue.next.computer", name=safe_name(to_move.name))
    elif to_move is not None and session.deadline is not None:
        when = f"<t:{int(session.deadline)}:R>"
        next_line = t("continue.next.timer", name=safe_name(to_move.name), when=when)
    else:
        next_line = ""
    return Text(at_table + t("continue.notice", next=next_line).strip())


def with_continue(layout: Layout, session: Session) -> Layout:
    """`layout` with the Continue button (anyone at the table brings the message up to
    date with it): a row of its own where there is room, else at the end of the last."""
    button = ButtonSpec(
        session_ref(session, ClickAction.CONTINUE),
        t("game.button.continue"),
        Style.PRIMARY,
        emoji="⏩",
    )
    rows = [list(row) for row in layout]
    if len(rows) < MAX_ROWS:
        return [*rows, [button]]
    last = rows[-1]
    if len(last) < MAX_PER_ROW and all(isinstance(item, ButtonSpec) for item in last):
        return [*rows[:-1], [*last, button]]
    return [*rows[:-1], [button]]  # a full message: its last row gives way
