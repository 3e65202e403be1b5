"""Picker at the table (bot/games/picker/table.py): a round's coloured dice, the picks
left, each player's dice by colour, and the end, with forced dice, in English and
other languages."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.picker.adapter import pick_move
from bot.games.picker.plugin import PICKER
from bot.i18n import LOCALES
from bot.plugin.session_message import render_session
from bot.plugin.table_scene import Scene, scene_of
from bot.render.layout import Text
from bot.sessions.model import Seat, Session, Status
from tests.table.scenes import ANNE, BOB, CARA, picker_eight, picker_end, picker_round

MAX_SCENE = 16 * 1024


def moves(scene: Scene) -> dict[str, tuple[str, str]]:
    return {a["arg"]: (a["label"], a["name"]) for a in scene["actions"] if a["action"] == "move"}


def test_a_round_the_dice_on_the_table_and_a_pick_for_each_left():
    moment = picker_round()
    session = moment.session
    scene = scene_of(session, PICKER, CARA, moment.events, locale="en")
    assert scene["headline"] == "Round 2 of 8: Cara's pick"
    assert scene["dice"] is None and scene["board"] is not None
    table = {p["id"]: (p["label"], p["state"], p["name"]) for p in scene["board"]["pieces"]}
    assert table == {
        "die-red": ("4", "free", "Red die: 4"),
        "die-orange": ("1", "taken", "Orange die: 1, kept by Bob"),
        "die-yellow": ("4", "free", "Yellow die: 4"),
        "die-green": ("6", "taken", "Green die: 6, kept by Anne"),
    }
    assert scene["board"]["pieces"][0]["colour"] == "#cd2626"
    assert moves(scene) == {
        "pick:red": ("red 4", "Keep the red die (4)"),
        "pick:yellow": ("yellow 4", "Keep the yellow die (4)"),
    }
    assert set(moves(scene)) == {pick_move(colour) for colour in session.game.available()}
    cara = scene["players"][2]
    assert cara["to_move"] and cara["you"] and cara["score"] == "5 points"
    anne = scene["players"][0]
    assert [(p["id"], p["name"]) for p in anne["pieces"]] == [
        ("kept-101-yellow", "Yellow die, kept once: 2"),
        ("kept-101-green", "Green die, kept once: 6"),
    ]
    assert scene["players"][3]["level"] == "Normal"
    assert scene["cue"] == {
        "kind": "keep",
        "text": "Bob kept 🟠1 · Bob becomes the Picker",
        "ids": ["die-orange", "kept-102-orange"],
    }
    assert scene["prompt"] is not None
    turn = render_session(session, PICKER).blocks[0]
    assert isinstance(turn, Text)
    assert scene["prompt"] == "Keep one die. Bob is the Picker: they keep first next round."
    assert scene["prompt"] in turn.content
    assert moves(scene_of(session, PICKER, ANNE, moment.events, locale="en")) == {}


def test_a_round_in_german_and_polish():
    moment = picker_round()
    german = scene_of(moment.session, PICKER, CARA, moment.events, locale="de")
    assert german["headline"] == "Runde 2 von 8: Cara wählt"
    assert moves(german)["pick:red"] == ("Rot 4", "Den roten Würfel behalten (4)")
    polish = scene_of(moment.session, PICKER, CARA, moment.events, locale="pl")
    assert moves(polish)["pick:yellow"] == ("żółta 4", "Zatrzymaj żółtą kość (4)")
    assert polish["players"][0]["score"] == "8 punktów"


def test_the_end_places_scores_with_the_colour_bonus_and_ratings():
    moment = picker_end()
    scene = scene_of(moment.session, PICKER, ANNE, moment.events, locale="en")
    assert scene["phase"] == "ended" and scene["end"] is not None
    assert scene["headline"] == scene["end"]["outcome"] == "Anne wins with 36 points!"
    assert scene["end"]["places"] == [
        {"place": 1, "name": "Anne", "score": "36 points (colour bonus 9)", "you": True},
        {"place": 2, "name": "Bob", "score": "35 points (colour bonus 12)", "you": False},
        {"place": 3, "name": "Cara", "score": "31 points (colour bonus 9)", "you": False},
    ]
    assert scene["end"]["ratings"] == ["Anne: 1,500 → 1,524 ▲24", "Bob: 1,500 → 1,490 ▼10"]
    assert scene["board"] is None
    assert scene["cue"] == {
        "kind": "end",
        "text": "Anne kept 🔴3 · Anne becomes the Picker · Game over",
        "ids": [],
    }
    red = scene["players"][0]["pieces"][0]
    assert (red["label"], red["marks"], red["value"]) == ("6 5 6 3", 4, 20)
    assert red["name"] == "Red die, kept 4 times: 6, 5, 6, 3"
    assert [a["action"] for a in scene["actions"]] == ["again", "review"]
    polish = scene_of(moment.session, PICKER, ANNE, moment.events, locale="pl")
    assert polish["end"] is not None
    assert polish["end"]["places"][0]["score"] == "36 punktów (premia za kolor 9)"
    assert polish["players"][0]["pieces"][0]["name"] == (
        "Czerwona kość, zatrzymana 4 razy: 6, 5, 6, 3"
    )
    german = scene_of(moment.session, PICKER, ANNE, moment.events, locale="de")
    assert german["players"][1]["pieces"][1]["name"] == "Gelber Würfel, 2-mal behalten: 5, 1"


@pytest.mark.parametrize("locale", LOCALES)
def test_eight_players_fit_in_16_kib_in_every_language(locale):
    moment = picker_eight()
    scene = scene_of(moment.session, PICKER, BOB, moment.events, locale=locale)
    assert len(scene["players"]) == 8
    assert len(json.dumps(scene, ensure_ascii=False).encode()) <= MAX_SCENE


def test_a_whole_eight_player_game_fits_in_16_kib_at_every_step():
    adapter, rng = PICKER.adapter, random.Random(8)
    seats = [Seat(100 + index, f"Long display name number {index}") for index in range(8)]
    session = Session("picker", 1, 2, 100, seats, id=7, version=1)
    session.game = adapter.new_game([seat.player_id for seat in seats], {}, rng)
    session.status = Status.PLAYING
    largest = 0
    while not adapter.is_over(session.game):
        player = adapter.current_player(session.game)
        assert player is not None
        for locale in ("nl", "fr"):  # the longest words
            scene = scene_of(session, PICKER, int(player), session.log[-3:], locale=locale)
            largest = max(largest, len(json.dumps(scene, ensure_ascii=False).encode()))
        events = adapter.play(session.game, player, adapter.bot_move(session.game, "normal"), rng)
        session.remember(events)
    session.status = Status.OVER
    scene = scene_of(session, PICKER, 100, session.log[-3:], locale="nl")
    largest = max(largest, len(json.dumps(scene, ensure_ascii=False).encode()))
    assert largest <= MAX_SCENE
