"""Sessions at known moments, with forced dice, for the table's scenes: the tests' and
the sample file's (tests/table/sample_scenes.py). Each builder returns a `Moment`: the
session, its game, who looks at it and the events of the change that made it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.picker.engine import Colour, Pick, RollDice
from bot.games.picker.engine import Game as PickerGame
from bot.games.picker.engine import event_to_dict as picker_event
from bot.games.picker.plugin import PICKER
from bot.games.pickomino.engine import Face, Game, Keep, LowerTile, Roll, Rules
from bot.games.pickomino.engine.actions import Claim
from bot.games.pickomino.engine.claims import ClaimOption
from bot.games.pickomino.engine.events import event_to_dict as pickomino_event
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.plugin import PICKOMINO
from bot.plugin.game_plugin import GamePlugin
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, RatingChange, Seat, Session, Status

ANNE, BOB, CARA, DMITRI, EVE = 101, 102, 103, 104, 105
PEOPLE = {ANNE: "Anne", BOB: "Bob", CARA: "Cara", DMITRI: "Dmitri", EVE: "Eve"}
NOW = 1_800_000_000.0


@dataclass
class Moment:
    session: Session
    game: GamePlugin
    viewer: int | None
    events: list[GameEvent] = field(default_factory=list)
    story: list[GameEvent] = field(default_factory=list)  # an ended game's every event


def seats(people: Sequence[int], bots: Sequence[tuple[str, str]] = ()) -> list[Seat]:
    """People by user id, then computer players (name, level) with negative ids."""
    made = [Seat(user_id, PEOPLE.get(user_id, f"Player {user_id}")) for user_id in people]
    made += [
        Seat(-index, name, is_bot=True, bot_level=level)
        for index, (name, level) in enumerate(bots, start=1)
    ]
    return made


def session_of(game: GamePlugin, seated: list[Seat], state: Any = None, **fields: Any) -> Session:
    session = Session(
        game.kind, 1, 2, seated[0].user_id, seated, id=42, version=7, created_at=int(NOW)
    )
    for name, value in fields.items():
        setattr(session, name, value)
    if state is not None:
        session.game = state
        session.status = Status.PLAYING
        session.started_at = int(NOW)
    return session


def faces(text: str) -> tuple[Face, ...]:
    return tuple(Face.parse(char) for char in text)


def pickomino_steps(
    session: Session, *steps: str, story: list[GameEvent] | None = None
) -> list[GameEvent]:
    """Play steps on the session's game (`roll:44W1`, `keep:4`, `grill:27`,
    `steal:27.102`), each step a change: returns the last change's events (and adds
    every event to `story`)."""
    game: Game = session.game
    events: list[GameEvent] = []
    for step in steps:
        kind, _, arg = step.partition(":")
        if kind == "roll":
            done = game.apply(Roll(faces(arg)))
        elif kind == "keep":
            done = game.apply(Keep(Face.parse(arg)))
        elif kind == "grill":
            done = game.apply(Claim(ClaimOption.grill(int(arg))))
        else:
            tile, _, victim = arg.partition(".")
            done = game.apply(Claim(ClaimOption.steal(int(tile), victim)))
        events = [pickomino_event(event) for event in done]
        session.remember(events)
        session.version += 1
        if story is not None:
            story.extend(events)
    return events


def pickomino_position(
    stacks: dict[int, list[int]], rules: Rules | None = None, **more: Any
) -> Game:
    """Every tile not held, turned or beside a stack is on the grill."""
    rules = rules or Rules()
    named = {str(player): tiles for player, tiles in stacks.items()}
    extras = {str(player): tiles for player, tiles in (more.pop("extras", None) or {}).items()}
    held = {tile for tiles in (*named.values(), *extras.values()) for tile in tiles}
    if "bratwurms" in more:
        more["bratwurms"] = {str(player): count for player, count in more["bratwurms"].items()}
    face_down = tuple(more.pop("face_down", ()))
    grill = [tile for tile in rules.layout.all_tiles if tile not in held | set(face_down)]
    return Game.from_position(
        list(named),
        rules,
        grill=grill,
        face_down=face_down,
        stacks=named,
        extras=extras or None,
        **more,
    )


# ------------------------------------------------------------------- Pickomino


def pickomino_lobby() -> Moment:
    seated = seats([ANNE, BOB], [("Pip (Hard)", "hard")])
    session = session_of(PICKOMINO, seated, options={"extrawurm": True}, timer_seconds=120)
    return Moment(session, PICKOMINO, ANNE)


def pickomino_lobby_watching() -> Moment:
    moment = pickomino_lobby()
    moment.viewer = CARA
    return moment


def three_players() -> list[Seat]:
    return seats([ANNE, BOB], [("Pip (Hard)", "hard")])


def pickomino_mid_roll() -> Moment:
    """Anne kept three 5s; a roll of five dice is on the table (worm, 4, 4, 3, 1)."""
    state = pickomino_position(
        {ANNE: [22, 27], BOB: [25], -1: [30]}, face_down=(36,), current=str(ANNE)
    )
    session = session_of(PICKOMINO, three_players(), state, timer_seconds=120)
    session.clock.turn_started = NOW
    events = pickomino_steps(session, "roll:WW445551", "keep:5", "roll:W4431")
    return Moment(session, PICKOMINO, ANNE, events)


def pickomino_steal() -> Moment:
    """Anne has 27 with a worm: take 26 from the grill or steal 27 from Bob."""
    state = pickomino_position({ANNE: [22], BOB: [25, 27], -1: [30]}, current=str(ANNE))
    session = session_of(PICKOMINO, three_players(), state)
    events = pickomino_steps(
        session, "roll:WW444512", "keep:W", "roll:444512", "keep:4", "roll:512", "keep:5"
    )
    return Moment(session, PICKOMINO, ANNE, events)


def pickomino_bust() -> Moment:
    """Anne rolled only faces she had kept: 27 back to the grill, 36 turned; Bob to move."""
    state = pickomino_position({ANNE: [22, 27], BOB: [25], -1: [30]}, current=str(ANNE))
    session = session_of(PICKOMINO, three_players(), state)
    events = pickomino_steps(session, "roll:WW445551", "keep:5", "roll:W4431", "keep:4", "roll:554")
    return Moment(session, PICKOMINO, BOB, events)


def extrawurm_session(current: int) -> Session:
    """Four players with the expansion: Anne holds the Weasel, Bob the Golden Die and
    13, Cara the Canned Worm and two Bratwurms; the Hen and the Raven sit on the grill."""
    rules = Rules(extrawurm=True)
    state = pickomino_position(
        {ANNE: [22, 28], BOB: [26], CARA: [24], DMITRI: []},
        rules,
        extras={BOB: [13]},
        specialists={
            Specialist.WEASEL: str(ANNE),
            Specialist.GOLDEN_DIE: str(BOB),
            Specialist.CANNED_WORM: str(CARA),
        },
        bratwurms={CARA: 2, ANNE: 1},
        current=str(current),
    )
    return session_of(
        PICKOMINO, seats([ANNE, BOB, CARA, DMITRI]), state, options={"extrawurm": True}
    )


def pickomino_extrawurm() -> Moment:
    """Anne rolled: she may keep a face or roll those dice again with the Weasel."""
    session = extrawurm_session(ANNE)
    events = pickomino_steps(session, "roll:WW445551", "keep:5", "roll:W4431")
    return Moment(session, PICKOMINO, ANNE, events)


def pickomino_canned_worm() -> Moment:
    """Cara holds the Canned Worm and kept no worm die: the can is her worm, and her 23
    counts 28."""
    session = extrawurm_session(CARA)
    events = pickomino_steps(session, "roll:55544321", "keep:5", "roll:44321", "keep:4")
    return Moment(session, PICKOMINO, CARA, events)


def pickomino_golden_die() -> Moment:
    """Bob holds the Golden Die: nine dice, the first roll on the table."""
    session = extrawurm_session(BOB)
    events = pickomino_steps(session, "roll:WW4455511")
    return Moment(session, PICKOMINO, BOB, events)


def pickomino_end() -> Moment:
    """The last three turns: Pip busts, Anne steals 31 from Bob, Bob takes 21, the last
    tile on the grill: the game is over, ratings changed."""
    state = pickomino_position(
        {ANNE: [22, 27, 33], BOB: [25, 26, 29, 31], -1: []},
        face_down=(23, 24, 28, 30, 32, 34, 35, 36),
        current="-1",
    )
    session = session_of(PICKOMINO, three_players(), state)
    session.ended_at = int(NOW) + 600
    story: list[GameEvent] = []
    pickomino_steps(session, "roll:55555555", "keep:5", story=story)
    steal = ("roll:WWW55541", "keep:W", "roll:55541", "keep:5", "roll:41", "keep:1")
    pickomino_steps(session, *steal, "steal:31.102", story=story)
    take = ("roll:WWW22211", "keep:W", "roll:22211", "keep:2", "grill:21")
    events = pickomino_steps(session, *take, story=story)
    ended(session, [RatingChange(ANNE, 1512, 1538), RatingChange(BOB, 1490, 1471)])
    return Moment(session, PICKOMINO, ANNE, events, story)


def pickomino_five_any_lower() -> Moment:
    """Five players, Extrawurm and "any lower tile": the most claims a turn can offer."""
    rules = Rules(extrawurm=True, lower_tile=LowerTile.ANY)
    state = pickomino_position(
        {ANNE: [], BOB: [36], CARA: [35], DMITRI: [34], EVE: [33]}, rules, current=str(ANNE)
    )
    people = seats([ANNE, BOB, CARA, DMITRI, EVE])
    for seat in people:
        seat.name = f"{seat.name} with a long display name"[:32]
    session = session_of(PICKOMINO, people, state, options={"extrawurm": True, "lower_tile": "any"})
    events = pickomino_steps(session, "roll:WWWW5555", "keep:W", "roll:5555", "keep:5")
    return Moment(session, PICKOMINO, ANNE, events)


def ended(session: Session, ratings: list[RatingChange]) -> None:
    session.status = Status.OVER
    session.ending = Ending.FINISHED
    session.ended_at = int(NOW) + 600
    session.rating_changes = tuple(ratings)


# ---------------------------------------------------------------------- Picker


def picker_steps(session: Session, *steps: str) -> list[GameEvent]:
    """`roll:3526` or `pick:red`, each a change (a pick that ends a round is followed by
    the next round's roll in the same change, as the adapter plays it)."""
    game: PickerGame = session.game
    events: list[GameEvent] = []
    for step in steps:
        kind, _, arg = step.partition(":")
        if kind == "roll":
            done = game.apply(RollDice(tuple(int(char) for char in arg)))
            events = [*events, *(picker_event(event) for event in done)]
            session.remember([picker_event(event) for event in done])
            continue
        done = game.apply(Pick(Colour(arg)))
        events = [picker_event(event) for event in done]
        session.remember(events)
        session.version += 1
    return events


def picker_round() -> Moment:
    """Four players in round 2: Bob kept the lowest number; Cara to pick."""
    people = seats([ANNE, BOB, CARA], [("Dot", "normal")])
    state = PickerGame([seat.player_id for seat in people], first=0, computer=["-1"])
    session = session_of(PICKER, people, state)
    picker_steps(session, "roll:3526", "pick:yellow", "pick:green", "pick:orange", "pick:red")
    picker_steps(session, "roll:4146", "pick:green")
    events = picker_steps(session, "pick:orange")
    return Moment(session, PICKER, CARA, events)


def picker_end() -> Moment:
    """Three players, six rounds played, each keeping the highest die left."""
    people = seats([ANNE, BOB, CARA])
    state = PickerGame([seat.player_id for seat in people], first=0)
    session = session_of(PICKER, people, state)
    events: list[GameEvent] = []
    for roll in ("615", "526", "462", "632", "551", "364"):
        picker_steps(session, f"roll:{roll}")
        for _ in range(3):
            highest = max(state.available(), key=state.value_of)
            events = picker_steps(session, f"pick:{highest.value}")
    assert state.is_over
    ended(session, [RatingChange(ANNE, 1500, 1524), RatingChange(BOB, 1500, 1490)])
    return Moment(session, PICKER, ANNE, events)


def picker_eight() -> Moment:
    """Eight players in the last round, everyone holding fifteen dice: the largest
    Picker scene."""
    people = seats([ANNE, BOB, CARA, DMITRI, EVE], [("Dot", "hard"), ("Pebble", "normal"),
                   ("Domino", "easy")])  # fmt: skip
    state = PickerGame([seat.player_id for seat in people], first=0)
    session = session_of(PICKER, people, state)
    events: list[GameEvent] = []
    for round_number in range(16):
        game: PickerGame = session.game
        if game.is_over:
            break
        values = "".join(str(1 + (round_number + index) % 6) for index in range(8))
        picker_steps(session, f"roll:{values}")
        for step in range(8 if round_number < 15 else 7):
            available = game.available()
            events = picker_steps(session, f"pick:{available[step % len(available)].value}")
    return Moment(session, PICKER, BOB, events)


SCENES: dict[str, Callable[[], Moment]] = {
    "pickomino_lobby": pickomino_lobby,
    "pickomino_lobby_watching": pickomino_lobby_watching,
    "pickomino_mid_roll": pickomino_mid_roll,
    "pickomino_steal": pickomino_steal,
    "pickomino_bust": pickomino_bust,
    "pickomino_extrawurm": pickomino_extrawurm,
    "pickomino_canned_worm": pickomino_canned_worm,
    "pickomino_golden_die": pickomino_golden_die,
    "pickomino_end": pickomino_end,
    "pickomino_five_any_lower": pickomino_five_any_lower,
    "picker_round": picker_round,
    "picker_end": picker_end,
    "picker_eight": picker_eight,
}
