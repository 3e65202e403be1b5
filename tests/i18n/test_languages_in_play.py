"""Languages through the real handlers: the shared game message speaks the game's
language (the host's client language or /<game> start's `language`, kept across a
restart); every ephemeral answer speaks the language of the person who clicked."""

from __future__ import annotations

from tests.discord_harness import BotHarness, FakeUser, StoredMessage


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
        assert "Picker · Runde 1 von 6" in message.text() and "Auf dem Tisch" in message.text()
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
