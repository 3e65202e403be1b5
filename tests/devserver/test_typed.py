"""Typed slash commands read against a registered schema, as Discord's command box does."""

from __future__ import annotations

import pytest

from bot.devserver.typed import TypedCommandError, parse

SCHEMA = [
    {
        "name": "pickomino",
        "type": 1,
        "options": [
            {
                "name": "start",
                "type": 1,
                "options": [
                    {"name": "turn_timer", "type": 4, "min_value": 0, "max_value": 60},
                    {"name": "hints", "type": 5},
                    {
                        "name": "first_player",
                        "type": 3,
                        "choices": [
                            {"name": "Random seat", "value": "random"},
                            {"name": "The host", "value": "host"},
                        ],
                    },
                ],
            },
            {
                "name": "score",
                "type": 2,
                "options": [
                    {
                        "name": "player",
                        "type": 1,
                        "options": [{"name": "who", "type": 6, "required": True}],
                    }
                ],
            },
        ],
    }
]


def test_a_command_with_options_of_each_type() -> None:
    typed = parse("/pickomino start turn_timer:5 hints:false first_player:The host", SCHEMA)
    assert typed.path == ("pickomino", "start")
    assert typed.options == {"turn_timer": 5, "hints": False, "first_player": "host"}


def test_choices_by_name_or_value_in_any_case_and_users_by_name() -> None:
    assert parse("/PICKOMINO start first_player:RANDOM", SCHEMA).options == {
        "first_player": "random"
    }
    typed = parse("/pickomino score player who:@Anne Marie", SCHEMA)
    assert typed.path == ("pickomino", "score", "player")
    assert typed.options == {"who": "Anne Marie"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("pickomino start", "start with /"),
        ("/", "Type a command"),
        ("/chess start", "/chess is not a command here. Commands: /pickomino."),
        ("/pickomino", "needs one of: score, start"),
        ("/pickomino begin", "has no begin; choose one of: score, start"),
        ("/pickomino score player", "needs who:"),
        ("/pickomino start colour:red", "has no option colour"),
        ("/pickomino start turn_timer:soon", "turn_timer must be a number"),
        ("/pickomino start turn_timer:90", "between 0 and 60"),
        ("/pickomino start hints:maybe", "hints is true or false"),
        ("/pickomino start first_player:me", "must be one of: Random seat, The host"),
        ("/pickomino start hints:true hints:false", "given twice"),
        ("/pickomino start hints:", "has no value"),
        ("/pickomino start " + "x" * 5000, "too long"),
    ],
)
def test_what_cannot_be_sent_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(TypedCommandError) as refused:
        parse(text, SCHEMA)
    assert says in str(refused.value)


GERMAN = [
    {
        "name": "pickomino",
        "type": 1,
        "options": [
            {
                "name": "start",
                "name_localizations": {"de": "starten"},
                "type": 1,
                "options": [
                    {"name": "hints", "name_localizations": {"de": "tipps"}, "type": 5},
                    {
                        "name": "first_player",
                        "name_localizations": {"de": "startspieler"},
                        "type": 3,
                        "choices": [
                            {
                                "name": "Random seat",
                                "value": "random",
                                "name_localizations": {"de": "Zufälliger Platz"},
                            },
                            {
                                "name": "The host",
                                "value": "host",
                                "name_localizations": {"de": "Der Gastgeber"},
                            },
                        ],
                    },
                ],
            }
        ],
    }
]


def test_names_as_a_german_client_shows_them_are_read_and_sent_as_registered() -> None:
    typed = parse("/pickomino starten tipps:falsch startspieler:der gastgeber", GERMAN, "de")
    assert typed.path == ("pickomino", "start")
    assert typed.options == {"hints": False, "first_player": "host"}
    # The registered names work too (a README's example in a German tab).
    assert parse("/pickomino start hints:true", GERMAN, "de").options == {"hints": True}
    with pytest.raises(TypedCommandError) as refused:
        parse("/pickomino starten startspieler:ich", GERMAN, "de")
    assert refused.value.params["choices"] == "Zufälliger Platz, Der Gastgeber"
    with pytest.raises(TypedCommandError) as refused:
        parse("/pickomino beginnen", GERMAN, "de")
    assert refused.value.params["choices"] == "starten"
