"""Which language is in force: Discord's codes mapped to ours, a context variable per
task, `with_locale` blocks; numbers and percentages as each language writes them."""

from __future__ import annotations

import asyncio

from bot.i18n import current_locale, number, percent, supported, t, use_locale, with_locale


def _spaces(text: str) -> str:
    """Babel writes no-break spaces (U+00A0, U+202F) where a person reads a space."""
    return text.replace("\xa0", " ").replace("\u202f", " ")


def test_discord_locale_codes_map_to_ours_and_anything_else_to_english():
    assert [supported(code) for code in ("en-US", "en-GB", "es-ES", "es-419", "pt-BR")] == [
        "en", "en", "es", "es", "pt-BR",
    ]  # fmt: skip
    assert [supported(code) for code in ("de", "fr", "it", "nl", "pl")] == [
        "de", "fr", "it", "nl", "pl",
    ]  # fmt: skip
    assert [supported(code) for code in ("ja", "pt", "", None, "xx-YY")] == ["en"] * 5


def test_with_locale_sets_the_language_for_the_block_only():
    with with_locale("de"):
        assert t("error.not_in_game") == "Du spielst in dieser Partie nicht mit."
        with with_locale("pl"):
            assert current_locale.get() == "pl"
        assert current_locale.get() == "de"
    assert t("error.not_in_game") == "You're not in this game."


async def test_each_task_keeps_its_own_language():
    started = asyncio.Event()

    async def speak(locale: str) -> str:
        use_locale(locale)
        started.set()
        await asyncio.sleep(0)  # the other task sets its language meanwhile
        return t("lobby.button.join")

    german, polish = await asyncio.gather(speak("de"), speak("pl"))
    assert (german, polish) == ("Mitspielen", "Dołącz")
    assert current_locale.get() == "en"  # the caller's context is untouched


def test_numbers_and_percentages_as_each_language_writes_them():
    assert _spaces(percent(0.457, "de")) == "45,7 %"
    assert _spaces(percent(0.457, "fr")) == "45,7 %"
    assert percent(0.457, "en") == "45.7%"
    assert percent(0.5, "en") == "50%"
    assert number(12345.5, "de") == "12.345,5"
    assert number(12345.5, "en") == "12,345.5"
    with with_locale("pl"):
        assert _spaces(number(12345.5)) == "12 345,5"
