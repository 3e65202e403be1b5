"""`make play` in a real browser: two tabs (Anne and Bob) in headless Chromium play a
whole Pickomino game and a whole Picker game (in a second channel) with a computer
player, by clicking the page; a wrong-turn click is refused in the clicker's tab only; the
bot process is SIGKILLed in the middle of a turn and the page recovers by itself.

Needs /usr/bin/chromium and Playwright (`make` installs them where it can); without them
this fails with one line saying how, unless SKIP_BROWSER=1. Screenshots at 390 and 1280
px go to out/play-test/ (PLAY_ARTIFACTS=dir elsewhere); the click-to-drawn times are
printed (benchmarks/bench_play.py prints them over a whole game)."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from pathlib import Path

import pytest

from benchmarks.support.stats import percentile
from bot.preview.shoot import Camera
from tests.devserver.play_driver import (
    REPO_ROOT,
    START_TIMEOUT,
    PlayServer,
    Tab,
    open_game,
    picker_move,
    pickomino_move,
    play_to_the_end,
    whose_turn,
)

ARTIFACTS = Path(os.environ.get("PLAY_ARTIFACTS", REPO_ROOT / "out" / "play-test"))
TEST_BUDGET = 240.0


async def shoot(tab: Tab, name: str) -> None:
    """The tab at phone and desktop widths, as test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((390, 844), (1280, 800)):
        await tab.page.set_viewport_size({"width": width, "height": height})
        await tab.page.evaluate(
            "() => { const c = document.getElementById('chat'); c.scrollTop = c.scrollHeight; }"
        )
        await tab.page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"))
    await tab.page.set_viewport_size({"width": 390, "height": 844})


async def test_two_tabs_play_pickomino_and_picker_through_a_sigkill(
    camera: Camera, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    began = time.monotonic()
    server = PlayServer(tmp_path / "data")
    failed = True
    try:
        async with asyncio.timeout(TEST_BUDGET):
            await server.start()
            anne = await Tab.open(camera.browser, server.url, "Anne")
            bob = await Tab.open(camera.browser, server.url, "Bob")
            tabs = {"Anne": anne, "Bob": bob}

            # The command box offers the games, their subcommands and options' choices.
            assert {"/pickomino", "/picker"} <= set(await anne.suggestions("/pi"))
            assert "start" in await anne.suggestions("/pickomino ")
            assert "turn_timer" in " ".join(await anne.suggestions("/pickomino start "))
            assert await anne.suggestions("/pickomino start hints:") == ["True", "False"]
            # Typing nonsense is refused in that tab, and nothing is sent.
            await anne.command("/nonsense now")
            await anne.page.wait_for_function("() => window.playStats.refusals > 0")
            assert "not a command" in await anne.page.inner_text("#refusal")

            await open_game(tabs, "/pickomino start turn_timer:0")
            shots: set[str] = set()

            async def picture(count: int, shown: object) -> None:
                """Bob's tab on his turn with dice to keep: the README's picture."""
                if "table" in shots or count < 8:
                    return
                live = await bob.live()
                keeps = [b for b in live.enabled("move") if ":keep:" in b["id"] + ":"]
                if whose_turn(live, list(tabs)) == "Bob" and len(keeps) >= 2:
                    shots.add("table")
                    await shoot(bob, "table")

            run = await play_to_the_end(
                server, tabs, pickomino_move, kill_after=6, on_action=picture
            )
            assert run.refused_in_wrong_tab and run.killed_at is not None
            assert run.restarts_seen == 1 and "table" in shots
            await shoot(anne, "pickomino-end")
            final = await bob.live()
            assert "Anne" in final.text and "Bob" in final.text
            assert (
                await anne.page.locator("#chat img.dc-gallery-image, #chat .dc-gallery img").count()
                >= 1
            ), "no end picture"
            pickomino_clicks = await anne.latencies() + await bob.latencies()

            # A second channel, opened from the page; Bob follows it there.
            anne.page.once(
                "dialog", lambda dialog: asyncio.ensure_future(dialog.accept("picker-table"))
            )
            await anne.page.click("#new-channel")
            await anne.page.wait_for_function(
                "() => document.querySelector('#channels .play-current')?.textContent"
                " === '#picker-table'"
            )
            await bob.page.click("#channels a:text('#picker-table')")
            await bob.page.wait_for_function(
                "() => document.querySelector('#chat').children.length === 0"
            )

            await open_game(tabs, "/picker start turn_timer:0")
            run = await play_to_the_end(server, tabs, picker_move, kill_after=3, kill_on="pick")
            assert run.refused_in_wrong_tab and run.restarts_seen == 1, run
            await shoot(bob, "picker-end")
            picker_final = (await bob.live()).text
            assert not anne.errors and not bob.errors, anne.errors + bob.errors
            fetched = anne.fetched + bob.fetched
            elsewhere = [url for url in fetched if not url.startswith((server.url, "data:"))]
            assert fetched and not elsewhere, f"the page fetched from elsewhere: {elsewhere}"
            failed = False
    finally:
        code = await server.stop_telling(failed)
    assert code == 0, server.log()
    assert not server.problems(), "\n".join(server.problems())

    # Ctrl-C and `make play` again: the channels and games are where they were. The
    # budget is the start's and the page's (START_TIMEOUT), which a loaded machine needs.
    async with asyncio.timeout(2 * START_TIMEOUT):
        again = await PlayServer(tmp_path / "data").start()
        failed = True
        try:
            carol = await Tab.open(camera.browser, again.url, "Anne")
            assert (await carol.live()).text == final.text
            await carol.page.click("#channels a:text('#picker-table')")
            await carol.wait_for(
                lambda shown: any(m.text == picker_final for m in shown), "the Picker game"
            )
            failed = False
        finally:
            code = await again.stop_telling(failed)
    assert code == 0, again.log()
    clicks = sorted(pickomino_clicks)
    p50 = statistics.median(clicks)
    p99 = percentile(clicks, 0.99)
    print(
        f"play page: click to drawn over {len(clicks)} Pickomino clicks: p50 {p50:.0f} ms, "
        f"p99 {p99:.0f} ms; {time.monotonic() - began:.0f} s"
    )
