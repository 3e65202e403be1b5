"""`/pickomino learn` in `make play`'s page, in English and in German: a tab types the
learn command (its German name in German), plays the practice game to the end by
clicking what the page shows (moves chosen as play_driver chooses them: claims the grill
before a steal, so this learner leaves the offered steal), sees the coaching lines of
the scripted steps (a keep, a claim, a bust, a steal on offer) in its language, reads
an end summary that says what the learner did (the steal left, as the standings show),
and presses Start a real game: a lobby opens.

Every text the page drew is recorded in the page (a MutationObserver), so a line shown
only while the computer player moves is seen however fast it moves. Screenshots at 390
px go to out/play-test/ (PLAY_ARTIFACTS elsewhere).
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.games.pickomino.learn.script import GRILL
from bot.i18n import t
from bot.preview.shoot import Camera
from tests.devserver.play_driver import (
    ISOLATES,
    Tab,
    click_live,
    is_over,
    pickomino_move_in,
    play_server,
    play_to_the_end,
)
from tests.devserver.test_play_browser import ARTIFACTS

BUDGET = 180.0
LEARNER = "Anne"

# Every text a message slot showed, in the order the page drew them.
_RECORD = """() => {
  window.drawn = [];
  const chat = document.getElementById('chat');
  const note = () => {
    for (const slot of chat.querySelectorAll('.dc-slot')) {
      const text = slot.innerText;
      if (window.drawn[window.drawn.length - 1] !== text) window.drawn.push(text);
    }
  };
  new MutationObserver(note).observe(chat, {childList: true, subtree: true, characterData: true});
  note();
}"""


async def drawn(tab: Tab) -> str:
    texts = await tab.page.evaluate("() => window.drawn")
    return "\n".join(texts).translate(ISOLATES).replace("*", "")


def shows(seen: str, template: str) -> bool:
    """Whether `seen` holds the line `template`, any name where it has a NUL."""
    pattern = "[^\n]+?".join(re.escape(part) for part in template.split("\x00"))
    return re.search(pattern, seen) is not None


def learners_tally(end: str) -> str:
    """The learner's line of tiles taken, steals and busts under the standings (each
    count held to its noun by a no-break space, read here as a space)."""
    lines = end.replace("\u00a0", " ").splitlines()
    row = next(i for i, text in enumerate(lines) if re.search(rf"\d\. {LEARNER} ·", text))
    return lines[row + 1]


async def shot(tab: Tab, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await tab.page.evaluate(
        "() => { const c = document.getElementById('chat'); c.scrollTop = c.scrollHeight; }"
    )
    await tab.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_pickomino_learn_is_played_to_the_end_in_the_page(
    camera: Camera, tmp_path: Path, lang: str
) -> None:
    def line(key: str, **params: Any) -> str:
        return t(key, lang, **params).replace("*", "")

    began = time.monotonic()
    async with asyncio.timeout(BUDGET), play_server(tmp_path / "data") as server:
        anne = await Tab.open(camera.browser, server.url, LEARNER, lang=lang)
        await anne.page.evaluate(_RECORD)
        learn = t("command.name.learn", lang)
        assert learn in await anne.suggestions("/pickomino ")
        await anne.command(f"/pickomino {learn}")
        await anne.wait_for(lambda shown: bool(shown) and "🎓" in shown[-1].text, "the lesson")
        start = (await anne.live()).text
        assert line("pickomino.learn.start", low=min(GRILL), high=max(GRILL)) in start
        await shot(anne, f"learn-start-{lang}-390")

        shots: set[str] = set()

        async def picture(count: int, shown: object) -> None:
            """The learner's tab with a keep to make, and after the bust (if the computer's
            first step has not replaced it yet): the lesson at a phone's width."""
            live = await anne.live()
            for name, key in (("keep", "keep.first"), ("bust", "bust.no_new_face")):
                if name not in shots and line(f"pickomino.learn.{key}") in live.text:
                    shots.add(name)
                    await shot(anne, f"learn-{name}-{lang}-390")

        move = pickomino_move_in(lang)
        run = await play_to_the_end(
            None, {LEARNER: anne}, move, wrong_turn_by=None, on_action=picture, lang=lang
        )
        final = await anne.live()
        assert is_over(final)
        seen = await drawn(anne)
        # The scripted steps, coached in the tab's language.
        assert line("pickomino.learn.keep.first") in seen  # turn 1: a keep
        assert line("pickomino.learn.stop", total=25, tile=25) in seen  # ...and a claim
        assert line("pickomino.learn.took", tile=25) in seen
        assert line("pickomino.learn.need_worm") in seen  # turn 3: no worm, then a bust
        bust = line("pickomino.learn.bust.no_new_face")  # the rule, and what it cost
        assert f"{bust} {line('pickomino.learn.bust.cost.both')}" in seen
        assert "💥" in seen
        assert shows(seen, line("pickomino.learn.steal_aim", name="\x00", tile=24))  # turn 5
        assert shows(seen, line("pickomino.learn.claim.steal", name="\x00", tile=24))
        # The end says what happened: the scripted claim and bust, and the steal left
        # (unless the random turns after the script brought one the driver had to take).
        end = final.text.replace("*", "")
        assert line("pickomino.learn.summary.no_take") not in end
        assert line("pickomino.learn.summary.no_bust") not in end
        stole = t("pickomino.final.steals", lang, count=0) not in learners_tally(end)
        assert (line("pickomino.learn.summary.no_steal") in end) is not stole
        assert (line("pickomino.learn.summary.all") in end) is stole
        real, review = t("learn.button.real_game", lang), t("review.button", lang)
        assert [b["label"].strip() for b in final.enabled()] == [real, review]
        await shot(anne, f"learn-end-{lang}-390")
        await click_live(anne, "real")
        # The practice game's review is an ephemeral follow-up worked out after the end, so
        # it may land below the lobby: the lobby is the newest message with Join, not the last.
        shown = await anne.wait_for(lambda s: any(m.enabled("join") for m in s), "a lobby")
        lobby = [m for m in shown if m.enabled("join")][-1]
        assert not lobby.ephemeral and lobby.id != final.id
        await anne.wait_for(  # pressed once: the button is gone from the end message
            lambda s: not any(m.id == final.id and m.buttons for m in s), "the button gone"
        )
        assert t("lobby.button.join", lang) in [b["label"].strip() for b in lobby.buttons]
        await shot(anne, f"learn-lobby-{lang}-390")
        assert not anne.errors, anne.errors
        print(f"learn in {lang}: {run.actions} clicks, {time.monotonic() - began:.1f} s")
    assert not server.problems(), "\n".join(server.problems())
