"""Whole Pickomino games through the real handlers in German and Polish (the longest
languages), with seven players of 32-character names and the Extrawurm expansion: the
shared message, the hints, the refusals (the engine's own reasons too) and the end screen
speak the game's language, no English word of a translated string leaks in, no raw key
shows, and every state of every message stays within Discord's limits. A shorter game in
each of the other languages checks the same."""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest

from bot.devserver.standin import _FormErrors, _validate_message_fields
from bot.games.pickomino.engine import Face, Phase
from bot.games.pickomino.plugin import PICKOMINO
from bot.i18n import CATALOG_DIR, DEFAULT_LOCALE, LOCALES, area_catalog, catalog
from bot.sessions.model import Session
from bot.sessions.tools import ChangeTools
from tests.discord_harness import CHANNEL_ID, BotHarness, FakeUser, StoredMessage

NOW = 1_800_000_000.0  # a frozen clock: no turn runs out while the test plays
NAME_LIMIT = 32  # Discord's longest display name
LONG_NAMES = {
    "de": [
        "Maximilian-Alexander Hohenzoller",
        "Friederike Schwarzenberg-Ölmühle",
        "Hans-Jürgen Würfelkönig vom Grill",
        "Käthe Bratwurmbrätermeisterin 🌭",
        "Wolfgang Amadeus Portionsschnapp",
        "Ursula Fehlwurfvermeiderin 🎲🎲🎲",
        "Bartholomäus Zweihundertsechzig",
    ],
    "pl": [
        "Grzegorz Brzęczyszczykiewicz 🐛",
        "Małgorzata Szczebrzeszyńska-Kęd",
        "Konstanty Ildefons Gałczyński-Ż",
        "Przemysław Chrząszczyżewoszyce",
        "Bożydar Wszechmogący z Łęczycy 🎲",
        "Jadwiga Robaczkowa-Kiełbaskowa",
        "Władysław Źdźbło-Szczęśliwy 🌭🌭",
    ],
}
# What the game message says in each language: the turn line and the end screen's title.
TURN_WORDS = {"de": "ist am Zug**", "pl": "**Tura: "}
FACES_BEST_FIRST = ("keep:w", "keep:5", "keep:4", "keep:3", "keep:2", "keep:1")
RAW_KEY = re.compile(r"\b[a-z_]+\.[a-z_]+\.[a-z0-9_.]+\b")
WORD = re.compile(r"[^\W\d_]{4,}")
ENGLISH_AREAS = (
    (CATALOG_DIR, "core"),
    (PICKOMINO.catalogs, "pickomino"),
    (PICKOMINO.catalogs, "ai"),
)


def english_only_words(locale: str, names: list[str]) -> set[str]:
    """Words of the English strings that no string of `locale` (nor a player's name) uses:
    any of them in a message means an English string leaked into this language."""
    english = {
        word.lower()
        for root, area in ENGLISH_AREAS
        for template in area_catalog(DEFAULT_LOCALE, area, root).values()
        for literal, *_ in string.Formatter().parse(template)
        for word in WORD.findall(literal)
    }
    local = " ".join([*catalog(locale).values(), *names]).lower()
    return {word for word in english if not re.search(rf"\b{re.escape(word)}\b", local)}


def _texts(message: StoredMessage) -> list[str]:
    """Everything a person reads in a message: text, embeds, labels, menu options."""
    texts = [message.text(), *(b.get("label") or "" for b in message.buttons)]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [f"{f['name']} {f['value']}" for f in embed.get("fields") or []]
    for select in message.selects:
        texts.append(select.get("placeholder") or "")
        texts += [option["label"] for option in select.get("options") or []]
    return texts


def _discord_refusals(messages: list[StoredMessage]) -> dict:
    errors = _FormErrors()
    for index, message in enumerate(messages):
        _validate_message_fields(errors, (index,), message.payload, allowed_flags=~0)
    return errors.tree


def _button(message: StoredMessage, action: str) -> str | None:
    return next(
        (b["custom_id"] for b in message.enabled() if b["custom_id"].startswith(f"pko:{action}:")),
        None,
    )


def _forged(harness: BotHarness, user: FakeUser, message: StoredMessage, move: str) -> dict:
    """A click on a move no button offers (a button of an edited message, as a modified
    client could send): the engine itself refuses it, in its own words."""
    template = _button(message, "move")
    assert template is not None
    _, _, session_id, version, *_ = template.split(":")
    forged = f"pko:move:{session_id}:{version}:{move}"
    payload = harness.click_payload(user, message, template)
    payload["data"]["custom_id"] = forged
    payload["message"] = json.loads(json.dumps(payload["message"]).replace(template, forged))
    return payload


class Game:
    """One game being played: its people, the live message, and every state seen."""

    def __init__(self, harness: BotHarness, people: list[FakeUser]) -> None:
        self.harness = harness
        self.people = people
        self.seen: list[StoredMessage] = []
        self.hints: list[str] = []
        self.refusals: list[str] = []
        self.live_id = 0

    async def press(self, user: FakeUser, message: StoredMessage, custom_id: str) -> Any:
        result = await self.harness.click(user, message, custom_id)
        self.seen += result.messages
        return result

    async def open(self, locale: str, **options: object) -> None:
        host, *guests = self.people
        started = await self.harness.slash(host, "pickomino", "start", **options)
        self.seen += started.messages
        self.live_id = started.message.id
        for guest in guests:
            lobby = self.harness.message(self.live_id)
            join = _button(lobby, "join")
            assert join is not None
            await self.press(guest, lobby, join)
        lobby = self.harness.message(self.live_id)
        start = _button(lobby, "start")
        assert start is not None
        assert (await self.press(host, lobby, start)).edited

    async def step(self, *, ask: bool) -> bool:
        """One move of the player to move (with a hint and a refusal first when `ask`);
        False once the game is over."""
        message = self.harness.message(self.live_id)
        if _button(message, "again") is not None:
            return False
        player = await self.harness.current_user()
        if ask:
            hint = _button(message, "hint")
            if hint is not None:
                self.hints.append((await self.press(player, message, hint)).ephemeral or "")
            waiting = next(person for person in self.people if person.id != player.id)
            self.refusals.append(await self._refused(waiting, message))
        select = next(iter(message.selects), None)
        if select is not None:
            value = select["options"][0]["value"]
            result = await self.harness.choose(player, message, select["custom_id"], value)
            self.seen += result.messages
        else:
            choice = _choice(message)
            result = await self.press(player, message, choice)
            assert result.edited, (
                choice,
                [b["custom_id"] for b in message.buttons],
                message.text(),
            )
        return True

    async def _refused(self, user: FakeUser, message: StoredMessage) -> str:
        move = _button(message, "move")
        if move is None:
            return ""
        result = await self.press(user, message, move)
        assert not result.edited
        return result.ephemeral or ""

    async def engine_refusal(self, player: FakeUser, message: StoredMessage, move: str) -> str:
        result = await self.harness.dispatch(_forged(self.harness, player, message, move))
        self.seen += result.messages
        assert not result.edited
        return result.ephemeral or ""


def _choice(message: StoredMessage) -> str:
    """Keep the best face; stop for a decent tile when a claim is offered; else roll; in a
    roll with no new face, the Weasel or the bust."""
    moves = {b["custom_id"].split(":", 4)[4]: b["custom_id"] for b in message.enabled()
             if b["custom_id"].startswith("pko:move:")}  # fmt: skip
    for face in FACES_BEST_FIRST:
        if face in moves:
            return moves[face]
    claims = [move for move in moves if move.startswith("claim:")]
    if claims and ("roll" not in moves or int(re.findall(r"\d+", claims[0])[0]) >= 25):
        return moves[claims[0]]
    return moves.get("roll") or next(iter(moves.values()))


async def _a_menu_of_every_claim(harness: BotHarness, victim: FakeUser) -> None:
    """The player to move has kept 36 with 36 on top of `victim`'s stack (the longest
    name): every grill tile below and the steal are claims, more than buttons hold."""

    def set_up(session: Session, tools: ChangeTools) -> list:
        game = session.game
        game.grill.remove(36)
        game.stacks[str(victim.id)].append(36)
        game.kept = [Face.WORM] * 6 + [Face.THREE] * 2
        game.roll = None
        game.phase = Phase.CLAIM
        return []

    service = harness.bot.sessions
    await service.update(CHANNEL_ID, set_up, publish=service.listener.session_changed)


@pytest.mark.parametrize("locale", ["de", "pl"])
async def test_a_whole_pickomino_game_speaks_the_games_language(tmp_path, locale):
    names = [name[:NAME_LIMIT] for name in LONG_NAMES[locale]]
    async with BotHarness.running(tmp_path / "bot.db", clock=lambda: NOW) as harness:
        people = [harness.user(name, locale=locale) for name in names]
        game = Game(harness, people)
        await game.open(locale, extrawurm=True, lower_tile="any", turn_timer=60)
        message = harness.message(game.live_id)
        assert TURN_WORDS[locale] in message.text()

        # An engine refusal, in the clicker's words: a keep before any roll.
        player = await harness.current_user()
        refusal = await game.engine_refusal(player, message, "keep:5")
        assert refusal == {"de": "Erst würfeln.", "pl": "Najpierw rzuć kośćmi."}[locale]
        assert (await game.press(player, message, _button(message, "move") or "")).edited

        # The longest claim menu: sixteen claims, one a steal from a 32-character name.
        holder = await harness.current_user()
        victim = next(person for person in people if person.id != holder.id)
        await _a_menu_of_every_claim(harness, victim)
        menu = harness.message(game.live_id)
        game.seen.append(menu.snapshot())
        options = menu.selects[0]["options"]
        assert len(options) == 16 and victim.name in options[-1]["label"]
        assert await game.step(ask=True)

        steps = 0
        while await game.step(ask=steps % 5 == 0):
            steps += 1
            assert steps < 3000, "the game did not end"
        final = harness.message(game.live_id)
        game.seen.append(final.snapshot())

    texts = [text for message in game.seen for text in _texts(message)]
    title = {"de": "Pickomino · Partie vorbei", "pl": "Pickomino · koniec gry"}[locale]
    assert title in final.text()
    assert {"de": "Endstand", "pl": "Klasyfikacja"}[locale] in final.text()
    assert game.hints and all(hint.startswith("💡 ") for hint in game.hints)
    hint_words = {"de": "Siegchance", "pl": "szansa na wygraną"}[locale]
    assert all(hint_words in hint for hint in game.hints)
    turn_refusals = [text for text in game.refusals if text]
    assert turn_refusals
    leaked = english_only_words(locale, names)
    found = {word for text in texts for word in WORD.findall(text) if word.lower() in leaked}
    assert found == set()
    assert [text for text in texts if RAW_KEY.search(text)] == []
    assert _discord_refusals(game.seen) == {}


@pytest.mark.parametrize("locale", [code for code in LOCALES if code not in ("de", "pl")])
async def test_a_short_game_in_every_other_language_fits_and_does_not_leak(tmp_path, locale):
    names = [name[:NAME_LIMIT] for name in LONG_NAMES["de"][:4]]
    async with BotHarness.running(tmp_path / "bot.db", clock=lambda: NOW) as harness:
        people = [harness.user(name, locale=locale) for name in names]
        game = Game(harness, people)
        await game.open(locale, extrawurm=True, turn_timer=60)
        for step in range(60):
            if not await game.step(ask=step % 3 == 0):
                break
        assert game.hints and all(hint.startswith("💡 ") for hint in game.hints)
        texts = [text for message in game.seen for text in _texts(message)]
    if locale != DEFAULT_LOCALE:
        leaked = english_only_words(locale, names)
        found = {word for text in texts for word in WORD.findall(text) if word.lower() in leaked}
        assert found == set()
    assert [text for text in texts if RAW_KEY.search(text)] == []
    assert _discord_refusals(game.seen) == {}
