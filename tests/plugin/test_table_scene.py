"""The platform's part of the table's scenes (bot/plugin/table_scene.py): the lobby for
its host, a seated player and a watcher, a closed lobby, a game with no table of its
own, the start scene and the page's words, in the language asked for."""

from __future__ import annotations

import json
from random import Random

from bot.games.registry import GAMES
from bot.i18n import LOCALES, catalog
from bot.plugin.table_scene import page_words, scene_of, start_scene
from bot.sessions.model import Ending, Seat, Session, Status
from tests.fixtures.games.hilo.plugin import HILO
from tests.table.scenes import ANNE, BOB, CARA, pickomino_lobby, seats, session_of

PICKOMINO = GAMES.plugin("pickomino")


def actions(scene) -> dict[str, tuple[str, bool]]:
    return {f"{a['action']}:{a['arg']}": (a["name"], a["enabled"]) for a in scene["actions"]}


def test_the_host_starts_adds_and_removes_computer_players_and_closes_the_lobby():
    moment = pickomino_lobby()
    scene = scene_of(moment.session, PICKOMINO, ANNE, locale="en")
    assert scene["phase"] == "lobby" and scene["you"] == {"seat": 0, "host": True}
    assert scene["headline"] == "Pickomino lobby, hosted by Anne"
    assert actions(scene) == {
        "start:": ("Start the Pickomino game", True),
        "bot:easy": ("Add a computer player, level Easy", True),
        "bot:normal": ("Add a computer player, level Normal", True),
        "bot:hard": ("Add a computer player, level Hard", True),
        "dropbot:": ("Remove the computer player Pip (Hard)", True),
        "leave:": ("Leave the lobby", True),
        "cancel:": ("Close the lobby for everyone", True),
    }
    lobby = scene["lobby"]
    assert lobby is not None and lobby["levels"] == ["Easy", "Normal", "Hard"]
    assert lobby["seats"] == "3 seated, 2 to 7 play"
    assert lobby["options"][0].startswith("Extrawurm expansion: tiles 11 and 13")
    assert "Turn timer: 2 min per turn" in lobby["options"]
    assert not any("**" in line for line in lobby["options"])
    assert [p["level"] for p in scene["players"]] == [None, None, "Hard"]


def test_a_seated_player_may_leave_and_a_watcher_may_join():
    moment = pickomino_lobby()
    seated = scene_of(moment.session, PICKOMINO, BOB, locale="en")
    assert actions(seated) == {"leave:": ("Leave the lobby", True)}
    assert seated["prompt"] == "You're in. Anne starts the game."
    watching = scene_of(moment.session, PICKOMINO, CARA, locale="en")
    assert actions(watching) == {"join:": ("Join the Pickomino game", True)}
    assert watching["you"] == {"seat": None, "host": False}
    assert scene_of(moment.session, PICKOMINO, None, locale="en")["actions"] == []


def test_a_full_lobby_cannot_be_joined_and_one_player_cannot_start():
    session = session_of(PICKOMINO, seats([ANNE]))
    assert actions(scene_of(session, PICKOMINO, ANNE))["start:"] == (
        "Start the Pickomino game",
        False,
    )
    full = session_of(PICKOMINO, seats([ANNE], [(f"Bot {n}", "easy") for n in range(6)]))
    assert actions(scene_of(full, PICKOMINO, CARA))["join:"][1] is False
    assert not any(enabled for key, (_, enabled) in actions(scene_of(full, PICKOMINO, ANNE)).items()
                   if key.startswith("bot:"))  # fmt: skip


def test_the_lobby_in_german_and_polish():
    moment = pickomino_lobby()
    german = scene_of(moment.session, PICKOMINO, ANNE, locale="de")
    assert german["headline"] == "Pickomino-Lobby, Gastgeber: Anne"
    assert actions(german)["bot:hard"] == ("Einen Bot hinzufügen, Stufe Schwer", True)
    polish = scene_of(moment.session, PICKOMINO, ANNE, locale="pl")
    assert actions(polish)["start:"] == ("Rozpocznij partię Pickomino", True)


def test_a_closed_lobby_says_who_closed_it():
    session = session_of(PICKOMINO, seats([ANNE, BOB]))
    session.status, session.ending, session.closed_by = Status.OVER, Ending.CANCELLED, "Anne"
    scene = scene_of(session, PICKOMINO, BOB, locale="en")
    assert scene["phase"] == "ended" and scene["headline"] == "Anne closed this lobby."
    assert scene["actions"] == [] and scene["end"] is not None
    assert scene["end"]["places"] == []


def test_a_game_with_no_table_shows_its_players_and_whose_turn_it_is():
    players = [Seat(ANNE, "Anne"), Seat(BOB, "Bob")]
    session = Session(HILO.kind, 1, 2, ANNE, players, id=3, version=2)
    session.game = HILO.adapter.new_game(["101", "102"], {"first_player": "host"}, Random(0))
    session.status = Status.PLAYING
    scene = scene_of(session, HILO, BOB, locale="en")
    assert scene["headline"] == "Anne's turn" and scene["clock"] is None
    assert [p["to_move"] for p in scene["players"]] == [True, False]
    assert scene["actions"] == []  # no moves to offer, and Bob is not the host
    assert [a["action"] for a in scene_of(session, HILO, ANNE)["actions"]] == ["hint", "end"]


def test_the_start_scene_in_polish():
    scene = start_scene(list(GAMES), locale="pl")
    assert scene["kind"] is None and scene["title"] == "Gry w kości"
    assert [(a["action"], a["arg"], a["name"]) for a in scene["actions"]] == [
        ("open", "pickomino", "Otwórz poczekalnię gry Pickomino"),
        ("open", "picker", "Otwórz poczekalnię gry Picker"),
    ]
    json.dumps(scene)


def test_the_page_words_in_every_language_and_from_discord_s_codes():
    keys = {
        key.removeprefix("table.page.") for key in catalog("en") if key.startswith("table.page.")
    }
    assert {"connecting", "reconnecting", "your_turn", "watching", "slow_down"} <= keys
    for locale in LOCALES:
        words = page_words(locale)
        assert set(words) == keys and all(words.values())
    assert page_words("de")["your_turn"] == "Du bist dran"
    assert page_words("pt-BR")["connecting"] == "Conectando…"
    assert page_words("en-GB") == page_words("en") == page_words("xx")
    assert page_words("es-ES")["slow_down"] == page_words("es")["slow_down"]
