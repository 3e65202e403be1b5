"""Languages through the real handlers: the shared game message speaks the game's
language (the host's client language or /<game> start's `language`, kept across a
restart); every ephemeral answer speaks the language of the person who clicked."""

from __future__ import annotations

import pytest

from bot.devserver.standin import _FormErrors, _validate_message_fields
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeUser, StoredMessage


def _dice(message: StoredMessage) -> list[dict]:
    return [b for b in message.enabled() if ":pick:" in b["custom_id"]]


async def _play_to_the_end(harness: BotHarness, live: StoredMessage, turns: int) -> None:
    for _ in range(turns):
        message = harness.message(live.id)
        best = max(_dice(message), key=lambda button: int(button["label"]))
        result = await harness.click(await harness.current_user(), message, best["custom_id"])
        assert result.edited, result.ephemeral


async def test_a_picker_game_in_german_with_refusals_in_each_clickers_language(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne, bob, cara = (harness.user(name, locale="de") for name in ("Anne", "Bob", "Cara"))
        piotr = harness.user("Piotr", locale="pl")
        live = (await harness.slash(anne, "picker", "start", turn_timer=0)).message
        assert "Picker-Lobby" in live.text() and "Mitspielen" in live.labels()
        for person in (bob, cara):
            await harness.click(person, harness.message(live.id), "Mitspielen")
        refused = await harness.click(piotr, harness.message(live.id), "Starten")
        assert refused.ephemeral is not None and "gospodarz (Anne)" in refused.ephemeral
        await harness.click(anne, harness.message(live.id), "Starten")

        message = harness.message(live.id)
        assert "Picker · Runde 1 von 6" in message.text() and "Zur Wahl" in message.text()
        assert "0 Punkte" in message.text()
        die = _dice(message)[0]["custom_id"]
        assert (await harness.click(piotr, message, die)).ephemeral == "Nie grasz w tej partii."
        waiting = bob if (await harness.current_user()).id == anne.id else anne
        turn = (await harness.click(waiting, message, die)).ephemeral
        assert turn is not None and turn.endswith(" ist am Zug.")
        # The shared message stays German whoever clicked last.
        assert "Picker · Runde 1 von 6" in harness.message(live.id).text()

        await _play_to_the_end(harness, live, 3 * 6)
        final = harness.message(live.id).text()
        assert "Picker · Partie vorbei" in final and "Endstand" in final
        assert "+ Bonus" in final and "+ bonus" not in final
        assert "game over" not in final and "Last moves" not in final


async def test_the_language_option_beats_the_hosts_client_language(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        anne = harness.user("Anne")  # en-US
        live = (await harness.slash(anne, "picker", "start", turn_timer=0, language="pl")).message
        assert "Poczekalnia: Picker" in live.text() and "Dołącz" in live.labels()
        assert (await harness.session()).language == "pl"
        rules = await harness.slash(anne, "picker", "rules")  # ephemeral: Anne's English
        assert rules.message.embed["title"] == "Picker rules"


async def test_the_games_language_survives_a_restart(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as first:
        anne, bob, cara = (first.user(name, locale="fr") for name in ("Anne", "Bob", "Cara"))
        live = (await first.slash(anne, "picker", "start", turn_timer=0)).message
        for person in (bob, cara):
            await first.click(person, first.message(live.id), "Rejoindre")
        await first.click(anne, first.message(live.id), "Lancer")
    async with BotHarness.running(tmp_path / "bot.db", fake=first.fake) as second:
        eve = FakeUser(anne.id + 100, "Eve")  # English client
        second.fake.members[eve.id] = eve
        status = await second.slash(eve, "picker", "status")
        assert "Picker · manche 1 sur 6" in status.message.text()


async def test_pickomino_answers_in_the_askers_language(tmp_path):
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        hans = harness.user("Hans", locale="de")
        nothing = await harness.slash(hans, "pickomino", "status")
        assert nothing.ephemeral == (
            "In diesem Kanal läuft keine Pickomino-Partie. Starte eine mit /pickomino starten."
        )
        rules = (await harness.slash(hans, "pickomino", "rules")).message.embed
        assert rules["title"] == "Pickomino-Regeln" and "Bratwurmportion" in rules["description"]
        assert "/pickomino starten" in rules["fields"][0]["name"]


def _action(message: StoredMessage, action: str) -> str:
    """The custom_id of the button for a click (labels differ by language, ids do not)."""
    return next(
        b["custom_id"] for b in message.buttons if b["custom_id"].startswith(f"pko:{action}:")
    )


def _discord_refusals(messages: list[StoredMessage]) -> dict:
    """What Discord would refuse in these messages (its length and count limits)."""
    errors = _FormErrors()
    for message in messages:
        _validate_message_fields(errors, (message.id,), message.payload, allowed_flags=~0)
    return errors.tree


@pytest.mark.parametrize("locale", ["en-US", "de", "fr", "it", "nl", "es-ES", "pl", "pt-BR"])
async def test_every_message_of_a_game_fits_discords_limits_in_every_language(tmp_path, locale):
    """A whole Picker game with hints and refusals, and a Pickomino lobby with every
    option (the longest option lines) and its rules, all in one language."""
    async with BotHarness.running(tmp_path / "bot.db") as harness:
        people = [harness.user(name, locale=locale) for name in ("Anne", "Bob", "Cara")]
        live = (await harness.slash(people[0], "picker", "start", turn_timer=60)).message
        for person in people[1:]:
            lobby = harness.message(live.id)
            await harness.click(person, lobby, _action(lobby, "join"))
        lobby = harness.message(live.id)
        await harness.click(people[0], lobby, _action(lobby, "start"))
        await harness.slash(people[0], "picker", "rules")
        for _ in range(3 * 6):
            message = harness.message(live.id)
            player = await harness.current_user()
            hint = await harness.click(player, message, _action(message, "hint"))
            assert hint.ephemeral
            waiting = next(person for person in people if person.id != player.id)
            await harness.click(waiting, message, _dice(message)[0]["custom_id"])
            best = max(_dice(message), key=lambda button: int(button["label"]))
            assert (await harness.click(player, message, best["custom_id"])).edited
        pickomino_channel = CHANNEL_ID + 1
        await harness.slash(
            people[0], "pickomino", "start", channel_id=pickomino_channel,
            extrawurm=True, flip_on_empty_failure=True, lower_tile="any", first_player="host",
        )  # fmt: skip
        await harness.slash(people[0], "pickomino", "rules", channel_id=pickomino_channel)
        messages = [*harness.fake.messages.values()]
        assert len(messages) > 3 * 6
        assert _discord_refusals(messages) == {}
