"""Pickomino at the table, the Activity (bot.plugin.table_scene): the whole grill, every
player's stack with its top tile, the dice rolled and kept, the turn's lines as the
live message words them, the viewer's moves as the move strings its buttons send, and
the cue of the last change. Extrawurm in full: 11 and 13 beside a stack, the
specialists on the grill and in hand, the Bratwurms held and in the supply.

Ids are unique within a scene: `tile-25` (the grill's tile), `stack-<player>` (a
stack's top), `extra-13`, `specialist-weasel`, `bratwurm-<player>`, `bratwurm-supply`,
`die-<n>` (the kept dice first, then the roll).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.games.pickomino.adapter import (
    ACCEPT_FAILURE,
    KIND,
    ROLL,
    WEASEL,
    claim_move,
    keep_move,
)
from bot.games.pickomino.engine import ClaimOption, Face, Game, Source, worms
from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.pictures import BACK, WORM_FACE, die_emoji_name, tile_emoji_name
from bot.games.pickomino.render.blocks import SPECIALIST_MARK, duration_text
from bot.games.pickomino.render.coaching import coaching_line, summary_line
from bot.games.pickomino.render.story import log_lines, setback_line
from bot.games.pickomino.render.summary import GameSummary, PlayerTally
from bot.games.pickomino.render.text import WORM, event_line, roll_line, tile_text
from bot.games.pickomino.render.what_now import shown_claims, what_now
from bot.games.pickomino.render.what_now_words import what_now_text
from bot.i18n import current_locale, t
from bot.plugin.table_scene import (
    Action,
    Board,
    Cue,
    CueKind,
    Dice,
    Die,
    EndedParts,
    GameParts,
    Piece,
    PieceState,
    Place,
    Player,
    move,
    mover,
    picture,
    place,
    player,
)
from bot.render.names import Namer, namer, safe_name
from bot.sessions.adapter import GameEvent
from bot.sessions.model import Ending, Session

LOG_LINES = 6
BRATWURM = "🌭"
# What a change's events are told as, the first found in this order.
_SETBACKS = ("failed", "stole", "hen_stolen")


class PickominoTable:
    def playing(
        self, session: Session, viewer: int | None, events: Sequence[GameEvent]
    ) -> GameParts:
        game: Game = session.game
        name_of = namer(session.seats)
        mine = mover(session, viewer, game.current_player)
        dice = _dice(game)
        return {
            "headline": t("table.turn_of", name=safe_name(name_of(game.current_player))),
            "prompt": _prompt(session, game, name_of),
            "notice": setback_line(game.setback, name_of, SPECIALIST_MARK[Specialist.HEN]),
            "players": _players(session, game, viewer),
            "board": _grill(session, game),
            "dice": dice,
            "actions": [] if mine is None else _moves(session, game, dice),
            "cue": _cue(game, events, name_of, dice),
            "log": _log(session, name_of),
        }

    def ended(
        self,
        session: Session,
        viewer: int | None,
        events: Sequence[GameEvent],
        story: Sequence[GameEvent],
    ) -> EndedParts:
        game: Game = session.game
        name_of = namer(session.seats)
        outcome = _outcome(session, game)
        summary = GameSummary.from_events(game.players, story) if story else None
        places: list[Place] = []
        for standing in game.standings():
            score = _score(standing.worms, standing.bratwurms)
            if summary is not None:  # what the end screen tells of each: tiles, steals, busts
                tally = summary.players.get(standing.player, PlayerTally())
                score = " · ".join(
                    (
                        score,
                        t("pickomino.final.taken", count=tally.taken),
                        t("pickomino.final.steals", count=tally.steals),
                        t("pickomino.final.busts", count=tally.busts),
                    )
                )
            places.append(place(session, standing.player, viewer, standing.rank, score))
        return {
            "headline": outcome,
            "prompt": None,
            "notice": _story(session, game, summary, story, name_of),
            "players": _players(session, game, viewer),
            "board": _grill(session, game),
            "dice": None,
            "actions": [],
            "cue": _cue(game, events, name_of, None),
            "log": _log(session, name_of),
            "places": places,
            "outcome": outcome,
        }


# ------------------------------------------------------------------ the lines


def _prompt(session: Session, game: Game, name_of: Namer) -> str | None:
    """The coaching line of a practice game, else the live message's "what now" line
    (every claim named: the table offers each as a button, never in a menu)."""
    coach = coaching_line(session, game, name_of)
    if coach:
        return coach
    prompt = what_now(game, claims_in_menu=False)
    return None if prompt is None else what_now_text(prompt, name_of, SPECIALIST_MARK)


def _log(session: Session, name_of: Namer) -> list[str]:
    def is_bot(player_id: str) -> bool:
        seat = session.seat_by_player(player_id)
        return seat is not None and seat.is_bot

    return log_lines(session.log, name_of, is_bot, last=LOG_LINES)


def _outcome(session: Session, game: Game) -> str:
    """Who won with what, and how a tie on worms was broken."""
    if session.ending is Ending.ABANDONED:
        return t("final.abandoned")
    standings = game.standings()
    best = standings[0]
    winners = [s for s in standings if s.rank == 1]
    score = _score(best.worms, best.bratwurms)
    if len(winners) > 1:
        names = ", ".join(safe_name(session.name_of(s.player)) for s in winners)
        shared = t("pickomino.table.outcome.shared", names=names, score=score)
        return f"{shared} {t('pickomino.final.tie.shared')}"
    name = safe_name(session.name_of(best.player))
    text = t("pickomino.table.outcome.winner", name=name, score=score)
    if len(standings) > 1 and standings[1].worms == best.worms:
        tie = t("pickomino.final.tie.highest_tile", name=name, tile=best.highest_tile)
        return f"{text} {tie}"
    return text


def _story(
    session: Session,
    game: Game,
    summary: GameSummary | None,
    story: Sequence[GameEvent],
    name_of: Namer,
) -> str | None:
    """The end screen's lines under the winner: what a practice game showed, the turns
    and how long it took, the best steal (none without the game's stored events)."""
    if summary is None:
        return None
    lines = []
    learned = summary_line(session, game, list(story), name_of)
    if learned:
        lines.append(learned)
    turns = t("pickomino.final.turns", count=summary.turns)
    duration = duration_text(session)
    lines.append(f"{turns} · {duration}" if duration else turns)
    steal = summary.best_steal
    if steal is not None:
        thief, victim = safe_name(name_of(steal.thief)), safe_name(name_of(steal.victim))
        tile = tile_text(steal.tile)
        best = t("pickomino.final.best_steal", thief=thief, victim=victim, tile=tile)
        lines.append(best)
    return " · ".join(lines)


def _score(score: int, bratwurms: int) -> str:
    """`3 worms`; with Bratwurms `5 points (4 worms + 1 Bratwurm)`."""
    if not bratwurms:
        return t("pickomino.table.worms", count=score)
    return t(
        "pickomino.table.points",
        count=score,
        worms=t("pickomino.table.worms", count=score - bratwurms),
        bratwurms=t("pickomino.table.bratwurms", count=bratwurms),
    )


# --------------------------------------------------------- players and the grill


def _players(session: Session, game: Game, viewer: int | None) -> list[Player]:
    """Every seat in seat order: a seated player's stack, 11 or 13, specialist and
    Bratwurms; a player who left, with nothing (their tiles went back)."""
    players = []
    for seat in session.seats:
        pid = seat.player_id
        if pid not in game.stacks:
            players.append(player(session, pid, viewer, to_move=False, score=""))
            continue
        stack = game.stacks[pid]
        top = _tile(stack[-1], f"stack-{pid}", "top") if stack else None
        players.append(
            player(
                session,
                pid,
                viewer,
                to_move=not game.is_over and pid == game.current_player,
                score=_score(game.score(pid), game.bratwurms(pid)),
                stack={"top": top, "count": len(stack)},
                pieces=_held(game, pid),
            )
        )
    return players


def _held(game: Game, pid: str) -> list[Piece]:
    """Extrawurm: what lies beside a player's stack."""
    pieces = [_tile(tile, f"extra-{tile}", "taken") for tile in game.extras(pid)]
    specialist = game.specialist_of(pid)
    if specialist is not None:
        pieces.append(_specialist(specialist))
    count = game.bratwurms(pid)
    if count:
        pieces.append(_bratwurms(f"bratwurm-{pid}", count, "taken"))
    return pieces


def _grill(session: Session, game: Game) -> Board:
    """Every tile of the variant where it is: on the grill, turned over, or held (the
    top of a stack, under it, or beside it); then the Bratwurms left in the supply."""
    holders: dict[int, tuple[str, bool]] = {}
    for pid, stack in game.stacks.items():
        for index, tile in enumerate(stack):
            holders[tile] = (pid, index == len(stack) - 1)
        for tile in game.extras(pid):
            holders[tile] = (pid, False)
    turned = set(game.face_down)
    sitting = _sitting(game)
    pieces = []
    for tile in game.layout.all_tiles:
        tile_id = f"tile-{tile}"
        if tile in turned:
            pieces.append(_turned(tile, tile_id))
        elif tile in holders:
            pid, on_top = holders[tile]
            piece = _tile(tile, tile_id, "top" if on_top else "taken")
            piece["name"] = t(
                "pickomino.table.tile.held",
                tile=tile,
                worms=_worms(tile),
                name=safe_name(session.name_of(pid)),
            )
            pieces.append(piece)
        elif tile in game.grill:
            pieces.append(_tile(tile, tile_id, "free", sitting.get(tile)))
        else:  # no longer in play
            pieces.append(_tile(tile, tile_id, "gone"))
    expansion = game.expansion
    if expansion is not None:
        supply = _bratwurms("bratwurm-supply", expansion.supply, "free")
        supply["name"] = t("pickomino.table.supply", count=expansion.supply)
        pieces.append(supply)
    return {"label": t("pickomino.table.grill"), "pieces": pieces}


def _sitting(game: Game) -> dict[int, Specialist]:
    """Extrawurm: the specialist sitting on each grill tile."""
    if game.expansion is None:
        return {}
    return {
        place: specialist
        for specialist, place in game.expansion.specialists.items()
        if isinstance(place, int)
    }


def _tile(
    tile: int, piece_id: str, state: PieceState, specialist: Specialist | None = None
) -> Piece:
    label, name = str(tile), _tile_name(current_locale.get(), tile)
    if specialist is not None:
        label = f"{tile}\u00a0{SPECIALIST_MARK[specialist]}"
        name = t(
            "pickomino.table.tile.specialist",
            tile=tile,
            worms=_worms(tile),
            specialist=t(f"pickomino.table.specialist.{specialist.value}"),
        )
    return {
        "id": piece_id,
        "label": label,
        "name": name,
        "picture": picture(KIND, tile_emoji_name(tile)),
        "value": tile,
        "marks": worms(tile),
        "state": state,
        "colour": None,
    }


@lru_cache(maxsize=256)
def _tile_name(locale: str, tile: int) -> str:
    return t("pickomino.table.tile", locale, tile=tile, worms=_worms_in(locale, tile))


def _turned(tile: int, piece_id: str) -> Piece:
    return {
        "id": piece_id,
        "label": str(tile),
        "name": t("pickomino.table.tile.turned", tile=tile),
        "picture": picture(KIND, tile_emoji_name(BACK)),
        "value": tile,
        "marks": None,
        "state": "turned",
        "colour": None,
    }


def _specialist(specialist: Specialist) -> Piece:
    return {
        "id": f"specialist-{specialist.value}",
        "label": SPECIALIST_MARK[specialist],
        "name": t(f"pickomino.table.specialist.{specialist.value}"),
        "picture": None,
        "value": None,
        "marks": None,
        "state": "taken",
        "colour": None,
    }


def _bratwurms(piece_id: str, count: int, state: PieceState) -> Piece:
    return {
        "id": piece_id,
        "label": f"{BRATWURM}\u00a0{count}",
        "name": t("pickomino.table.bratwurms", count=count),
        "picture": None,
        "value": count,
        "marks": count,
        "state": state,
        "colour": None,
    }


def _worms(tile: int) -> str:
    return _worms_in(current_locale.get(), tile)


@lru_cache(maxsize=256)
def _worms_in(locale: str, tile: int) -> str:
    # Remembered: every scene names every tile's worms, a Babel plural form each.
    return t("pickomino.table.worms", locale, count=worms(tile))


# --------------------------------------------------------------------- the dice


def _dice(game: Game) -> Dice:
    """The kept dice (in the order they were kept) and the roll on the table."""
    kept = [_die(index, face, kept=True) for index, face in enumerate(game.kept)]
    start = len(kept)
    rolled = [_die(start + index, face, kept=False) for index, face in enumerate(game.roll or ())]
    return {"label": t("pickomino.table.dice"), "rolled": rolled, "kept": kept, "sum": _sum(game)}


def _die(index: int, face: Face, *, kept: bool) -> Die:
    worm = face is Face.WORM
    return {
        "id": f"die-{index}",
        "face": WORM if worm else str(int(face)),
        "name": t("pickomino.table.face.worm") if worm else str(int(face)),
        "picture": picture(KIND, die_emoji_name(WORM_FACE if worm else int(face))),
        "colour": None,
        "kept": kept,
    }


def _sum(game: Game) -> str:
    """What the kept dice add up to, with what the mover's specialist adds."""
    if not game.kept:
        text = t("pickomino.table.sum.none")
    elif game.canned_worm_counts:
        text = t("pickomino.table.sum.canned_worm", kept=game.kept_total, total=game.claim_total)
    else:
        text = t("pickomino.table.sum", total=game.kept_total)
    expansion = game.expansion
    if expansion is not None and expansion.holds(game.current_player, Specialist.GOLDEN_DIE):
        text = f"{text} · {t('pickomino.turn.golden_die.kept')}"
    return text


# -------------------------------------------------------------------- the moves


def _moves(session: Session, game: Game, dice: Dice) -> list[Action]:
    """Every legal move of the player to move, as the move string its button sends."""
    legal = game.legal_actions()
    actions: list[Action] = []
    if legal.can_roll:
        left = t("pickomino.now.dice", count=game.dice_left)
        actions.append(
            move(ROLL, t("pickomino.button.roll"), t("pickomino.table.roll.name", dice=left))
        )
    if legal.can_weasel:
        actions.append(move(WEASEL, t("pickomino.button.weasel"), t("pickomino.table.weasel.name")))
    if legal.can_accept_failure:
        actions.append(
            move(
                ACCEPT_FAILURE,
                t("pickomino.button.accept_failure"),
                t("pickomino.table.accept.name"),
                style="danger",
            )
        )
    counts = Counter(game.roll or ())
    first_die: dict[str, str] = {}  # a face's first die in the roll: what a keep is about
    for die in reversed(dice["rolled"]):
        first_die[die["face"]] = die["id"]
    # Worms first, then the numbers: as the live message's face buttons.
    for face in sorted(legal.keepable, key=lambda face: (face is not Face.WORM, face)):
        symbol = WORM if face is Face.WORM else str(int(face))
        count = counts[face]
        actions.append(
            move(
                keep_move(face),
                t("pickomino.table.keep", face=symbol, count=count),
                t(f"pickomino.table.keep.name.{face.symbol.lower()}", count=count),
                group="dice",
                target=first_die.get(symbol),
            )
        )
    for option in shown_claims(legal.claims):
        actions.append(_claim(session, game, option))
    return actions


def _claim(session: Session, game: Game, option: ClaimOption) -> Action:
    tile = option.tile
    target = f"tile-{tile}"
    if option.source is Source.STEAL:
        victim = safe_name(session.name_of(option.victim or ""))
        if game.is_hen_steal(option):
            label = t("pickomino.button.steal_hen")
            name = t("pickomino.table.steal_hen.name", name=victim)
            target = f"specialist-{Specialist.HEN.value}"
        else:
            label = t("pickomino.button.steal", tile=tile)
            name = t("pickomino.table.steal.name", tile=tile, name=victim)
        return move(claim_move(option), label, name, style="success", group="board", target=target)
    specialist = _sitting(game).get(tile)
    if specialist is Specialist.RAVEN:
        name = t("pickomino.table.take.name.raven", tile=tile, worms=_worms(tile))
    elif specialist is not None:
        # The specialist as a hint's claim names it, with what the phrase needs (an
        # article, a case).
        name = t(
            "pickomino.table.take.name.specialist",
            tile=tile,
            worms=_worms(tile),
            specialist=t(f"pickomino.ai.extrawurm.specialist.{specialist.value}"),
        )
    else:
        name = t("pickomino.table.take.name", tile=tile, worms=_worms(tile))
    label = t("pickomino.button.take", tile=tile)
    return move(claim_move(option), label, name, style="success", group="board", target=target)


# ---------------------------------------------------------------------- the cue


def _cue(game: Game, events: Sequence[GameEvent], name_of: Namer, dice: Dice | None) -> Cue | None:
    """What the change did, the most telling event first: the end, a bust or a steal,
    a tile taken, dice kept, a roll."""
    if not events:
        return None
    last: dict[str, dict[str, Any]] = {event["type"]: event for event in events}
    for kind in _SETBACKS:
        if kind in last:
            return _setback_cue(last[kind], name_of, game)
    if "took" in last:
        event = last["took"]
        ids = [f"tile-{event['tile']}", f"stack-{event['player']}"]
        return _told("take", event, name_of, ids)
    if "game_over" in last:
        return _told("end", last["game_over"], name_of, [])
    if "kept" in last:
        event = last["kept"]
        kept = [] if dice is None else [die["id"] for die in dice["kept"]]
        return _told("keep", event, name_of, kept[-int(event["count"]) :])
    roll = last.get("weasel") or last.get("rolled")
    if roll is not None:
        ids = [] if dice is None else [die["id"] for die in dice["rolled"]]
        return {"kind": "roll", "text": roll_line(roll, name_of), "ids": ids}
    if "left" in last:
        return _told("turn", last["left"], name_of, [])
    return None


def _setback_cue(event: dict[str, Any], name_of: Namer, game: Game) -> Cue:
    player_id = event["player"]
    if event["type"] == "failed":
        tiles = [event[key] for key in ("returned", "turned") if event.get(key) is not None]
        ids = [*(f"tile-{tile}" for tile in tiles), f"stack-{player_id}"]
        return _told("bust", event, name_of, ids)
    ids = [f"stack-{player_id}", f"stack-{event['victim']}"]
    if event["type"] == "stole":
        ids.insert(0, f"tile-{event['tile']}")
    else:
        ids.insert(0, f"specialist-{Specialist.HEN.value}")
    return _told("steal", event, name_of, ids)


def _told(kind: CueKind, event: dict[str, Any], name_of: Namer, ids: list[str]) -> Cue:
    return {"kind": kind, "text": event_line(event, name_of) or "", "ids": ids}


PICKOMINO_TABLE = PickominoTable()
