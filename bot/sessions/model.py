"""A session: one channel's lobby or game, its seats, options and turn clock.

Game-agnostic: the game itself is an opaque object that the session's GameAdapter
stores, copies and plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.i18n import DEFAULT_LOCALE, supported
from bot.sessions.adapter import AnyAdapter
from bot.sessions.clock import TurnClock
from bot.storage.sessions import SessionRow

LOG_LENGTH = 8  # recent events kept for the live message
# The clicks whose changes made the last versions, kept with the state
# (bot.connection.inflight): a process killed between a commit and its journal's mark of
# it left a click that its successor finds played. A game moves on a version at a time,
# by one click or a timer.
CLICKS_KEPT = 4


class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class Place(StrEnum):
    """Where a session is played, which decides what the bot may do there with its own
    token. Discord tells it with every interaction (`context`, `authorizing_integration_owners`)."""

    SERVER = "server"  # a server the bot is a member of (installed to the server)
    # A server where only a person installed the app: the bot token can do nothing there.
    SERVER_WITHOUT_BOT = "server_without_bot"
    GROUP_DM = "group_dm"  # a group DM, or a DM between two people: interactions only
    BOT_DM = "bot_dm"  # the person's DM with the bot itself

    @property
    def bot_token_works(self) -> bool:
        """Whether the bot's own token may post, edit and delete in the channel."""
        return self in (Place.SERVER, Place.BOT_DM)

    @property
    def has_guild(self) -> bool:
        return self in (Place.SERVER, Place.SERVER_WITHOUT_BOT)


class Ending(StrEnum):
    FINISHED = "finished"
    ABANDONED = "abandoned"  # ended by a player, by leaving, or by the timer
    CANCELLED = "cancelled"  # the lobby closed before the game began


@dataclass(slots=True)
class Seat:
    """A player: a Discord user, or a computer player (`is_bot`, `bot_level`, a negative id)."""

    user_id: int
    name: str
    is_bot: bool = False
    bot_level: str | None = None
    left: bool = False
    # The person's Discord client language at their last interaction with the session
    # (our code, bot.i18n.LOCALES): what is addressed to them alone (their turn's ping
    # and reminder) is in it. None for computer players, and for seats stored before.
    locale: str | None = None

    @property
    def computer_plays(self) -> bool:
        """A computer moves for this seat: a computer player's, or one a person left in a
        game that keeps the seat (Picker: the number of dice is the number of seats)."""
        return self.is_bot or self.left

    @property
    def player_id(self) -> str:
        """The id the game engines use."""
        return str(self.user_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "is_bot": self.is_bot,
            "bot_level": self.bot_level,
            "left": self.left,
            **({"locale": self.locale} if self.locale is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            user_id=int(data["user_id"]),
            name=str(data["name"]),
            is_bot=bool(data.get("is_bot", False)),
            bot_level=data.get("bot_level"),
            left=bool(data.get("left", False)),
            locale=supported(data["locale"]) if data.get("locale") else None,
        )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a finished game did to a person's skill rating, as the end screen shows it
    (bot.history.ratings' shown scale): set by the game-over hook in the final commit."""

    user_id: int
    before: int
    after: int

    def to_row(self) -> list[int]:
        return [self.user_id, self.before, self.after]


@dataclass(slots=True)
class Session:
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)  # the game's rule options
    timer_seconds: int | None = None  # the turn timer; None is off
    hints: bool = True  # the Hint button is offered to the player to move
    language: str = DEFAULT_LOCALE  # the shared message's language (bot.i18n.LOCALES)
    id: int | None = None
    status: Status = Status.LOBBY
    version: int = 0
    game: Any = None  # the adapter's game object, from the start of play
    message_id: int | None = None  # the live message
    created_at: int = 0
    started_at: int | None = None
    ended_at: int | None = None
    ending: Ending | None = None
    clock: TurnClock = field(default_factory=TurnClock)
    log: list[dict[str, Any]] = field(default_factory=list)
    closed_by: str | None = None  # who closed the lobby (Cancel or /<game> end), by name
    # A practice game (/<game> learn): scripted dice at first, coaching lines, no ranking.
    practice: bool = False
    # Where it is played (a server with the bot, a group DM...): stored with the state.
    place: Place = Place.SERVER
    # Each person's rating before and after the game, in seat order: set at its end.
    rating_changes: tuple[RatingChange, ...] = ()
    # The interaction ids of the last clicks that changed it (CLICKS_KEPT), oldest first.
    clicks: tuple[int, ...] = ()
    # Played at the table (the Discord Activity) too: where its live message stops
    # following (only interactions reach it), its last words say so.
    at_table: bool = False

    # ----------------------------------------------------------------- seats

    def seat(self, user_id: int) -> Seat | None:
        """The seat of a player still in the session."""
        for seat in self.seats:
            if seat.user_id == user_id and not seat.left:
                return seat
        return None

    def seat_by_player(self, player_id: str) -> Seat | None:
        """Any seat, left ones too: for names in the log and the standings."""
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        return None

    def name_of(self, player_id: str) -> str:
        seat = self.seat_by_player(player_id)
        return seat.name if seat else player_id

    @property
    def active_seats(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.left]

    @property
    def bot_seats(self) -> list[Seat]:
        return [seat for seat in self.active_seats if seat.is_bot]

    @property
    def has_people(self) -> bool:
        """Whether a person still sits at the table (bots alone do not play on)."""
        return any(not seat.is_bot for seat in self.active_seats)

    def seat_to_move(self, adapter: AnyAdapter) -> Seat | None:
        """The seat of the player to move, during play."""
        if self.status is not Status.PLAYING or self.game is None:
            return None
        return self.seat_by_player(adapter.current_player(self.game) or "")

    def computer_levels(self) -> dict[str, str]:
        """The level of every seat a computer plays, by player id: "" for the seat of a
        person who left (a game that keeps it plays it at its own level)."""
        return {seat.player_id: seat.bot_level or "" for seat in self.seats if seat.computer_plays}

    @property
    def community_id(self) -> int:
        """What history and leaderboards belong to: the server, or, where there is none
        (a DM, a group DM), the chat itself. `guild_id` is 0 there (Discord sends such
        events to shard 0, so the sharded processes agree on who owns the game)."""
        return self.guild_id or self.channel_id

    @property
    def host_name(self) -> str:
        return self.name_of(str(self.host_id))

    # ----------------------------------------------------------------- clock

    @property
    def deadline(self) -> float | None:
        return self.clock.deadline(self.timer_seconds)

    @property
    def half_time(self) -> float | None:
        return self.clock.half_time(self.timer_seconds)

    def next_timer_instant(self) -> float | None:
        """When the timer next has something to do, during play."""
        if self.status is not Status.PLAYING:
            return None
        return self.clock.next_instant(self.timer_seconds)

    def remember(self, events: list[dict[str, Any]]) -> None:
        self.log = [*self.log, *events][-LOG_LENGTH:]

    def played(self, interaction_id: int) -> None:
        """This change is the click `interaction_id`'s."""
        self.clicks = (*self.clicks, interaction_id)[-CLICKS_KEPT:]

    # ----------------------------------------------------------------- storage

    def copy(self, adapter: AnyAdapter) -> Session:
        """An independent draft to change; the original stays as committed."""
        return replace(
            self,
            seats=[replace(seat) for seat in self.seats],
            options=dict(self.options),
            game=None if self.game is None else adapter.copy(self.game),
            clock=self.clock.copy(),
            log=list(self.log),
        )

    def to_row(self, adapter: AnyAdapter) -> SessionRow:
        state = {
            "host_id": self.host_id,
            "seats": [seat.to_dict() for seat in self.seats],
            "options": self.options,
            "timer_seconds": self.timer_seconds,
            "hints": self.hints,
            "language": self.language,
            "game": None if self.game is None else adapter.dump(self.game),
            "created_at": self.created_at,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "ending": None if self.ending is None else str(self.ending),
            **self.clock.to_dict(),  # at the top level, where the first release kept it
            "log": self.log,
            "closed_by": self.closed_by,
            # Only when set, so every other game's stored state stays as it was.
            **({"practice": True} if self.practice else {}),
            **({"place": str(self.place)} if self.place is not Place.SERVER else {}),
            **(
                {"ratings": [change.to_row() for change in self.rating_changes]}
                if self.rating_changes
                else {}
            ),
            **({"clicks": list(self.clicks)} if self.clicks else {}),
            **({"table": True} if self.at_table else {}),
        }
        return SessionRow(
            id=self.id,
            kind=self.kind,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            status=str(self.status),
            version=self.version,
            state=state,
            message_id=self.message_id,
            deadline=self.next_timer_instant(),
        )

    @classmethod
    def from_row(cls, row: SessionRow, adapter: AnyAdapter) -> Session:
        state = row.state
        game = state.get("game")
        ending = state.get("ending")
        return cls(
            kind=row.kind,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=int(state["host_id"]),
            seats=[Seat.from_dict(seat) for seat in state["seats"]],
            options=dict(state.get("options") or {}),
            timer_seconds=state.get("timer_seconds"),
            hints=bool(state.get("hints", True)),
            language=supported(state.get("language")),  # rows from before languages: English
            id=row.id,
            status=Status(row.status),
            version=row.version,
            game=None if game is None else adapter.load(game),
            message_id=row.message_id,
            created_at=int(state.get("created_at") or 0),
            started_at=state.get("started_at"),
            ended_at=state.get("ended_at"),
            ending=None if ending is None else Ending(ending),
            clock=TurnClock.from_dict(state),
            log=list(state.get("log") or []),
            closed_by=state.get("closed_by"),
            practice=bool(state.get("practice", False)),
            place=Place(state.get("place") or Place.SERVER),
            rating_changes=tuple(
                RatingChange(int(user_id), int(before), int(after))
                for user_id, before, after in state.get("ratings") or ()
            ),
            clicks=tuple(int(each) for each in state.get("clicks") or ()),
            at_table=bool(state.get("table", False)),
        )
