"""The table's scene: what the page in Discord's Activity draws of a channel's session,
as JSON-ready data the page draws without knowing the game (the shape is fixed in the
table's protocol: every string translated, every string text, never markup).

The platform builds the parts every game shares (the phase, who the viewer is, the
lobby, the turn clock, the end's places, rating changes and Review, the lobby's and the
end's actions) around the parts a game gives through its `TableScene`: its players,
board, dice, lines, moves and the cue of the last change. A game without one is shown
with its players and whose turn it is, and no moves.

`scene_of` words everything in the language in force (`with_locale`), and inside
`plain_text()`: the game's own message functions write names as given, no markdown
and Unicode pictures, so the table says what the live message says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NotRequired, Protocol, TypedDict

from bot.i18n import DEFAULT_LOCALE, catalog, current_locale, t, with_locale
from bot.render.custom_ids import ClickAction
from bot.render.names import safe_name
from bot.render.plain_text import plain_text, unmarked
from bot.render.ratings import rating_line
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Seat, Session, Status

if TYPE_CHECKING:
    from bot.plugin.game_plugin import GamePlugin

PAGE_WORDS = "table.page."  # the page's own fixed strings: their keys' prefix
START = "open"  # the start scene's action: open a lobby of the game `arg`

Phase = Literal["start", "lobby", "playing", "ended"]
Style = Literal["primary", "secondary", "success", "danger"]
Group = Literal["dice", "board", "turn", "lobby", "end"]
PieceState = Literal["free", "taken", "turned", "top", "gone"]
CueKind = Literal["roll", "keep", "take", "steal", "bust", "turn", "end", "join"]


class Piece(TypedDict):
    """A tile, a die on a board, a token: drawn as its picture or its label."""

    id: str
    label: str
    name: str  # the accessible name
    picture: str | None  # a relative URL on the table's origin (`picture()`)
    value: int | None
    marks: int | None  # worms on a tile, times a colour was kept, ...
    state: PieceState
    colour: str | None  # "#rrggbb"


class Die(TypedDict):
    id: str
    face: str
    name: str
    picture: str | None
    colour: str | None
    kept: bool


class Action(TypedDict):
    """A button: what it sends (`action`, `arg`, with the session and version)."""

    action: str
    arg: str  # "" for none
    label: str
    name: str  # the accessible name
    style: Style
    group: Group
    enabled: bool
    target: NotRequired[str]  # the piece or die it is about


class Stack(TypedDict):
    top: Piece | None
    count: int


class Player(TypedDict):
    seat: int
    name: str
    you: bool
    to_move: bool
    left: bool
    level: str | None  # a computer player's level, as text
    score: str
    stack: Stack | None
    pieces: list[Piece]


class Board(TypedDict):
    label: str
    pieces: list[Piece]


class Dice(TypedDict):
    label: str
    rolled: list[Die]
    kept: list[Die]
    sum: str


class Cue(TypedDict):
    """What the last change did, for the page to animate."""

    kind: CueKind
    text: str
    ids: list[str]


class Clock(TypedDict):
    deadline: int  # epoch milliseconds
    total: int  # seconds


class You(TypedDict):
    seat: int | None  # None: watching
    host: bool


class Lobby(TypedDict):
    host: str
    options: list[str]
    seats: str
    levels: list[str]


class Place(TypedDict):
    place: int
    name: str
    score: str
    you: bool


class End(TypedDict):
    places: list[Place]
    ratings: list[str]
    review: bool
    outcome: str


class GameChoice(TypedDict):
    kind: str
    title: str


class Start(TypedDict):
    games: list[GameChoice]


class Scene(TypedDict):
    kind: str | None
    title: str
    phase: Phase
    you: You
    headline: str
    prompt: str | None
    notice: str | None
    clock: Clock | None
    players: list[Player]
    board: Board | None
    dice: Dice | None
    actions: list[Action]
    cue: Cue | None
    log: list[str]
    lobby: Lobby | None
    end: End | None
    start: Start | None


class GameParts(TypedDict):
    """A game's own parts of the scene of its game in play."""

    headline: str  # the state of play, one line
    prompt: str | None  # the turn's "what now" line
    notice: str | None  # a setback that just happened
    players: list[Player]  # in seat order (`player()`)
    board: Board | None
    dice: Dice | None
    actions: list[Action]  # the viewer's moves: only when `mover()` is theirs
    cue: Cue | None
    log: list[str]


class EndedParts(GameParts):
    """A game's own parts of the scene of its ended game (finished or abandoned)."""

    places: list[Place]  # best first (`place()`)
    outcome: str  # who won, or that it was abandoned


class TableScene(Protocol):
    """How a game draws itself at the table, in the language in force and as plain text
    (both set by `scene_of`). `viewer` is the user id of the person looking (None: nobody
    seated, a watcher's); `events` are the events of the change that made this version
    (for the cue), or none."""

    def playing(
        self, session: Session, viewer: int | None, events: Sequence[GameEvent]
    ) -> GameParts:
        """The game in progress."""
        ...

    def ended(
        self,
        session: Session,
        viewer: int | None,
        events: Sequence[GameEvent],
        story: Sequence[GameEvent],
    ) -> EndedParts:
        """The ended game, drawn from its final state; `story` is all its stored events
        (none when they are not at hand), from which its end may tell more, as the end
        screen of the live message does."""
        ...


# ----------------------------------------------------------------------- the scene


def scene_of(
    session: Session,
    game: GamePlugin,
    viewer: int | None,
    events: Sequence[GameEvent] = (),
    *,
    locale: str | None = None,
    story: Sequence[GameEvent] = (),
) -> Scene:
    """The scene of `session` (a game of `game`) for `viewer`, a person's user id (None
    for someone with no seat), in `locale` (by default the language in force).
    `events` are the events of the change that made this version: its cue. `story`,
    for an ended game, is all its stored events (bot.sessions.service's
    `ended_events`): its end then tells what the live message's end screen tells."""
    with with_locale(locale or current_locale.get()), plain_text():
        if session.status is Status.LOBBY:
            return _lobby_scene(session, game, viewer)
        if session.status is Status.PLAYING and session.game is not None:
            return _playing_scene(session, game, viewer, events)
        if session.game is None or session.ending is Ending.CANCELLED:
            return _closed_scene(session, game, viewer)
        return _ended_scene(session, game, viewer, events, story)


def start_scene(games: Sequence[GamePlugin], *, locale: str | None = None) -> Scene:
    """The scene of a channel with no game: each served game, to open a lobby of."""
    with with_locale(locale or current_locale.get()), plain_text():
        choices: list[GameChoice] = [{"kind": game.kind, "title": game.title} for game in games]
        actions = [
            action(
                START,
                choice["kind"],
                choice["title"],
                t("table.action.open.name", game=choice["title"]),
                style="primary",
                group="lobby",
            )
            for choice in choices
        ]
        scene = _blank(None, t("table.start.title"), "start", t("table.start.headline"))
        scene["prompt"] = t("table.start.prompt")
        scene["actions"] = actions
        scene["start"] = {"games": choices}
        return scene


def page_words(locale: str | None) -> dict[str, str]:
    """The page's own fixed strings in `locale` (any code; English for one we lack):
    `table.page.connecting` is `words["connecting"]`."""
    with with_locale(locale):
        keys = [key for key in catalog(DEFAULT_LOCALE) if key.startswith(PAGE_WORDS)]
        return {key.removeprefix(PAGE_WORDS): t(key) for key in keys}


# ------------------------------------------------------------- what games build on


def action(
    kind: str,
    arg: str,
    label: str,
    name: str,
    *,
    style: Style = "secondary",
    group: Group = "turn",
    enabled: bool = True,
    target: str | None = None,
) -> Action:
    """A button of the scene. `kind` is a click's action (a move is "move" with the
    move string as `arg`)."""
    made: Action = {
        "action": kind,
        "arg": arg,
        "label": label,
        "name": name,
        "style": style,
        "group": group,
        "enabled": enabled,
    }
    if target is not None:
        made["target"] = target
    return made


def move(
    arg: str,
    label: str,
    name: str,
    *,
    style: Style = "primary",
    group: Group = "turn",
    target: str | None = None,
) -> Action:
    """A move's button: `arg` is the move string the game's adapter plays."""
    return action(ClickAction.MOVE, arg, label, name, style=style, group=group, target=target)


def picture(kind: str, emoji: str) -> str:
    """The relative URL the table serves a game's emoji picture at."""
    return f"pictures/{kind}/{emoji}.png"


def mover(session: Session, viewer: int | None, current: str | None) -> str | None:
    """The viewer's player id when it is their turn (`current` is the player to move)
    and a person plays their seat: whose moves the scene offers. None otherwise."""
    if viewer is None or current is None:
        return None
    seat = session.seat(viewer)
    if seat is None or seat.computer_plays or seat.player_id != current:
        return None
    return seat.player_id


def player(
    session: Session,
    player_id: str,
    viewer: int | None,
    *,
    to_move: bool,
    score: str,
    stack: Stack | None = None,
    pieces: list[Piece] | None = None,
) -> Player:
    """A player of the scene: who they are (from their seat) and what the game says of
    their score, stack and pieces."""
    seat = session.seat_by_player(player_id)
    return {
        "seat": _seat_index(session, player_id),
        "name": safe_name(seat.name if seat else player_id),
        "you": seat is not None and viewer is not None and seat.user_id == viewer,
        "to_move": to_move,
        "left": seat is not None and seat.left,
        "level": _level(seat),
        "score": score,
        "stack": stack,
        "pieces": pieces or [],
    }


def place(session: Session, player_id: str, viewer: int | None, rank: int, score: str) -> Place:
    """One line of the end's places."""
    seat = session.seat_by_player(player_id)
    return {
        "place": rank,
        "name": safe_name(seat.name if seat else player_id),
        "score": score,
        "you": seat is not None and viewer is not None and seat.user_id == viewer,
    }


# ----------------------------------------------------------------------- phases


def _lobby_scene(session: Session, game: GamePlugin, viewer: int | None) -> Scene:
    adapter = game.adapter
    host = safe_name(session.host_name)
    scene = _blank(
        game.kind, game.title, "lobby", t("table.lobby.headline", game=game.title, host=host)
    )
    scene["you"] = _you(session, viewer)
    seated = viewer is not None and session.seat(viewer) is not None
    if viewer == session.host_id:
        scene["prompt"] = t("table.lobby.prompt.host", min=adapter.min_players)
    elif seated:
        scene["prompt"] = t("table.lobby.prompt.seated", host=host)
    else:
        scene["prompt"] = t("table.lobby.prompt.watching")
    scene["players"] = [
        player(session, seat.player_id, viewer, to_move=False, score="") for seat in session.seats
    ]
    options = game.renderer.options_lines(session.options, session.timer_seconds, session.hints)
    scene["lobby"] = {
        "host": host,
        "options": [unmarked(line) for line in options],
        "seats": t(
            "table.lobby.seats",
            count=len(session.seats),
            min=adapter.min_players,
            max=adapter.max_players,
        ),
        "levels": [t(f"lobby.bot_level.{level}") for level in adapter.bot_levels],
    }
    scene["actions"] = _lobby_actions(session, game, viewer, seated)
    return scene


def _lobby_actions(
    session: Session, game: GamePlugin, viewer: int | None, seated: bool
) -> list[Action]:
    adapter = game.adapter
    full = len(session.active_seats) >= adapter.max_players
    actions: list[Action] = []
    if viewer is not None and not seated:
        actions.append(
            action(
                ClickAction.JOIN,
                "",
                t("lobby.button.join"),
                t("table.action.join.name", game=game.title),
                style="success",
                group="lobby",
                enabled=not full,
            )
        )
    if viewer != session.host_id:
        if seated:
            actions.append(
                action(
                    ClickAction.LEAVE,
                    "",
                    t("lobby.button.leave"),
                    t("table.action.leave.name"),
                    group="lobby",
                )
            )
        return actions
    actions.append(
        action(
            ClickAction.START,
            "",
            t("lobby.button.start"),
            t("table.action.start.name", game=game.title),
            style="primary",
            group="lobby",
            enabled=len(session.seats) >= adapter.min_players,
        )
    )
    for level in adapter.bot_levels:
        shown = t(f"lobby.bot_level.{level}")
        actions.append(
            action(
                ClickAction.BOT,
                level,
                t("table.action.bot", level=shown),
                t("table.action.bot.name", level=shown),
                group="lobby",
                enabled=not full,
            )
        )
    if session.bot_seats:
        actions.append(
            action(
                ClickAction.DROP_BOT,
                "",
                t("lobby.button.remove_bot"),
                t("table.action.dropbot.name", name=safe_name(session.bot_seats[-1].name)),
                group="lobby",
            )
        )
    actions.append(
        action(
            ClickAction.LEAVE,
            "",
            t("lobby.button.leave"),
            t("table.action.leave.name"),
            group="lobby",
        )
    )
    actions.append(
        action(
            ClickAction.CANCEL,
            "",
            t("lobby.button.cancel"),
            t("table.action.cancel.name"),
            style="danger",
            group="lobby",
        )
    )
    return actions


def _playing_scene(
    session: Session, game: GamePlugin, viewer: int | None, events: Sequence[GameEvent]
) -> Scene:
    table = game.table
    parts = (
        _plain_parts(session, game, viewer)
        if table is None
        else table.playing(session, viewer, events)
    )
    scene = _with_parts(_blank(game.kind, game.title, "playing", parts["headline"]), parts)
    scene["you"] = _you(session, viewer)
    deadline = session.deadline
    if deadline is not None and session.timer_seconds is not None:
        scene["clock"] = {"deadline": int(deadline * 1000), "total": session.timer_seconds}
    current = game.adapter.current_player(session.game)
    if session.hints and mover(session, viewer, current) is not None:
        scene["actions"].append(
            action(ClickAction.HINT, "", t("game.button.hint"), t("table.action.hint.name"))
        )
    if viewer is not None and viewer == session.host_id:
        scene["actions"].append(
            action(
                ClickAction.END,
                "",
                t("end.button.confirm"),
                t("table.action.end.name", game=game.title),
                style="danger",
                group="end",
            )
        )
    return scene


def _ended_scene(
    session: Session,
    game: GamePlugin,
    viewer: int | None,
    events: Sequence[GameEvent],
    story: Sequence[GameEvent],
) -> Scene:
    table = game.table
    if table is None:
        parts = _plain_parts(session, game, viewer)
        outcome = t("table.ended")
        places: list[Place] = []
    else:
        ended = table.ended(session, viewer, events, story)
        parts, outcome, places = ended, ended["outcome"], ended["places"]
    scene = _with_parts(_blank(game.kind, game.title, "ended", outcome), parts)
    scene["you"] = _you(session, viewer)
    reviewed = game.reviewer is not None and session.ending is Ending.FINISHED
    scene["end"] = {
        "places": places,
        "ratings": _rating_lines(session),
        "review": reviewed,
        "outcome": outcome,
    }
    if viewer is not None and session.seat(viewer) is not None and not session.practice:
        scene["actions"].append(
            action(
                ClickAction.AGAIN,
                "",
                t("game.button.play_again"),
                t("table.action.again.name"),
                style="success",
                group="end",
            )
        )
    if reviewed:
        scene["actions"].append(
            action(
                ClickAction.REVIEW,
                "",
                t("review.button"),
                t("table.action.review.name"),
                group="end",
            )
        )
    return scene


def _closed_scene(session: Session, game: GamePlugin, viewer: int | None) -> Scene:
    """A lobby closed before its game began."""
    closer = session.closed_by
    text = t("lobby.closed.by", name=safe_name(closer)) if closer else t("lobby.closed")
    scene = _blank(game.kind, game.title, "ended", text)
    scene["you"] = _you(session, viewer)
    scene["players"] = [
        player(session, seat.player_id, viewer, to_move=False, score="") for seat in session.seats
    ]
    scene["end"] = {"places": [], "ratings": [], "review": False, "outcome": text}
    return scene


def _plain_parts(session: Session, game: GamePlugin, viewer: int | None) -> GameParts:
    """A game without a table of its own: its players and whose turn it is."""
    current = game.adapter.current_player(session.game)
    headline = (
        t("table.turn_of", name=safe_name(session.name_of(current)))
        if current is not None
        else t("table.ended")
    )
    players = [
        player(session, seat.player_id, viewer, to_move=seat.player_id == current, score="")
        for seat in session.seats
    ]
    return {
        "headline": headline,
        "prompt": None,
        "notice": None,
        "players": players,
        "board": None,
        "dice": None,
        "actions": [],
        "cue": None,
        "log": [],
    }


# ----------------------------------------------------------------------- helpers


def _blank(kind: str | None, title: str, phase: Phase, headline: str) -> Scene:
    return {
        "kind": kind,
        "title": title,
        "phase": phase,
        "you": {"seat": None, "host": False},
        "headline": headline,
        "prompt": None,
        "notice": None,
        "clock": None,
        "players": [],
        "board": None,
        "dice": None,
        "actions": [],
        "cue": None,
        "log": [],
        "lobby": None,
        "end": None,
        "start": None,
    }


def _with_parts(scene: Scene, parts: GameParts) -> Scene:
    scene["prompt"] = parts["prompt"]
    scene["notice"] = parts["notice"]
    scene["players"] = parts["players"]
    scene["board"] = parts["board"]
    scene["dice"] = parts["dice"]
    scene["actions"] = list(parts["actions"])
    scene["cue"] = parts["cue"]
    scene["log"] = parts["log"]
    return scene


def _you(session: Session, viewer: int | None) -> You:
    if viewer is None:
        return {"seat": None, "host": False}
    seat = session.seat(viewer)
    index = None if seat is None else _seat_index(session, seat.player_id)
    return {"seat": index, "host": viewer == session.host_id}


def _seat_index(session: Session, player_id: str) -> int:
    for index, seat in enumerate(session.seats):
        if seat.player_id == player_id:
            return index
    return -1


def _level(seat: Seat | None) -> str | None:
    if seat is None or not seat.is_bot or not seat.bot_level:
        return None
    return t(f"lobby.bot_level.{seat.bot_level}")


def _rating_lines(session: Session) -> list[str]:
    names = {seat.user_id: seat.name for seat in session.seats}
    return [
        rating_line(safe_name(names.get(change.user_id, str(change.user_id))), change)
        for change in session.rating_changes
    ]
