"""The table's page in real Chromium on the real Embedded App SDK, inside a fake Discord
parent on the same origin, against a scripted socket sending the scene code's samples:
the handshake and sign-in, the lobby and a turn drawn, buttons found by role and name
sending their acts, refusals, private text, a dropped socket, a refused token, motion
and reduced motion, and the page opened outside Discord."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from playwright.async_api import Browser, expect

from tests.table.page import samples
from tests.table.page.driver import Tab, open_tab
from tests.table.page.fake_table import CLIENT_ID, FakeTable
from tests.table.page.samples import WORDS

EN = WORDS["en"]
END = "End the Pickomino game for everyone"


async def signed_in(browser: Browser, table: FakeTable, **query: str) -> tuple[Tab, dict[str, Any]]:
    """A tab past the handshake and sign-in (its hello sent), showing `table.state`."""
    tab = await open_tab(browser, table, query)
    hello = await table.frame("hello")
    return tab, hello


async def test_the_handshake_signs_in_and_the_lobby_is_drawn(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_lobby", "de", version=7)
    tab, hello = await signed_in(browser, table, locale="de", user="101")

    assert hello["v"] == 1
    assert table.tokens.get(hello["token"]) == "101"
    assert hello["instance"] == await tab.page.evaluate("window.instanceId")
    assert hello["locale"] == "de"
    lobby = tab.table
    await expect(lobby.get_by_role("button", name="Pickomino", exact=False).first).to_be_visible()
    await expect(lobby.get_by_text("Pickomino-Lobby", exact=False).first).to_be_visible()
    await expect(lobby.get_by_role("button", name=re.compile("Schwer"))).to_be_enabled()
    assert await tab.frame.evaluate("document.documentElement.lang") == "de"

    seen = await tab.parent_seen()
    opcode, handshake = seen[0]
    assert opcode == 0
    assert handshake["client_id"] == CLIENT_ID and handshake["sdk_version"] == "2.5.0"
    commands = [payload["cmd"] for opcode, payload in seen if opcode == 1]
    assert commands == ["AUTHORIZE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE"]
    authorize = seen[1][1]["args"]
    assert authorize["scope"] == ["identify"] and authorize["prompt"] == "none"
    assert authorize["response_type"] == "code" and authorize["client_id"] == CLIENT_ID
    assert table.codes == {}, "the code was traded once"
    assert await tab.problems() == []
    await tab.close()


async def test_a_turn_is_drawn_and_buttons_send_their_acts(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_mid_roll", version=10)
    tab, _ = await signed_in(browser, table)
    page = tab.table

    keep = page.get_by_role("button", name="Keep the 4s")
    await keep.click()
    act = await table.frame("act")
    assert act == {
        "t": "act", "n": 1, "session": 42, "version": 10, "action": "move", "arg": "keep:4"
    }  # fmt: skip
    await expect(keep).to_be_disabled()  # until the next state or a refusal
    await expect(page.get_by_role("button", name="Keep the 1")).to_be_enabled()

    await table.show(samples.state("pickomino_steal", version=13))
    steal = page.get_by_role("button", name="Steal 27 from Bob")
    await steal.click()
    act = await table.frame("act")
    assert (act["n"], act["version"], act["arg"]) == (2, 13, "claim:s27.102")
    await expect(steal).to_be_disabled()
    await table.show(samples.state("pickomino_steal", version=14))
    await page.get_by_role("button", name="Roll 2 dice").click()
    act = await table.frame("act")
    assert (act["n"], act["version"], act["arg"]) == (3, 14, "roll")
    assert await tab.problems() == []
    await tab.close()


async def test_the_whole_turn_is_drawn(browser: Browser, table: FakeTable) -> None:
    table.state = samples.state("pickomino_mid_roll", version=10)
    tab, _ = await signed_in(browser, table)
    page = tab.table
    await expect(page.locator(".board .piece")).to_have_count(16)
    await expect(page.locator(".rolled .die")).to_have_count(5)
    await expect(page.locator(".kept .die")).to_have_count(3)
    await expect(page.get_by_text("Kept: 15")).to_be_visible()
    await expect(page.locator(".player")).to_have_count(3)
    await expect(page.locator(".player.you.to-move .name")).to_have_text("Anne")
    await expect(page.locator(".player.you .stack .count")).to_have_text("2")
    clock = page.get_by_role("timer", name=EN["time_left"])
    await expect(clock).to_have_text(re.compile(r"^[12]:\d\d$"))
    first = await clock.text_content()
    await expect(clock).not_to_have_text(first or "")  # counting down
    await tab.close()


async def test_a_refusal_is_shown_and_the_button_works_again(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_steal", "pl", version=13)
    tab, _ = await signed_in(browser, table, locale="pl")
    roll = tab.table.locator(".actions button[data-key='move:roll']")
    await roll.click()
    act = await table.frame("act")
    await expect(roll).to_be_disabled()

    await table.send({"t": "refused", "n": act["n"], "text": "Gra poszła dalej."})
    await expect(tab.table.get_by_role("alert")).to_have_text("Gra poszła dalej.")
    await expect(roll).to_be_enabled()
    await tab.close()


async def test_a_hint_opens_in_a_dialog_and_end_asks_first(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_mid_roll", version=10)
    tab, _ = await signed_in(browser, table)
    page = tab.table

    await page.get_by_role("button", name="Ask for a hint").click()
    act = await table.frame("act")
    assert act["action"] == "hint"
    lines = ["Keep the 4s: 23 is in reach.", "Your chance to take a tile: 71%."]
    await table.send({"t": "private", "n": act["n"], "title": "Hint", "lines": lines})
    dialog = page.get_by_role("dialog", name="Hint")
    await expect(dialog).to_contain_text(lines[1])
    await dialog.get_by_role("button", name=EN["close"]).click()
    await expect(dialog).to_have_count(0)

    await page.get_by_role("button", name=END).click()
    ask = page.get_by_role("dialog", name=EN["confirm_end"])
    await ask.get_by_role("button", name=EN["keep_playing"]).click()
    await page.get_by_role("button", name=END).click()
    await page.get_by_role("dialog").get_by_role("button", name=EN["confirm"]).click()
    act = await table.frame("act")
    assert act["action"] == "end", "only the confirmed End was sent"
    await tab.close()


async def test_a_dropped_socket_reconnects_and_shows_the_state_again(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_mid_roll", version=10)
    tab, first = await signed_in(browser, table)
    keep = tab.table.get_by_role("button", name="Keep the 4s")
    await expect(keep).to_be_enabled()

    await table.drop(1012)  # the server restarts
    banner = tab.table.get_by_role("status").filter(has_text=EN["reconnecting"])
    await expect(banner).to_be_visible()
    await expect(keep).to_be_disabled()
    table.state = samples.state("pickomino_steal", version=13)
    again = await table.frame("hello")
    assert again["token"] == first["token"], "the same token, no new sign-in"
    await expect(banner).to_be_hidden()
    await expect(tab.table.get_by_role("button", name="Steal 27 from Bob")).to_be_enabled()
    await tab.close()


async def test_a_refused_token_signs_in_again(browser: Browser, table: FakeTable) -> None:
    table.state = samples.state("pickomino_lobby", version=7)
    tab, first = await signed_in(browser, table)
    start = tab.table.get_by_role("button", name="Start the Pickomino game")
    await expect(start).to_be_enabled()

    table.tokens.clear()  # the token expired
    await table.drop(4401)
    again = await table.frame("hello")
    assert again["token"] != first["token"] and again["token"] in table.tokens
    authorizes = [p for o, p in await tab.parent_seen() if o == 1 and p["cmd"] == "AUTHORIZE"]
    assert len(authorizes) == 2
    await expect(start).to_be_enabled()
    await tab.close()


async def test_an_ended_instance_says_so_and_tries_again_when_asked(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_lobby", version=7)
    tab, _ = await signed_in(browser, table)
    await table.drop(4404)
    await expect(tab.table.get_by_role("alert")).to_contain_text(EN["ended"])
    await tab.table.get_by_role("button", name=EN["retry"]).click()
    await table.frame("hello")
    await expect(tab.table.get_by_role("button", name="Start the Pickomino game")).to_be_visible()
    await tab.close()


async def test_the_start_scene_offers_one_button_per_game(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("start", version=0, session=None)
    tab, _ = await signed_in(browser, table)
    await expect(tab.table.locator(".actions button")).to_have_count(2)
    await tab.table.get_by_role("button", name="Open a Picker lobby").click()
    act = await table.frame("act")
    assert act == {
        "t": "act",
        "n": 1,
        "session": None,
        "version": 0,
        "action": "open",
        "arg": "picker",
    }
    await tab.close()


async def test_without_actions_the_start_scene_still_offers_its_games(
    browser: Browser, table: FakeTable
) -> None:
    frame = samples.state("start", version=0, session=None)
    frame["scene"]["actions"] = []
    table.state = frame
    tab, _ = await signed_in(browser, table)
    await tab.table.get_by_role("button", name="Pickomino").click()
    act = await table.frame("act")
    assert (act["action"], act["arg"]) == ("open", "pickomino")
    await tab.close()


async def test_an_older_state_is_not_drawn_over_a_newer_one(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_steal", version=13)
    tab, _ = await signed_in(browser, table)
    await expect(tab.table.get_by_role("button", name="Steal 27 from Bob")).to_be_visible()
    await table.send(samples.state("pickomino_mid_roll", version=10))
    await table.send(samples.state("pickomino_end", version=21))
    again = tab.table.get_by_role("button", name="Play again with the same players")
    await expect(again).to_be_visible()
    await table.send(samples.state("pickomino_mid_roll", version=20))
    await asyncio.sleep(0.2)
    await expect(again).to_be_visible()
    await tab.close()


ANIMATIONS = """() => document.getAnimations().map((a) => {
  const t = a.effect.getComputedTiming();
  return {end: t.endTime, id: a.effect.target && a.effect.target.dataset.id};
})"""


async def test_a_roll_tumbles_the_dice_within_600_ms(browser: Browser, table: FakeTable) -> None:
    table.state = samples.state("pickomino_steal", version=9)
    tab, _ = await signed_in(browser, table)
    await expect(tab.table.get_by_role("button", name="Roll 2 dice")).to_be_visible()
    await table.show(samples.state("pickomino_mid_roll", version=10))
    await expect(tab.table.get_by_role("button", name="Keep the 4s")).to_be_visible()
    running = await tab.frame.evaluate(ANIMATIONS)
    assert {a["id"] for a in running} == {f"die-{i}" for i in range(3, 8)}
    assert max(a["end"] for a in running) <= 600
    await tab.close()


async def test_reduced_motion_skips_the_animations(browser: Browser, table: FakeTable) -> None:
    table.state = samples.state("pickomino_lobby", version=7)
    tab = await open_tab(browser, table, reduced_motion="reduce")
    await table.frame("hello")
    await expect(tab.table.get_by_role("button", name="Start the Pickomino game")).to_be_visible()
    for version, name in (
        (10, "pickomino_mid_roll"),
        (13, "pickomino_steal"),
        (21, "pickomino_end"),
    ):
        frame = samples.state(name, version=version)
        await table.show(frame)
        await expect(tab.table.get_by_text(frame["scene"]["headline"]).first).to_be_visible()
        await asyncio.sleep(0.05)
        assert await tab.frame.evaluate(ANIMATIONS) == []
    await tab.close()


async def test_outside_discord_the_page_says_to_open_it_from_discord(
    browser: Browser, table: FakeTable
) -> None:
    tab = await open_tab(browser, table, parent=False)
    await expect(tab.page.get_by_role("alert")).to_have_text(EN["open_from_discord"])
    assert table.config_locales == ["en-US"], "the words came in the browser's language"
    assert table.hellos == []
    assert await tab.problems() == []
    await tab.close()


async def test_a_declined_consent_offers_to_ask_again(browser: Browser, table: FakeTable) -> None:
    tab = await open_tab(browser, table, {"decline": "1"})
    await expect(tab.table.get_by_role("alert")).to_contain_text(EN["authorize"])
    await expect(tab.table.get_by_role("button", name=EN["authorize_button"])).to_be_visible()
    await tab.close()


async def test_the_phone_layout_keeps_clear_of_discords_safe_areas(
    browser: Browser, table: FakeTable
) -> None:
    table.state = samples.state("pickomino_mid_roll", version=10)
    tab, _ = await signed_in(browser, table, platform="mobile")
    await expect(tab.table.get_by_role("button", name="Keep the 4s")).to_be_visible()
    await tab.frame.evaluate(
        """() => { const s = document.documentElement.style;
        s.setProperty('--discord-safe-area-inset-top', '40px');
        s.setProperty('--discord-safe-area-inset-bottom', '30px'); }"""
    )
    bar = await tab.table.locator(".bar").bounding_box()
    actions = await tab.table.locator(".actions").bounding_box()
    last = await tab.table.locator(".actions button").last.bounding_box()
    assert bar is not None and actions is not None and last is not None
    assert bar["y"] >= 40
    assert last["y"] + last["height"] <= 844 - 30
    assert actions["y"] + actions["height"] == 844
    assert await tab.frame.evaluate("document.documentElement.dataset.platform") == "mobile"
    await tab.close()
