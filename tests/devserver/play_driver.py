"""Playing `make play`'s page in headless Chromium, as people do: by clicking.

Shared by the browser test (tests/devserver/test_play_browser.py) and the benchmark
(benchmarks/bench_play.py). `PlayServer` runs `python -m bot.devserver` (the stand-in,
the page, and the real bot as its child) on a free port; `Tab` is one browser tab, one
person; `play_pickomino` and `play_picker` play whole games through the tabs, reading
only what the page shows (the live message's text and its buttons' custom_ids).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from playwright.async_api import TimeoutError as PlaywrightTimeout

import bot.games.picker  # noqa: F401  (its strings: whose_turn reads picker.pick_of)
from bot.games.pickomino.adapter import keep_move
from bot.games.pickomino.engine import Face
from bot.i18n import t

REPO_ROOT = Path(__file__).resolve().parents[2]
# Unicode's isolates, which the page puts around a name (a right-to-left one keeps its place).
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))
START_TIMEOUT = 60.0
STALE_AFTER = 2.0  # seconds a button to click may take to appear
STEP_TIMEOUT = 20.0  # seconds for one click to show (a restart of the bot included)
MAX_ACTIONS = 1500
KEEP_ORDER = [keep_move(Face.WORM)] + [
    keep_move(face) for face in sorted(set(Face) - {Face.WORM}, key=lambda f: -f.value)
]


def claim_labels(lang: str = "en") -> re.Pattern[str]:
    """The start of a claim button's label (Take 25, Steal 24 from ...) in `lang`."""
    keys = ("pickomino.button.take", "pickomino.button.steal")
    starts = (re.escape(t(k, lang, tile="\x00", name="\x00")).split("\x00")[0] for k in keys)
    return re.compile("^(" + "|".join(starts) + ")")


def _plain(text: str) -> str:
    return text.replace("*", "").strip()


def turn_lines(name: str, lang: str = "en") -> tuple[str, ...]:
    """What the live message says when it is `name`'s turn, in either game, in `lang`."""
    return (
        _plain(t("pickomino.turn_of", lang, name=name)),
        _plain(t("picker.pick_of", lang, name=name)),
    )


# ---- the server --------------------------------------------------------------------


@dataclass
class PlayServer:
    """`python -m bot.devserver --port 0` in a directory of its own."""

    data: Path
    step_seconds: float = 0.05
    real_discord: bool = False  # make play --real-discord
    without: tuple[str, ...] = ()  # ...but these behaviours (--without)
    activity_addr: str | None = None  # where the bot's table server listens (--activity-addr)
    process: asyncio.subprocess.Process | None = None
    url: str = ""
    output: list[str] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None

    async def start(self) -> PlayServer:
        env = dict(os.environ)
        for name in ("DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DATABASE_URL"):
            env.pop(name, None)
        env |= {"BOT_STEP_SECONDS": str(self.step_seconds), "PYTHONUNBUFFERED": "1"}
        env["LOG_LEVEL"] = "WARNING"
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
        flags = ["--real-discord"] if self.real_discord else []
        flags += [f"--without={name}" for name in self.without]
        flags += [f"--activity-addr={self.activity_addr}"] if self.activity_addr else []
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.devserver", "--port", "0", "--data", str(self.data),
            *flags,
            cwd=self.data.parent, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        opened = asyncio.get_running_loop().create_future()
        self._reader = asyncio.get_running_loop().create_task(self._read(opened))
        try:
            self.url = await asyncio.wait_for(opened, START_TIMEOUT)
        except TimeoutError:
            raise AssertionError("make play did not open:\n" + self.log()) from None
        return self

    async def _read(self, opened: asyncio.Future[str]) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.output.append(line)
            found = re.search(r"open at (http://\S+?)/? ", line)
            if found and not opened.done():
                opened.set_result(found.group(1))
        if not opened.done():
            opened.set_exception(AssertionError("make play exited:\n" + self.log()))

    def log(self) -> str:
        return "\n".join(self.output)

    def bot_pid(self) -> int:
        return int((self.data / "play-bot.pid").read_text())

    def kill_bot(self) -> int:
        """SIGKILL the bot process, as when its host dies; the server starts it again."""
        pid = self.bot_pid()
        os.kill(pid, signal.SIGKILL)
        return pid

    async def stop(self) -> int | None:
        """Ctrl-C, as a person stops `make play`; the exit status."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return self.process.returncode

    async def stop_telling(self, failed: bool) -> int | None:
        """`stop`, printing make play's output first when the test `failed` (pytest shows
        a failed test's prints): what the process said is what explains a timeout."""
        code = await self.stop()
        if failed:
            print(self.log())
        return code

    def problems(self) -> list[str]:
        return [line for line in self.output if re.search(r"\b(ERROR|CRITICAL)\b|^Traceback", line)]


@contextlib.asynccontextmanager
async def play_server(
    data: Path,
    step_seconds: float = 0.05,
    *,
    real_discord: bool = False,
    without: tuple[str, ...] = (),
) -> AsyncIterator[PlayServer]:
    server = PlayServer(data, step_seconds, real_discord, without)
    try:
        yield await server.start()
    finally:
        await server.stop()


# ---- a tab -------------------------------------------------------------------------

_LIVE = """() => {
  const slots = [...document.querySelectorAll('#chat .dc-slot')];
  const info = (slot) => ({
    id: slot.dataset.messageId,
    text: slot.innerText,
    ephemeral: !!slot.querySelector('.dc-ephemeral-message'),
    buttons: [...slot.querySelectorAll('.dc-button[data-custom-id]')].map(b => ({
      id: b.dataset.customId,
      label: (b.querySelector('.dc-label') || {}).textContent || '',
      disabled: b.classList.contains('dc-disabled'),
    })),
    selects: [...slot.querySelectorAll('.dc-select[data-custom-id]')].map(s => ({
      id: s.dataset.customId,
      values: [...s.querySelectorAll('li')].map(li => li.dataset.value),
    })),
  });
  return slots.map(info);
}"""


@dataclass
class Shown:
    """A message as the tab shows it."""

    id: str
    text: str
    ephemeral: bool
    buttons: list[dict[str, Any]]
    selects: list[dict[str, Any]]

    def enabled(self, action: str | None = None) -> list[dict[str, Any]]:
        return [
            b
            for b in self.buttons
            if not b["disabled"] and (action is None or f":{action}:" in b["id"] + ":")
        ]

    def button(self, action: str) -> dict[str, Any]:
        found = self.enabled(action)
        assert found, f"no enabled {action} button on\n{self.text}"
        return found[0]


class Stale(Exception):
    """The message changed under the pointer: what was to be clicked is not there."""


class Tab:
    """One browser tab: one person at the table."""

    def __init__(self, page: Any, name: str, step: float = STEP_TIMEOUT) -> None:
        self.page = page
        self.name = name
        self.step = step  # seconds for one click to show
        self.errors: list[str] = []
        self.fetched: list[str] = []  # every URL the tab asked for
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", lambda request: self.fetched.append(request.url))

    @classmethod
    async def open(
        cls,
        browser: Any,
        url: str,
        name: str,
        width: int = 390,
        lang: str | None = None,
        step: float = STEP_TIMEOUT,
    ) -> Tab:
        """A new browser (its own sessionStorage) at the table as `name`, in `lang` (the
        browser's language otherwise, English in the tests), waiting `step` seconds at
        most for a click to show."""
        context = await browser.new_context(viewport={"width": width, "height": 844})
        page = await context.new_page()
        page.set_default_timeout(step * 1000)
        tab = cls(page, name, step)
        query = {"as": name} | ({"lang": lang} if lang else {})
        await page.goto(f"{url}/?{urlencode(query)}")
        await page.wait_for_function(
            "() => window.playStats && window.playStats.online && window.playStats.commands > 1",
            timeout=START_TIMEOUT * 1000,
        )
        return tab

    async def messages(self) -> list[Shown]:
        shown = [Shown(**m) for m in await self.page.evaluate(_LIVE)]
        for message in shown:  # a name isolated for right-to-left reads as typed
            message.text = message.text.translate(ISOLATES)
        return shown

    async def live(self) -> Shown:
        """The newest message everyone sees that has buttons: the game."""
        for message in reversed(await self.messages()):
            if not message.ephemeral and message.buttons:
                return message
        raise AssertionError("no live message in the page")

    async def clicks(self) -> int:
        return int(await self.page.evaluate("() => window.playStats.clicks.length"))

    async def click(self, message_id: str, custom_id: str) -> None:
        """Click and wait until the page drew the answer (an edit or a new message);
        `Stale` if the button is gone by the time the click comes (a person looks again)."""
        before = await self.clicks()
        selector = f'.dc-slot[data-message-id="{message_id}"] [data-custom-id="{custom_id}"]'
        try:
            await self.page.click(selector, timeout=STALE_AFTER * 1000)
        except PlaywrightTimeout:
            raise Stale(f"{self.name}: {custom_id} is gone from message {message_id}") from None
        await self.page.wait_for_function(
            f"() => window.playStats.clicks.length > {before}", timeout=self.step * 1000
        )

    async def choose(self, message_id: str, custom_id: str, value: str) -> None:
        before = await self.clicks()
        slot = f'.dc-slot[data-message-id="{message_id}"]'
        await self.page.click(f'{slot} .dc-select[data-custom-id="{custom_id}"]')
        await self.page.click(f'{slot} .dc-select-options li[data-value="{value}"]')
        await self.page.wait_for_function(
            f"() => window.playStats.clicks.length > {before}", timeout=self.step * 1000
        )

    async def command(self, text: str) -> None:
        await self.page.fill("#command", text)
        await self.page.press("#command", "Escape")
        await self.page.press("#command", "Enter")

    async def suggestions(self, typed: str) -> list[str]:
        await self.page.fill("#command", typed)
        return list(await self.page.locator("#suggestions .play-what").all_inner_texts())

    async def wait_for(self, predicate: Callable[[list[Shown]], bool], what: str) -> list[Shown]:
        deadline = time.monotonic() + self.step
        while True:
            shown = await self.messages()
            if predicate(shown):
                return shown
            if time.monotonic() > deadline:
                texts = "\n---\n".join(m.text for m in shown[-3:])
                raise AssertionError(f"{self.name}'s tab: timed out waiting for {what}:\n{texts}")
            await asyncio.sleep(0.05)

    async def latencies(self) -> list[float]:
        return [float(x) for x in await self.page.evaluate("() => window.playStats.clicks")]


# ---- playing -----------------------------------------------------------------------


def whose_turn(message: Shown, names: Sequence[str], lang: str = "en") -> str | None:
    head = "\n".join(message.text.splitlines()[:8])
    for name in names:
        if any(line in head for line in turn_lines(name, lang)):
            return name
    return None


def is_over(message: Shown) -> bool:
    """The game's end: Play again, or Start a real game after a practice game."""
    return bool(message.enabled("again") or message.enabled("real"))


Move = Callable[[Shown], tuple[str, str, str | None]]


def pickomino_move_in(lang: str) -> Move:
    """The next move for a tab in `lang` (it reads the buttons' labels): ("click",
    custom_id, None) or ("choose", menu id, value): claim, keep, roll."""
    claim, roll = claim_labels(lang), t("pickomino.button.roll", lang)
    return lambda message: _pickomino_move(message, claim, roll)


pickomino_move = pickomino_move_in("en")


def _pickomino_move(
    message: Shown, claim: re.Pattern[str], roll: str
) -> tuple[str, str, str | None]:
    for select in message.selects:
        if ":claims:" in select["id"] and select["values"]:
            return "choose", select["id"], select["values"][0]
    moves = message.enabled("move")
    claims = [b for b in moves if claim.match(b["label"])]
    if claims:
        return "click", claims[0]["id"], None
    keeps = {b["id"].rsplit(":", 1)[-1]: b for b in moves if ":keep:" in b["id"] + ":"}
    for move in KEEP_ORDER:
        arg = move.split(":", 1)[-1]
        button = keeps.get(arg)
        if button is not None:
            return "click", button["id"], None
    rolls = [b for b in moves if b["label"] == roll]
    if rolls:
        return "click", rolls[0]["id"], None
    raise AssertionError(f"no move to make on\n{message.text}\n{moves}")


def picker_move(message: Shown) -> tuple[str, str, str | None]:
    dice = message.enabled("pick")
    assert dice, f"no die to pick on\n{message.text}"
    best = max(dice, key=lambda b: int(b["label"]) if b["label"].isdigit() else 0)
    return "click", best["id"], None


@dataclass
class GameRun:
    actions: int = 0
    refused_in_wrong_tab: bool = False
    killed_at: int | None = None
    restarts_seen: int = 0
    stale: list[str] = field(default_factory=list)


async def click_live(tab: Tab, action: str) -> Shown:
    """Click `action` on the live message as the tab shows it now; again on the newer one
    if an edit on its way replaced it first (with Discord's latency it may)."""
    for _ in range(5):
        live = await tab.live()
        try:
            await tab.click(live.id, live.button(action)["id"])
        except Stale:
            continue
        return live
    raise AssertionError(f"{tab.name}: {action} kept going stale")


async def open_game(tabs: dict[str, Tab], command: str, bots: int = 1) -> Shown:
    """The first tab types `command`, the others join, the host adds bots and starts."""
    host, *others = tabs.values()
    await host.command(command)
    lobby = (await host.wait_for(lambda s: bool(s and s[-1].enabled("join")), "the lobby"))[-1]
    for tab in others:
        await tab.wait_for(lambda s, i=lobby.id: any(m.id == i for m in s), "the lobby")
        await click_live(tab, "join")
    for _ in range(bots):
        lobby = await click_live(host, "addbot")
        # Awaited, not read at once: with Discord's latency an edit of the lobby still on
        # its way may be what the page drew first.
        shown = await host.wait_for(lambda s: bool(s and s[-1].enabled("bot")), "the offer")
        offer = shown[-1]
        assert offer.ephemeral, f"Add bot answered with\n{offer.text}"
        await host.click(offer.id, offer.enabled("bot")[0]["id"])
        # The lobby's edit follows the answer to the click on the offer.
        await host.wait_for(lambda s, old=lobby.text: _live_text(s) != old, "the bot seated")
    await click_live(host, "start")
    return await host.live()


async def play_to_the_end(
    server: PlayServer | None,
    tabs: dict[str, Tab],
    move: Callable[[Shown], tuple[str, str, str | None]],
    *,
    kill_after: int | None = None,
    kill_on: str = "keep",
    wrong_turn_by: str | None = "Bob",
    on_action: Callable[[int, Shown], Any] | None = None,
    lang: str = "en",
) -> GameRun:
    """Every person plays their turns in their own tab until the game is over; one wrong
    click by `wrong_turn_by` when it is someone else's turn, and (with `server`) one
    SIGKILL of the bot in the middle of a turn after `kill_after` actions. `lang` is the
    tabs' language (the one the page shows its turn lines in)."""
    run = GameRun()
    names = list(tabs)
    watcher = tabs[names[0]]
    while run.actions < MAX_ACTIONS:
        message = await watcher.live()
        if is_over(message):
            return run
        player = whose_turn(message, names, lang)
        if player is None:  # a computer player's turn: its steps arrive by themselves
            await watcher.wait_for(
                lambda s, old=message.text: _live_text(s) != old, "a computer player's step"
            )
            continue
        tab = tabs[player]
        mine = await tab.live()
        if mine.text != message.text:  # this tab has not drawn it yet
            await asyncio.sleep(0.02)
            continue
        if wrong_turn_by not in (None, player) and not run.refused_in_wrong_tab:
            await wrong_turn(tabs, wrong_turn_by, player, mine, move)
            run.refused_in_wrong_tab = True
        kind, custom_id, value = move(mine)
        try:
            if kind == "choose":
                assert value is not None
                await tab.choose(mine.id, custom_id, value)
            else:
                await tab.click(mine.id, custom_id)
        except Stale as stale:
            run.stale.append(str(stale))
            assert len(run.stale) < 10, "\n".join(run.stale)
            continue
        run.actions += 1
        if on_action is not None:
            await on_action(run.actions, mine)
        if (
            server is not None
            and kill_after is not None
            and run.killed_at is None
            and run.actions >= kill_after
            and f":{kill_on}:" in custom_id + ":"
        ):
            run.killed_at = run.actions
            server.kill_bot()
            await watcher.page.wait_for_function("() => window.playStats.online === false")
            run.restarts_seen += 1
            await watcher.page.wait_for_function(
                "() => window.playStats.online === true", timeout=START_TIMEOUT * 1000
            )
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


def _live_text(shown: list[Shown]) -> str:
    for message in reversed(shown):
        if not message.ephemeral and message.buttons:
            return message.text
    return ""


async def wrong_turn(
    tabs: dict[str, Tab],
    other: str,
    player: str,
    message: Shown,
    move: Callable[[Shown], tuple[str, str, str | None]],
) -> None:
    """`other` clicks the move of `player`: a refusal in their tab only, and the live
    message unchanged."""
    tab = tabs[other]
    kind, custom_id, _ = move(message)
    if kind != "click":
        return
    refusal = t("error.not_your_turn", name=player)
    await tab.click(message.id, custom_id)
    shown = await tab.wait_for(
        lambda s: any(m.ephemeral and refusal in m.text for m in s), "the refusal"
    )
    assert _live_text(shown) == message.text, "a wrong-turn click changed the game"
    for name, elsewhere in tabs.items():
        if name != other:
            seen = await elsewhere.messages()
            assert not any(refusal in m.text for m in seen if m.ephemeral), (
                f"{other}'s refusal showed in {name}'s tab"
            )
