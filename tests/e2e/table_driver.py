"""Playing at the table (the Activity) in real Chromium, as people do: through Discord's
client page on the stand-in's proxy origin, the real Embedded App SDK signing in, and
the bot's own table server behind the proxy.

- `TableStage` is what a test starts beside the bot: the stand-in's proxy in front of
  the bot's ACTIVITY_ADDR (signing every request, as Discord's does) and the settings
  that turn the bot's table on (`stage.env(...)` for `BotLauncher.start`).
- `Seat` is one person's browser context at the table: Discord's client page for their
  launch in a channel, the table's page in its iframe. It reads the page as it is drawn
  (buttons by role and accessible name, the headline, the end screen) and, through an
  init script in the table's frame, every `state` the page drew and every `act` it sent,
  with the browser's clock (the same wall clock as the test's `time.time()`).
- `Chat` is the channel's live message at the stand-in: its version (from its buttons'
  custom_ids) and clicks on its buttons.
- `Timeline` keeps the actions made and, from the seats' records, tells how long each
  took to show on every other tab (`latencies()`), and what the tabs showed (`shown()`).

The move strings are the same at the table (`data-key` "move:keep:w") and in the chat
(custom_id "pko:move:<session>:<version>:keep:w"), so one policy plays either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import (
    Browser,
    BrowserContext,
    Frame,
    FrameLocator,
    Page,
    ViewportSize,
)
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.devserver.standin import FakeDiscord, FakeMessage
from bot.devserver.standin.models import walk
from bot.devserver.standin.proxy import ActivityProxy
from bot.render.custom_ids import ClickAction, ComponentRef
from bot.table.pace import TokenBucket
from tests.chromium import plain_chromium

PHONE: ViewportSize = {"width": 390, "height": 844}
# A person's pace: the table refuses a tab's actions beyond 4 a second after a burst of
# 8 (bot.table.pace); a seat presses a little under it, as the server counts arrivals.
PRESS_RATE = 3.5
PRESS_BURST = 7
SIGN_IN_TIMEOUT = 30.0  # the page's load, the SDK's handshake, the consent, the socket
STEP_TIMEOUT = 10.0  # one action showing on a tab
TABLE_FRAME = "/.proxy/t-"  # the path of a launch's table page at the proxy

# In the table's frame only, before its scripts: every state frame the page drew (its
# handler draws synchronously, so the time after it is when the tab showed it), every
# act it sent, and every close of its socket; times are the wall clock in ms.
RECORD = """
(() => {
  if (!location.pathname.startsWith('/.proxy/')) return;
  const record = {states: [], acts: [], closes: []};
  window.__table = record;
  const Native = window.WebSocket;
  class Recorded extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('close', (e) => record.closes.push({code: e.code, at: Date.now()}));
    }
    send(data) {
      try {
        const frame = JSON.parse(data);
        if (frame.t === 'act') record.acts.push({...frame, at: Date.now()});
      } catch (e) {}
      return super.send(data);
    }
    set onmessage(handler) {
      super.onmessage = (event) => {
        handler.call(this, event);
        let frame = null;
        try { frame = JSON.parse(event.data); } catch (e) { return; }
        if (frame.t === 'state') {
          record.states.push({session: frame.session, version: frame.version,
                              phase: frame.scene.phase, at: Date.now()});
        } else if (frame.t === 'refused') {
          record.acts.push({t: 'refused', n: frame.n, text: frame.text, at: Date.now()});
        }
      };
    }
    get onmessage() { return super.onmessage; }
  }
  window.WebSocket = Recorded;
})();
"""

# The table page's buttons as drawn: key (what it sends), accessible name, label, enabled.
_BUTTONS = """() => [...document.querySelectorAll('button[data-key]')].map(b => ({
  key: b.dataset.key, name: b.getAttribute('aria-label') || '',
  label: (b.querySelector('.text') || b).textContent, enabled: !b.disabled}))"""


table_browser = plain_chromium  # the tests here name it after what they open


# ---- the stage ----------------------------------------------------------------------


class TableStage:
    """The stand-in's Activity proxy in front of the bot's table server on
    `activity_addr`; `env()` is what turns the bot's table on against the stand-in."""

    def __init__(self, fake: FakeDiscord, activity_addr: str) -> None:
        fake.enable_activities()
        self.fake = fake
        self.proxy = ActivityProxy(fake, activity_addr, sign=True)

    async def __aenter__(self) -> TableStage:
        await self.proxy.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.proxy.close()

    def env(self, dice_seed: str | None = None, step_seconds: str = "0") -> dict[str, str]:
        """The bot's settings: the client secret (the table on), the proxy's public key
        (only signed requests served), pinned dice, computer players without pauses."""
        env = {
            "DISCORD_CLIENT_SECRET": self.fake.client_secret,
            "DISCORD_PUBLIC_KEY": self.fake.public_key,
            "BOT_STEP_SECONDS": step_seconds,
        }
        if dice_seed is not None:
            env["DICE_SEED"] = dice_seed
        return env

    async def seat(
        self,
        browser: Browser,
        user: str,
        channel_id: int | None = None,
        *,
        viewport: ViewportSize = PHONE,
        locale: str = "en-US",
    ) -> Seat:
        """`user` opens the table in a channel (the first by default) in a browser of
        their own, signed in (the consent given once asked)."""
        channel = channel_id or self.fake.channel.id
        url = self.proxy.client_url(user, channel)
        return await Seat.open(browser, url, user, viewport=viewport, locale=locale)


# ---- one person at the table ---------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """A state the tab drew."""

    session: int | None
    version: int
    phase: str
    at: float  # seconds, wall clock


@dataclass(frozen=True)
class Button:
    key: str  # "move:keep:w", "join:", ...: what it sends
    name: str  # its accessible name
    label: str
    enabled: bool

    @property
    def action(self) -> str:
        return self.key.split(":", 1)[0]

    @property
    def arg(self) -> str:
        return self.key.split(":", 1)[1]


class Seat:
    """One person's browser context: Discord's client page with the table in its iframe."""

    def __init__(self, user: str, context: BrowserContext, page: Page) -> None:
        self.user = user
        self.context = context
        self.page = page
        self.errors: list[str] = []
        self.pace = TokenBucket(PRESS_RATE, PRESS_BURST)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @classmethod
    async def open(
        cls,
        browser: Browser,
        client_url: str,
        user: str,
        *,
        viewport: ViewportSize = PHONE,
        locale: str = "en-US",
    ) -> Seat:
        context = await browser.new_context(viewport=viewport, locale=locale)
        await context.add_init_script(RECORD)
        # Nothing leaves the machine: the page may reach its own origin only anyway.
        await context.route(
            lambda url: not url.startswith("http://127.0.0.1"), lambda route: route.abort()
        )
        page = await context.new_page()
        seat = cls(user, context, page)
        await page.goto(client_url)
        await seat.signed_in()
        return seat

    @property
    def table(self) -> FrameLocator:
        """Where the table's locators start: the iframe in Discord's client page."""
        return self.page.frame_locator("iframe")

    @property
    def frame(self) -> Frame:
        for frame in self.page.frames:
            if TABLE_FRAME in frame.url:
                return frame
        raise AssertionError(f"{self.user}: no table frame in {[f.url for f in self.page.frames]}")

    async def signed_in(self) -> None:
        """Until the table is drawn; Discord's consent dialog answered if it asks."""
        deadline = time.monotonic() + SIGN_IN_TIMEOUT
        authorize = self.page.get_by_role("dialog").get_by_role("button", name="Authorize")
        while time.monotonic() < deadline:
            with contextlib.suppress(PlaywrightTimeout):
                if await authorize.is_visible():
                    await authorize.click(timeout=1000)
            with contextlib.suppress(AssertionError, PlaywrightTimeout):
                if await self.frame.locator("main.table").count() > 0:
                    return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.user}: the table did not open")

    # -- what the tab recorded

    async def drawn(self) -> list[Drawn]:
        states = await self.frame.evaluate("window.__table.states")
        return [Drawn(s["session"], int(s["version"]), s["phase"], s["at"] / 1000) for s in states]

    async def sent(self) -> list[dict[str, Any]]:
        """Every act the page sent (n, session, version, action, arg, at in ms), and
        every refusal it got (t "refused", n, text)."""
        return list(await self.frame.evaluate("window.__table.acts"))

    async def closes(self) -> list[int]:
        return [int(c["code"]) for c in await self.frame.evaluate("window.__table.closes")]

    async def shown(self) -> Drawn | None:
        """The newest state the tab drew."""
        found = await self.drawn()
        return found[-1] if found else None

    async def wait_drawn(
        self,
        newer_than: int,
        session: int | None = None,
        *,
        timeout: float = STEP_TIMEOUT,
    ) -> Drawn:
        """Until the tab drew a state newer than `newer_than` (of `session`, or any new
        session); that state."""
        script = """([version, session]) => window.__table.states.some(s =>
            (session === null || s.session === session) && s.version > version)"""
        try:
            await self.frame.wait_for_function(
                script, arg=[newer_than, session], timeout=timeout * 1000, polling="raf"
            )
        except PlaywrightTimeout:
            raise AssertionError(
                f"{self.user}'s tab did not show a state after version {newer_than} within "
                f"{timeout:g} s; it shows {await self.shown()}"
            ) from None
        for state in await self.drawn():
            if state.version > newer_than and session in (None, state.session):
                return state
        raise AssertionError("unreachable")

    # -- what the page shows

    async def buttons(self) -> list[Button]:
        return [Button(**b) for b in await self.frame.evaluate(_BUTTONS)]

    async def enabled(self, action: str | None = None) -> list[Button]:
        return [
            b for b in await self.buttons() if b.enabled and (action is None or b.action == action)
        ]

    async def press(self, key: str) -> Button:
        """Press the button that sends `key`, found as a person with a screen reader
        finds it: by its role and accessible name; at a person's pace."""
        while not self.pace.take():
            await asyncio.sleep(0.02)
        [button] = [b for b in await self.buttons() if b.key == key]
        assert button.enabled, f"{self.user}: {key} is disabled"
        assert button.name, f"{self.user}: the {key} button has no accessible name"
        target = self.table.get_by_role("button", name=button.name, exact=True)
        await target.click(timeout=STEP_TIMEOUT * 1000)
        return button

    async def text(self, selector: str) -> list[str]:
        return list(await self.frame.locator(selector).all_inner_texts())

    async def headline(self) -> str:
        return (await self.text(".headline"))[0]

    async def ratings(self) -> list[str]:
        """The end screen's rating lines."""
        return await self.text(".end .ratings li")

    async def places(self) -> list[str]:
        return await self.text(".end .places li .name")

    async def problems(self) -> list[str]:
        """Uncaught errors in the tab (the table's and Discord's page)."""
        return list(self.errors)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.context.close()


# ---- the chat -----------------------------------------------------------------------


class Chat:
    """The channel's live message at the stand-in, as the chat shows it; `follow()`
    notes when its version changes, for `lags()`."""

    def __init__(self, fake: FakeDiscord, channel_id: int | None = None) -> None:
        self.fake = fake
        self.channel_id = channel_id or fake.channel.id
        self.changes: list[tuple[float, tuple[int, int]]] = []  # (wall clock, version)

    def live(self) -> FakeMessage:
        return self.fake.live_message(self.channel_id)

    def refs(self, message: FakeMessage | None = None) -> list[tuple[ComponentRef, str]]:
        """Each enabled button's click (session, version, action, arg) and custom_id."""
        found = []
        for button in (message or self.live()).buttons:
            ref = ComponentRef.parse(button.custom_id or "")
            if ref is not None and not button.disabled:
                found.append((ref, button.custom_id or ""))
        return found

    def version(self, message: FakeMessage | None = None) -> tuple[int, int] | None:
        """(session, version) the live message's buttons carry; None without any."""
        try:
            refs = self.refs(message)
        except LookupError:
            return None
        if not refs:
            return None
        return max((ref.session_id, ref.version) for ref, _ in refs)

    def moves(self) -> dict[str, tuple[str, bool]]:
        """The live message's moves: move string -> (custom_id, whether it is an option
        of the move menu rather than a button)."""
        message = self.live()
        found = {
            ref.arg: (cid, False)
            for ref, cid in self.refs(message)
            if ref.action is ClickAction.MOVE
        }
        for component in walk(message.components):
            ref = ComponentRef.parse(component.get("custom_id") or "")
            if ref is None or ref.action is not ClickAction.MENU or component.get("disabled"):
                continue
            for option in component.get("options") or []:
                found[option["value"]] = (ref.text, True)
        return found

    async def wait_version(self, session: int, version: int, *, timeout: float = 5.0) -> float:
        """Until the live message shows `version` of `session` or a newer one; when it
        did (wall clock)."""

        def caught_up() -> bool:
            shown = self.version()
            return shown is not None and shown >= (session, version)

        await self.fake.wait_for(caught_up, timeout=timeout, what=f"the live message at {version}")
        return time.time()

    async def click(self, user: str, custom_id: str) -> float:
        """`user` clicks a button of the live message; when the click was made."""
        at = time.time()
        await self.fake.click(user, self.live().id, custom_id)
        return at

    async def make(self, user: str, move: str) -> float:
        """`user` makes `move` with the live message's button (or its menu); when the
        click was made (wall clock)."""
        custom_id, menu = self.moves()[move]
        message = self.live()
        at = time.time()
        if menu:
            await self.fake.select(user, message.id, custom_id, [move])
        else:
            await self.fake.click(user, message.id, custom_id)
        return at

    def follow(self) -> None:
        """From now on, note each change of the live message's version and when."""

        def changed() -> None:
            shown = self.version()
            if shown is not None and (not self.changes or self.changes[-1][1] != shown):
                self.changes.append((time.time(), shown))

        self.fake.listeners.append(changed)

    def lags(self, timeline: Timeline) -> list[float]:
        """For each action at the table, seconds until the live message showed the
        state after it (`follow()` first); AssertionError if it never did."""
        found: list[float] = []
        for acted in timeline.acted:
            if acted.where != "table":
                continue
            after = [at for at, shown in self.changes if shown > (acted.session, acted.version)]
            assert after, f"the live message never showed the state after {acted}"
            found.append(after[0] - acted.at)
        return found


# ---- what happened, and how fast it showed -------------------------------------------


@dataclass(frozen=True)
class Acted:
    """An action made at `version` of `session`, by `user`, at the table or in the chat."""

    user: str
    where: str  # "table" or "chat"
    session: int
    version: int
    key: str
    at: float  # wall clock, seconds


@dataclass
class Timeline:
    acted: list[Acted] = field(default_factory=list)

    def add(self, acted: Acted) -> None:
        self.acted.append(acted)

    async def latencies(self, seats: Sequence[Seat]) -> list[float]:
        """For each action, seconds until each tab other than the actor's (every tab for a
        chat action) drew the state after it; AssertionError if a tab never did."""
        return [seconds for _, _, seconds in await self.delays(seats)]

    async def delays(self, seats: Sequence[Seat]) -> list[tuple[Acted, str, float]]:
        """`latencies()` with the action and the tab of each: (action, user, seconds)."""
        drawn = {seat.user: await seat.drawn() for seat in seats}
        found: list[tuple[Acted, str, float]] = []
        for acted in self.acted:
            for seat in seats:
                if acted.where == "table" and seat.user == acted.user:
                    continue
                after = [
                    d
                    for d in drawn[seat.user]
                    if d.session == acted.session and d.version > acted.version
                ]
                assert after, f"{seat.user}'s tab never showed {acted}"
                found.append((acted, seat.user, after[0].at - acted.at))
        return found


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


def summary(name: str, values: Sequence[float]) -> str:
    """ "<name>: n=.. p50=.. ms p99=.. ms max=.. ms"."""
    return (
        f"{name}: n={len(values)} p50={percentile(values, 0.5) * 1000:.0f} ms "
        f"p99={percentile(values, 0.99) * 1000:.0f} ms max={max(values) * 1000:.0f} ms "
        f"mean={statistics.fmean(values) * 1000:.0f} ms"
    )


# ---- choosing moves -----------------------------------------------------------------

Choose = Callable[[Sequence[str]], str]


def pickomino_choice(moves: Sequence[str]) -> str:
    """Claim the best tile on offer (a steal first), else keep worms then the highest
    face, else roll: a short game, and the same one for the same dice."""
    claims = [m for m in moves if m.startswith("claim:")]
    if claims:
        return max(claims, key=lambda m: (m.startswith("claim:s"), claimed_tile(m)))
    keeps = [m for m in moves if m.startswith("keep:")]
    if keeps:
        return max(keeps, key=lambda m: 99 if m == "keep:w" else int(m.split(":")[1]))
    for fallback in ("roll", "accept"):
        if fallback in moves:
            return fallback
    raise AssertionError(f"no Pickomino move among {moves}")


def claimed_tile(move: str) -> int:
    """The tile a Pickomino claim takes: 25 of "claim:g25" and of "claim:s25.<victim>"."""
    return int(move.split(":")[1][1:].split(".")[0])


def picker_choice(moves: Sequence[str]) -> str:
    """The first die offered (its order is the page's and the message's)."""
    picks = [m for m in moves if m.startswith("pick:")]
    assert picks, f"no Picker move among {moves}"
    return picks[0]


async def table_moves(seat: Seat) -> list[str]:
    """The move strings the seat's page offers now."""
    return [b.arg for b in await seat.enabled("move")]
