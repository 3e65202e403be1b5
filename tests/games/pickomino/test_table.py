"""Pickomino at the table (bot/games/pickomino/table.py): the scene of a turn mid-roll,
a steal to make, a bust just made, Extrawurm's parts and the end, with forced dice,
in English and other languages; every legal move offered by the string its button
sends, and what the live message says said the same way."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.pickomino.adapter import ACCEPT_FAILURE, ROLL, WEASEL, claim_move, keep_move
from bot.games.pickomino.engine import Game, Rules
from bot.games.pickomino.plugin import PICKOMINO
from bot.i18n import LOCALES
from bot.plugin.session_message import render_session
from bot.plugin.table_scene import Piece, Scene, scene_of
from bot.render.layout import Text
from bot.sessions.model import Seat, Session, Status
from tests.table.scenes import (
    ANNE,
    BOB,
    CARA,
    pickomino_bust,
    pickomino_canned_worm,
    pickomino_end,
    pickomino_extrawurm,
    pickomino_five_any_lower,
    pickomino_golden_die,
    pickomino_mid_roll,
    pickomino_position,
    pickomino_steal,
    pickomino_steps,
    seats,
    session_of,
)

MAX_SCENE = 16 * 1024


def names(scene: Scene) -> dict[str, str]:
    """The moves offered: move string -> accessible name."""
    return {a["arg"]: a["name"] for a in scene["actions"] if a["action"] == "move"}


def piece(scene: Scene, piece_id: str) -> Piece:
    assert scene["board"] is not None
    return next(p for p in scene["board"]["pieces"] if p["id"] == piece_id)


def legal_moves(game: Game) -> set[str]:
    legal = game.legal_actions()
    moves = {keep_move(face) for face in legal.keepable}
    moves |= {claim_move(option) for option in legal.claims}
    moves |= {ROLL} if legal.can_roll else set()
    moves |= {WEASEL} if legal.can_weasel else set()
    return moves | ({ACCEPT_FAILURE} if legal.can_accept_failure else set())


def test_mid_roll_the_kept_dice_their_sum_and_a_keep_for_each_new_face():
    moment = pickomino_mid_roll()
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="en")
    assert scene["phase"] == "playing" and scene["headline"] == "Anne's turn"
    assert scene["you"] == {"seat": 0, "host": True}
    dice = scene["dice"]
    assert dice is not None and dice["sum"] == "Kept: 15"
    assert [die["face"] for die in dice["kept"]] == ["5", "5", "5"]
    assert [die["face"] for die in dice["rolled"]] == ["🪱", "4", "4", "3", "1"]
    assert dice["rolled"][0]["picture"] == "pictures/pickomino/pk1_die_worm.png"
    assert names(scene) == {
        "keep:w": "Keep the worm (1 die)",
        "keep:4": "Keep the 4s (2 dice)",
        "keep:3": "Keep the 3 (1 die)",
        "keep:1": "Keep the 1 (1 die)",
    }
    assert set(names(scene)) == legal_moves(moment.session.game)
    keep_fours = next(a for a in scene["actions"] if a["arg"] == "keep:4")
    assert keep_fours["label"] == "Keep 4 ×2" and keep_fours["target"] == "die-4"
    assert scene["cue"] == {
        "kind": "roll",
        "text": "Anne rolled 🪱 4️⃣ 4️⃣ 3️⃣ 1️⃣",
        "ids": ["die-3", "die-4", "die-5", "die-6", "die-7"],
    }
    assert scene["clock"] == {"deadline": 1_800_000_120_000, "total": 120}
    assert {a["action"] for a in scene["actions"]} == {"move", "hint", "end"}


def test_mid_roll_in_german_and_polish():
    moment = pickomino_mid_roll()
    german = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="de")
    assert german["headline"] == "Anne ist am Zug"
    assert names(german)["keep:4"] == "Die 4er beiseitelegen (2 Würfel)"
    assert names(german)["keep:w"] == "Den Wurm beiseitelegen (1 Würfel)"
    assert german["dice"] is not None and german["dice"]["sum"] == "Beiseite: 15"
    polish = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="pl")
    assert names(polish)["keep:4"] == "Odłóż czwórki (2 kości)"
    assert names(polish)["keep:1"] == "Odłóż jedynkę (1 kość)"
    scores = [player["score"] for player in polish["players"]]
    assert scores == ["3 robale", "2 robale", "3 robale"]


def test_every_grill_tile_and_every_stack_is_in_the_scene():
    moment = pickomino_mid_roll()
    scene = scene_of(moment.session, PICKOMINO, BOB, moment.events, locale="en")
    assert scene["board"] is not None
    assert [p["value"] for p in scene["board"]["pieces"]] == list(range(21, 37))
    assert piece(scene, "tile-27") | {"picture": None} == {
        "id": "tile-27",
        "label": "27",
        "name": "27, 2 worms, held by Anne",
        "picture": None,
        "value": 27,
        "marks": 2,
        "state": "top",
        "colour": None,
    }
    assert piece(scene, "tile-22")["state"] == "taken"
    assert piece(scene, "tile-36")["state"] == "turned"
    assert piece(scene, "tile-36")["picture"] == "pictures/pickomino/pk1_tile_back.png"
    assert piece(scene, "tile-21")["name"] == "21, 1 worm"
    anne, bob, pip = scene["players"]
    assert anne["stack"] == {"top": anne["stack"]["top"], "count": 2}
    assert anne["stack"]["top"]["id"] == "stack-101" and anne["to_move"]
    assert bob["you"] and not bob["to_move"]
    assert pip["level"] == "Hard" and pip["name"] == "Pip (Hard)"
    assert names(scene) == {}  # Bob watches Anne's turn


def test_the_prompt_is_the_live_message_s_what_now_line():
    moment = pickomino_steal()
    session = moment.session
    scene = scene_of(session, PICKOMINO, ANNE, moment.events, locale="en")
    message = render_session(session, PICKOMINO)
    turn = message.blocks[0]
    assert isinstance(turn, Text) and scene["prompt"] is not None
    assert scene["prompt"] in turn.content
    assert scene["prompt"] == "Stop now to take 26 or steal 27 from Bob, or roll 2 dice"


def test_a_steal_to_make_is_named_with_its_victim():
    moment = pickomino_steal()
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="en")
    assert names(scene) == {
        "roll": "Roll 2 dice",
        "claim:g26": "Take 26 (2 worms)",
        "claim:s27.102": "Steal 27 from Bob",
    }
    steal = next(a for a in scene["actions"] if a["arg"] == "claim:s27.102")
    assert steal["label"] == "Steal 27" and steal["target"] == "tile-27"
    assert steal["group"] == "board" and steal["style"] == "success"
    assert scene["cue"] is not None and scene["cue"]["kind"] == "keep"
    assert scene["cue"]["ids"] == ["die-5"]
    german = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="de")
    assert names(german)["claim:s27.102"] == "27 von Bob schnappen"


def test_a_name_in_an_accessible_name_is_the_name_as_given():
    moment = pickomino_steal()
    bob = moment.session.seat(BOB)
    assert bob is not None
    bob.name = "<b>Bob</b>_the **best**"
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="en")
    assert names(scene)["claim:s27.102"] == "Steal 27 from <b>Bob</b>_the **best**"
    assert scene["players"][1]["name"] == "<b>Bob</b>_the **best**"
    assert "<b>Bob</b>_the **best**" in json.loads(json.dumps(scene))["prompt"]


def test_a_bust_is_the_notice_the_message_gives_and_its_cue():
    moment = pickomino_bust()
    scene = scene_of(moment.session, PICKOMINO, BOB, moment.events, locale="en")
    assert scene["headline"] == "Bob's turn"
    assert scene["notice"] == "💥 Anne busted: all kept already"
    message = render_session(moment.session, PICKOMINO).blocks[0]
    assert isinstance(message, Text) and scene["notice"] in message.content
    assert scene["cue"] == {
        "kind": "bust",
        "text": "Anne went bust: 27 back to the grill, 36 turned over",
        "ids": ["tile-27", "tile-36", "stack-101"],
    }
    assert piece(scene, "tile-27")["state"] == "free"
    assert piece(scene, "tile-36")["state"] == "turned"
    assert names(scene) == {"roll": "Roll 8 dice"}
    assert scene["dice"] is not None and scene["dice"]["sum"] == "Nothing kept yet"
    polish = scene_of(moment.session, PICKOMINO, BOB, moment.events, locale="pl")
    assert polish["cue"] is not None and polish["cue"]["kind"] == "bust"
    assert names(polish) == {"roll": "Rzuć 8 kośćmi"}


def test_extrawurm_specialists_extra_tiles_bratwurms_and_the_weasel():
    moment = pickomino_extrawurm()
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="en")
    anne, bob, cara, dmitri = scene["players"]
    assert anne["score"] == "4 points (3 worms + 1 Bratwurm)"
    assert [(p["id"], p["name"]) for p in anne["pieces"]] == [
        ("specialist-weasel", "Weasel"),
        ("bratwurm-101", "1 Bratwurm"),
    ]
    assert [(p["id"], p["name"]) for p in bob["pieces"]] == [
        ("extra-13", "13, 1 worm"),
        ("specialist-golden_die", "Golden Die"),
    ]
    assert cara["pieces"][0]["label"] == "🥫" and dmitri["stack"] == {"top": None, "count": 0}
    assert piece(scene, "tile-13")["name"] == "13, 1 worm, held by Bob"
    assert (piece(scene, "tile-11")["label"], piece(scene, "tile-11")["state"]) == ("11", "free")
    assert piece(scene, "tile-21")["label"] == "21\u00a0🐔"
    assert piece(scene, "tile-21")["name"] == "21, 1 worm, the Sitting Hen sits on it"
    assert piece(scene, "tile-25")["name"] == "25, 2 worms, the Raven sits on it"
    assert piece(scene, "bratwurm-supply")["name"] == "4 Bratwurms left in the supply"
    assert names(scene)["weasel"] == "Roll these dice again with the Weasel"
    assert set(names(scene)) == legal_moves(moment.session.game)
    assert scene["prompt"] == "Keep one face: 1️⃣ 3️⃣ 4️⃣ 🪱, or 🦦 Weasel to roll again"
    polish = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="pl")
    assert polish["players"][2]["score"] == "3 punkty (1 robal + 2 kiełbaski)"


def test_extrawurm_the_canned_worm_in_the_sum_and_the_golden_die_s_nine_dice():
    moment = pickomino_canned_worm()
    scene = scene_of(moment.session, PICKOMINO, CARA, moment.events, locale="en")
    assert scene["dice"] is not None
    assert scene["dice"]["sum"] == "Kept: 23 + Canned Worm 5 = 28"
    assert names(scene) == {
        "roll": "Roll 3 dice",
        "claim:g27": "Take 27 (2 worms)",
        "claim:s28.101": "Steal 28 from Anne",
    }
    golden = pickomino_golden_die()
    scene = scene_of(golden.session, PICKOMINO, BOB, golden.events, locale="en")
    assert scene["dice"] is not None and len(scene["dice"]["rolled"]) == 9
    assert scene["dice"]["sum"] == "Nothing kept yet · 🪙\u00a0+1\u00a0die"


@pytest.mark.parametrize(
    ("steps", "move", "english", "german"),
    [
        (
            ("roll:WW444123", "keep:W", "roll:444123", "keep:4", "roll:123", "keep:1"),
            "claim:g23",
            "Take 23 (1 worm) and the Weasel",
            "23 nehmen (1 Wurm) samt Wiesel",
        ),
        (
            ("roll:WW444555", "keep:W", "roll:444555", "keep:5"),
            "claim:g25",
            "Take 25 (2 worms) and a Bratwurm from the Raven",
            "25 nehmen (2 Würmer) und vom Raben einen Bratwurm-Marker bekommen",
        ),
    ],
)
def test_taking_a_tile_a_specialist_sits_on_names_what_comes_with_it(steps, move, english, german):
    state = pickomino_position({ANNE: [], BOB: []}, Rules(extrawurm=True), current=str(ANNE))
    session = session_of(PICKOMINO, seats([ANNE, BOB]), state)
    events = pickomino_steps(session, *steps)
    assert names(scene_of(session, PICKOMINO, ANNE, events, locale="en"))[move] == english
    assert names(scene_of(session, PICKOMINO, ANNE, events, locale="de"))[move] == german


def test_the_end_places_outcome_ratings_and_what_can_follow():
    moment = pickomino_end()
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="en")
    assert scene["phase"] == "ended" and scene["end"] is not None
    assert scene["headline"] == scene["end"]["outcome"] == "Anne wins with 10 worms."
    assert scene["end"]["places"] == [
        {"place": 1, "name": "Anne", "score": "10 worms", "you": True},
        {"place": 2, "name": "Bob", "score": "8 worms", "you": False},
        {"place": 3, "name": "Pip (Hard)", "score": "0 worms", "you": False},
    ]
    assert scene["end"]["ratings"] == ["Anne: 1,512 → 1,538 ▲26", "Bob: 1,490 → 1,471 ▼19"]
    assert scene["end"]["review"] is True
    assert [a["action"] for a in scene["actions"]] == ["again", "review"]
    assert scene["cue"] == {"kind": "take", "text": "Bob took 21", "ids": ["tile-21", "stack-102"]}
    assert scene["dice"] is None and scene["prompt"] is None and scene["notice"] is None
    assert piece(scene, "tile-31")["name"] == "31, 3 worms, held by Anne"
    german = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale="de")
    assert german["end"] is not None
    assert german["end"]["outcome"] == "Anne gewinnt: 10 Würmer."
    assert german["end"]["ratings"][0] == "Anne: 1.512 → 1.538 ▲26"
    watcher = scene_of(moment.session, PICKOMINO, 999, moment.events, locale="en")
    assert [a["action"] for a in watcher["actions"]] == ["review"]


def test_the_end_told_from_the_stored_events_as_the_end_screen_tells_it():
    moment = pickomino_end()
    session = moment.session
    scene = scene_of(session, PICKOMINO, ANNE, moment.events, locale="en", story=moment.story)
    best_steal = "Best steal: Anne took 31 🪱🪱🪱 from Bob"
    assert scene["notice"] == f"3 turns · 10 minutes · {best_steal}"
    assert scene["end"] is not None
    assert [p["score"] for p in scene["end"]["places"]] == [
        "10 worms · 0 tiles taken · 1 steal · 0 busts",
        "8 worms · 1 tile taken · 0 steals · 0 busts",
        "0 worms · 0 tiles taken · 0 steals · 1 bust",
    ]
    message = render_session(session, PICKOMINO, moment.story).blocks[0]
    assert isinstance(message, Text)
    assert best_steal in message.content
    assert "3 turns · 10 minutes" in message.content
    polish = scene_of(session, PICKOMINO, ANNE, moment.events, locale="pl", story=moment.story)
    assert polish["end"] is not None
    assert polish["end"]["places"][2]["score"] == (
        "0 robali · 0 kafelków · 0 kradzieży · 1 nieudany rzut"
    )


def test_a_player_who_left_keeps_a_row_with_nothing_in_it():
    moment = pickomino_mid_roll()
    session = moment.session
    bob = session.seat(BOB)
    assert bob is not None
    session.game.remove_player(bob.player_id)
    bob.left = True
    scene = scene_of(session, PICKOMINO, ANNE, [], locale="en")
    row = scene["players"][1]
    assert row["left"] and row["stack"] is None and row["score"] == ""
    assert piece(scene, "tile-25")["state"] == "free"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_busiest_turns_fit_in_16_kib_in_every_language(locale):
    moment = pickomino_five_any_lower()
    scene = scene_of(moment.session, PICKOMINO, ANNE, moment.events, locale=locale)
    assert len(names(scene)) == 12  # every grill tile from 21 to 32
    assert len(json.dumps(scene, ensure_ascii=False).encode()) <= MAX_SCENE


@pytest.mark.parametrize("locale", ["de", "es"])
def test_a_seven_player_extrawurm_game_fits_in_16_kib_at_every_step(locale):
    adapter, rng = PICKOMINO.adapter, random.Random(7)
    seats = [Seat(100 + index, f"Long display name number {index}") for index in range(7)]
    options = {"extrawurm": True, "lower_tile": "any"}
    session = Session("pickomino", 1, 2, 100, seats, options=options, id=7, version=1)
    session.game = adapter.new_game([seat.player_id for seat in seats], options, rng)
    session.status = Status.PLAYING
    largest = 0
    while not adapter.is_over(session.game):
        player = adapter.current_player(session.game)
        assert player is not None
        scene = scene_of(session, PICKOMINO, int(player), session.log[-3:], locale=locale)
        largest = max(largest, len(json.dumps(scene, ensure_ascii=False).encode()))
        events = adapter.play(session.game, player, adapter.bot_move(session.game, "easy"), rng)
        session.remember(events)
    assert largest <= MAX_SCENE
