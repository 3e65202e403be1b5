"""Picker at the table, the Activity (bot.plugin.table_scene): the round's coloured dice
on the table (kept ones with who kept them), every player's kept dice by colour and
their score with the colour bonus, the live message's "what now" line, the viewer's
picks as the move strings its buttons send, and the cue of the last change.

Ids are unique within a scene: `die-<colour>` (a die on the table) and
`kept-<player>-<colour>` (the dice of a colour a player kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.picker.adapter import pick_move
from bot.games.picker.engine import Colour, Game
from bot.games.picker.render.coaching import coaching_line, summary_line
from bot.games.picker.render.what_now import what_now
from bot.games.picker.render.what_now_words import what_now_text
from bot.games.picker.words import colour_name, event_line
from bot.i18n import t
from bot.pictures.dice import DieColour
from bot.plugin.table_scene import (
    Action,
    Board,
    Cue,
    EndedParts,
    GameParts,
    Piece,
    Place,
    Player,
    move,
    mover,
    place,
    player,
)
from bot.render.names import safe_name
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Session

LOG_LINES = 6
# Each die's colour as the page draws it: the body of the pictures' die.
HEX: dict[Colour, str] = {
    colour: "#{:02x}{:02x}{:02x}".format(*DieColour[colour.name].body) for colour in Colour
}


class PickerTable:
    def playing(
        self, session: Session, viewer: int | None, events: Sequence[GameEvent]
    ) -> GameParts:
        game: Game = session.game
        headline = t(
            "picker.table.headline",
            round=game.round_number,
            rounds=game.rounds_total,
            name=safe_name(session.name_of(game.current_player)),
        )
        mine = mover(session, viewer, game.current_player)
        return {
            "headline": headline,
            "prompt": _prompt(session, game),
            "notice": None,
            "players": _players(session, game, viewer),
            "board": _table(session, game),
            "dice": None,
            "actions": [] if mine is None else _picks(game),
            "cue": _cue(events, session),
            "log": _log(session),
        }

    def ended(
        self,
        session: Session,
        viewer: int | None,
        events: Sequence[GameEvent],
        story: Sequence[GameEvent],
    ) -> EndedParts:
        game: Game = session.game
        # A practice game's end says what it showed, as the end screen does.
        learned = summary_line(session, game, list(story)) if story else None
        standings = game.standings()
        outcome = _outcome(session, game)
        places: list[Place] = [
            place(session, s.player, viewer, s.rank, _score(s.points, s.bonus)) for s in standings
        ]
        return {
            "headline": outcome,
            "prompt": None,
            "notice": learned,
            "players": _players(session, game, viewer),
            "board": None,
            "dice": None,
            "actions": [],
            "cue": _cue(events, session),
            "log": _log(session),
            "places": places,
            "outcome": outcome,
        }


def _prompt(session: Session, game: Game) -> str | None:
    coach = coaching_line(session, game)
    if coach:
        return coach
    prompt = what_now(game)
    return None if prompt is None else what_now_text(prompt, session.name_of)


def _log(session: Session) -> list[str]:
    lines = (event_line(event, session.name_of) for event in session.log)
    return [line for line in lines if line][-LOG_LINES:]


def _outcome(session: Session, game: Game) -> str:
    if session.ending is Ending.ABANDONED:
        return t("final.abandoned")
    standings = game.standings()
    best = standings[0].score
    winners = [safe_name(session.name_of(s.player)) for s in standings if s.rank == 1]
    if len(winners) > 1:
        return t("picker.final.winners.shared", names=", ".join(winners), count=best)
    return t("picker.final.winner", name=winners[0], count=best)


def _score(points: int, bonus: int) -> str:
    """`12 points`; with a colour bonus `15 points (bonus 3)`."""
    total = t("picker.points", count=points + bonus)
    return t("picker.table.score.bonus", score=total, bonus=bonus) if bonus else total


# ------------------------------------------------------------ players and dice


def _players(session: Session, game: Game, viewer: int | None) -> list[Player]:
    standings = {standing.player: standing for standing in game.standings()}
    current = None if game.is_over else game.current_player
    return [
        player(
            session,
            pid,
            viewer,
            to_move=pid == current,
            score=_score(standings[pid].points, standings[pid].bonus),
            pieces=_kept(game, pid),
        )
        for pid in game.players
    ]


def _kept(game: Game, pid: str) -> list[Piece]:
    """The dice a player kept, a piece per colour: how often and which numbers."""
    by_colour: dict[Colour, list[int]] = {}
    for colour, value in game.kept[pid]:
        by_colour.setdefault(colour, []).append(value)
    pieces: list[Piece] = []
    for colour in game.colours:
        values = by_colour.get(colour)
        if not values:
            continue
        shown = ", ".join(str(value) for value in values)
        pieces.append(
            {
                "id": f"kept-{pid}-{colour.value}",
                "label": " ".join(str(value) for value in values),
                "name": t(
                    "picker.table.kept.name",
                    die=t(f"picker.table.die.{colour.value}"),
                    count=len(values),
                    values=shown,
                ),
                "picture": None,
                "value": sum(values),
                "marks": len(values),
                "state": "taken",
                "colour": HEX[colour],
            }
        )
    return pieces


def _table(session: Session, game: Game) -> Board | None:
    """The round's dice in colour order: those left to keep, and who kept the others."""
    if game.dice is None:
        return None
    seats = len(game.players)
    keepers = {
        colour: game.players[(game.first + index) % seats]
        for index, colour in enumerate(game.picks)
    }
    pieces: list[Piece] = []
    for colour, value in zip(game.colours, game.dice, strict=True):
        die = t(f"picker.table.die.{colour.value}")
        keeper = keepers.get(colour)
        if keeper is None:
            name = t("picker.table.die.name", die=die, value=value)
        else:
            keeper_name = safe_name(session.name_of(keeper))
            name = t("picker.table.die.kept", die=die, value=value, name=keeper_name)
        pieces.append(
            {
                "id": f"die-{colour.value}",
                "label": str(value),
                "name": name,
                "picture": None,
                "value": value,
                "marks": None,
                "state": "free" if keeper is None else "taken",
                "colour": HEX[colour],
            }
        )
    return {"label": t("picker.table"), "pieces": pieces}


def _picks(game: Game) -> list[Action]:
    """Every die the player to move may keep."""
    return [
        move(
            pick_move(colour),
            t("picker.table.pick", colour=colour_name(colour), value=game.value_of(colour)),
            t(f"picker.table.pick.name.{colour.value}", value=game.value_of(colour)),
            group="board",
            target=f"die-{colour.value}",
        )
        for colour in game.available()
    ]


# ---------------------------------------------------------------------- the cue


def _cue(events: Sequence[GameEvent], session: Session) -> Cue | None:
    """What the change did: the end, a new round's roll (after the pick that ended the
    last one), or a pick."""
    if not events:
        return None
    last: dict[str, dict[str, Any]] = {event["type"]: event for event in events}
    lines = [event_line(event, session.name_of) for event in events]
    text = " · ".join(line for line in lines if line)
    if "game_over" in last:
        return {"kind": "end", "text": text, "ids": []}
    if "rolled" in last:
        dice = len(last["rolled"]["dice"])
        ids = [f"die-{colour.value}" for colour in list(Colour)[:dice]]
        return {"kind": "roll", "text": text, "ids": ids}
    if "picked" in last:
        picked = last["picked"]
        ids = [f"die-{picked['colour']}", f"kept-{picked['player']}-{picked['colour']}"]
        return {"kind": "keep", "text": text, "ids": ids}
    if text:
        return {"kind": "turn", "text": text, "ids": []}
    return None


PICKER_TABLE = PickerTable()
