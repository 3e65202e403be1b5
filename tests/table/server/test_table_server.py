"""The table's server in the bot process, against the Discord stand-in: the page and its
files under a strict CSP, the config and the code traded for a token, and tabs that are
welcomed in their language, shown the channel's game and act at it, every tab of the
channel shown each change within a second, the live message in the chat following."""

from __future__ import annotations

import time

from bot.i18n import t, with_locale
from bot.table.server import DISCORD_ORIGINS
from tests.table.server.conftest import SOON, TabClient, Table, live_message_at, tracebacks


async def test_the_page_its_assets_and_pictures_under_a_strict_policy(table: Table):
    async with table.http.get(f"{table.url}/") as page:
        assert page.status == 200 and page.content_type == "text/html"
        assert page.headers["Cache-Control"] == "no-cache"
        policy = page.headers["Content-Security-Policy"]
        html = await page.text()
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'self' https://discord.com" in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    script = html.split('src="', 1)[1].split('"', 1)[0]
    async with table.http.get(f"{table.url}/{script}") as asset:
        assert asset.status == 200 and asset.content_type == "text/javascript"
        assert "immutable" in asset.headers["Cache-Control"]
    async with table.http.get(f"{table.url}/pictures/pickomino/pko_tile_25.png") as missing:
        assert missing.status == 404  # not one of the game's emoji names
    name = next(iter(table.bot.games.plugin("pickomino").emojis()))  # type: ignore[misc]
    async with table.http.get(f"{table.url}/pictures/pickomino/{name}.png") as picture:
        assert picture.status == 200 and picture.content_type == "image/png"
        assert (await picture.read()).startswith(b"\x89PNG")
        assert picture.headers["Content-Security-Policy"] == policy
    for path in (
        "/pictures/picker/anything.png",  # a game without pictures
        "/pictures/nogame/x.png",
        "/assets/../index.html",
        "/assets/nothing.js",
        "/.env",
    ):
        async with table.http.get(f"{table.url}{path}") as answer:
            assert answer.status == 404, path
            assert answer.headers["Content-Security-Policy"] == policy


async def test_the_stand_ins_chat_page_may_frame_the_page_under_the_name_the_browser_used(
    table: Table,
):
    """`make play` opened at http://localhost:<port>: the chat page there frames the
    table, reached through the stand-in's proxy under that name (X-Forwarded-Host)."""
    chat = table.fake.port  # the stand-in's chat page, DISCORD_API_BASE's origin

    async def ancestors(**headers: str) -> list[str]:
        async with table.http.get(f"{table.url}/", headers=headers) as page:
            policy = page.headers["Content-Security-Policy"]
        [rule] = [rule for rule in policy.split("; ") if rule.startswith("frame-ancestors ")]
        return rule.split()[1:]

    configured = f"http://127.0.0.1:{chat}"
    assert await ancestors() == ["'self'", *DISCORD_ORIGINS, configured]
    assert await ancestors(**{"X-Forwarded-Host": "localhost:4444"}) == [
        "'self'",
        *DISCORD_ORIGINS,
        configured,
        f"http://localhost:{chat}",
    ]
    assert (await ancestors(**{"X-Forwarded-Host": "[::1]:4444"}))[-1] == f"http://[::1]:{chat}"
    # A name that is no host name adds nothing to the policy.
    for forged in ("evil.example; script-src *", "a b", "x:y:z", ""):
        assert await ancestors(**{"X-Forwarded-Host": forged}) == [
            "'self'",
            *DISCORD_ORIGINS,
            configured,
        ], forged


async def test_config_names_the_application_and_words_in_the_browsers_language(table: Table):
    async with table.http.get(f"{table.url}/api/config", params={"locale": "de-AT"}) as answer:
        config = await answer.json()
        assert answer.headers["Cache-Control"] == "no-store"
    assert config["client_id"] == str(table.fake.application_id)
    with with_locale("de"):
        assert config["words"]["retry"] == t("table.page.retry")
    async with table.http.get(f"{table.url}/api/config", params={"locale": "xx"}) as answer:
        assert (await answer.json())["words"]["retry"] == "Try again"


async def test_a_code_is_traded_once_and_a_malformed_body_is_refused(table: Table):
    code = table.fake.mint_code("alice")
    token_url = f"{table.url}/api/token"
    async with table.http.post(token_url, json={"code": code}) as answer:
        assert answer.status == 200
        body = await answer.json()
    assert set(body) == {"access_token"}  # no secret, no refresh token
    async with table.http.post(token_url, json={"code": code}) as again:
        assert (again.status, await again.json()) == (403, {"error": "code_refused"})
    async with table.http.post(token_url, json={"code": "made-up"}) as made_up:
        assert made_up.status == 403
    for body in ("not json", "[]", '{"code": 5}', '{"code": ""}', "x" * 20_000):
        async with table.http.post(token_url, data=body) as malformed:
            assert (malformed.status, await malformed.json()) == (400, {"error": "malformed"})


async def test_three_tabs_play_at_the_table_and_the_live_message_follows(table: Table, caplog):
    fake = table.fake
    started = await fake.send_command("alice", "pickomino start", {"turn_timer": 0})
    lobby = started.message
    assert lobby is not None
    alice = await table.tab("alice", locale="en-US")
    bob = await table.tab("bob", locale="de")
    carol = await table.tab("carol", locale="pl")
    tabs = [alice, bob, carol]
    welcome = next(frame for frame in bob.frames if frame["t"] == "welcome")
    assert welcome["you"] == {"id": str(fake.user("bob").id), "name": fake.user("bob").global_name}
    assert welcome["locale"] == "de" and welcome["words"]["retry"] == "Nochmal versuchen"
    assert alice.scene()["phase"] == "lobby" and alice.scene()["you"]["host"]
    assert bob.scene()["you"]["seat"] is None  # watching, until he joins

    await act_everywhere(bob, "join", tabs)
    assert [p["name"] for p in carol.scene()["players"]] == ["Alice", "Bob"]
    await fake.wait_for(lambda: "Bob" in fake.get_message(lobby.id).text, what="Bob in the chat")

    await act_everywhere(alice, "start", tabs)
    assert alice.scene()["phase"] == "playing"
    # Whoever is to move rolls at the table; the live message shows the new version.
    for _ in range(3):
        mover = next(tab for tab in (alice, bob) if tab.actions("move"))
        move = mover.actions("move")[0]
        await act_everywhere(mover, "move", tabs, arg=move["arg"])
        version = mover.state["version"] if mover.state else 0
        await fake.wait_for(
            lambda shown=version: live_message_at(fake, shown),
            what=f"the live message at version {version}",
        )
    # A click in the chat shows at the table.
    mover = next(tab for tab in (alice, bob) if tab.actions("move"))
    before = mover.state["version"] if mover.state else 0
    message = fake.live_message()
    move = next(b for b in message.buttons if ":move:" in (b.custom_id or "") and not b.disabled)
    await fake.click(mover.user, message.id, move.custom_id)
    for tab in tabs:
        await tab.next_state(lambda state: state["version"] > before, timeout=SOON * 2)
    assert tracebacks(caplog) == []


async def act_everywhere(tab: TabClient, action: str, tabs: list[TabClient], arg: str = "") -> None:
    """`tab` acts: it is answered done, and every tab is shown the next version within
    a second of the act."""
    before = tab.state["version"] if tab.state else 0
    began = time.perf_counter()
    answer = await tab.act(action, arg)
    assert answer["t"] == "done", answer
    for each in tabs:
        if each.state is not None and each.state["version"] > before:
            continue
        await each.next_state(lambda state: state["version"] > before, timeout=SOON)
    assert time.perf_counter() - began < SOON
