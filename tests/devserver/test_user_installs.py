"""The stand-in as Discord is for user-installed apps: the bot's DM, group DMs, servers
without the bot; the interactions sent there, and Discord's refusals, pinned with raw
HTTP against a connected (idle) discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.devserver.standin import (
    FLAG_EPHEMERAL,
    PERM_ATTACH_FILES,
    PERM_EMBED_LINKS,
    PERM_MENTION_EVERYONE,
    PERM_SEND_MESSAGES,
    PERM_USE_EXTERNAL_APPS,
    PERM_USE_EXTERNAL_EMOJIS,
    FakeDiscord,
    FakeInteraction,
    Realism,
    running_client,
)

EVERYWHERE = {
    "name": "dice",
    "description": "Roll dice",
    "type": 1,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
SERVERS_ONLY = {"name": "table", "description": "A table", "type": 1, "contexts": [0]}
WITH_A_USER = EVERYWHERE | {
    "name": "rival",
    "options": [{"type": 6, "name": "who", "description": "Who", "required": True}],
}
MISSING_ACCESS = {"message": "Missing Access", "code": 50001}


class Listener(discord.Client):
    """A client that answers nothing (the tests answer through raw HTTP) and keeps the
    interactions as discord.py read them."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.seen: list[discord.Interaction] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)


@pytest.fixture
async def client() -> Listener:
    return Listener()


@pytest.fixture
async def fake(client: Listener) -> AsyncIterator[FakeDiscord]:
    """A stand-in with Discord's permissions and OpenAPI checks, the listening client
    connected to it, and two commands."""
    async with FakeDiscord(realism=Realism(permissions=True, openapi=True)) as stand_in:
        async with running_client(stand_in, client):
            status, _ = await call(
                stand_in,
                "PUT",
                f"/applications/{stand_in.application_id}/commands",
                [EVERYWHERE, SERVERS_ONLY, WITH_A_USER],
            )
            assert status == 200
            yield stand_in
        stand_in.check()


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, bot: bool = True
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"} if bot else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers) as resp,
    ):
        text = await resp.text()
        return resp.status, (await resp.json() if text else None)


async def command(fake: FakeDiscord, user: str, channel_id: int) -> FakeInteraction:
    return await fake.send_command(user, "dice", channel_id=channel_id, wait=False)


async def answer(fake: FakeDiscord, interaction: FakeInteraction, body: dict[str, Any]) -> int:
    await fake.wait_for(lambda: interaction.dispatched_at is not None)
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    status, _ = await call(fake, "POST", path, body, bot=False)
    return status


def hook(fake: FakeDiscord, interaction: FakeInteraction, tail: str = "") -> str:
    return f"/webhooks/{fake.application_id}/{interaction.token}{tail}"


async def follow_up(
    fake: FakeDiscord, interaction: FakeInteraction, content: str, flags: int = 0
) -> tuple[int, Any]:
    body = {"content": content, "flags": flags}
    return await call(fake, "POST", hook(fake, interaction, "?wait=true"), body, bot=False)


def events_in(fake: FakeDiscord, channel_id: int) -> list[str]:
    """The gateway events the bot was sent about a channel, interactions aside."""
    return [
        frame["t"]
        for session in fake.sessions.values()
        for frame in session.history
        if frame.get("t") != "INTERACTION_CREATE"
        and isinstance(frame.get("d"), dict)
        and str(channel_id) in (frame["d"].get("channel_id"), channel_update_id(frame))
    ]


def channel_update_id(frame: dict[str, Any]) -> str | None:
    """A CHANNEL_* event names its channel as its `id`."""
    return frame["d"].get("id") if str(frame.get("t")).startswith("CHANNEL_") else None


# ---- the interactions Discord sends in each place ---------------------------------


async def test_in_a_server_with_the_bot_both_installs_own_the_command(fake: FakeDiscord) -> None:
    interaction = await command(fake, "alice", fake.channel.id)
    payload = interaction.payload
    alice = fake.user("alice")
    assert payload["context"] == 0
    assert payload["authorizing_integration_owners"] == {
        "0": str(fake.guild_id),
        "1": str(alice.id),
    }
    assert payload["guild_id"] == str(fake.guild_id) and "member" in payload
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_without_the_persons_install_only_the_server_owns_it(fake: FakeDiscord) -> None:
    fake.user("bob").installed_app = False
    interaction = await command(fake, "bob", fake.channel.id)
    assert interaction.owners == {"0": str(fake.guild_id)}
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_the_bots_dm(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    dm = fake.bot_dm("alice")
    assert fake.bot_dm(alice) is dm and dm.type == 1
    interaction = await command(fake, "alice", dm.id)
    payload = interaction.payload
    assert payload["context"] == 1
    assert payload["authorizing_integration_owners"] == {"0": "0", "1": str(alice.id)}
    assert "guild_id" not in payload and "member" not in payload and "guild" not in payload
    assert payload["user"]["id"] == str(alice.id)
    assert payload["channel"]["type"] == 1
    assert [r["id"] for r in payload["channel"]["recipients"]] == [str(alice.id)]
    perms = int(payload["app_permissions"])
    documented = PERM_ATTACH_FILES | PERM_EMBED_LINKS | PERM_MENTION_EVERYONE
    assert perms & documented == documented and perms & PERM_USE_EXTERNAL_EMOJIS
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "hi"}}) == 204
    # The bot's token posts to its own DM.
    status, message = await call(fake, "POST", f"/channels/{dm.id}/messages", {"content": "x"})
    assert status == 200 and "guild_id" not in message
    assert [m.content for m in fake.channel_messages(dm.id)] == ["hi", "x"]
    await fake.wait_for(lambda: events_in(fake, dm.id) == ["MESSAGE_CREATE"] * 2)
    react = f"/channels/{dm.id}/messages/{message['id']}/reactions/%F0%9F%8E%B2/@me"
    assert await call(fake, "PUT", react) == (204, None)
    assert len(fake.bot_token_requests(dm.id)) == 2


async def test_a_group_dm(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob", "carol"])
    bob = fake.user("bob")
    interaction = await command(fake, "bob", group.id)
    payload = interaction.payload
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(bob.id)}
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(bob.id)
    channel = payload["channel"]
    assert (channel["type"], channel["name"]) == (3, "friends")
    assert channel["owner_id"] == str(fake.user("alice").id)
    assert len(channel["recipients"]) == 3
    perms = int(payload["app_permissions"])
    assert perms & (PERM_ATTACH_FILES | PERM_EMBED_LINKS | PERM_MENTION_EVERYONE)
    assert not perms & PERM_USE_EXTERNAL_EMOJIS  # that one only in the bot's DM
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "rolled"}}) == 204
    assert fake.channel_messages(group.id)[0].content == "rolled"
    assert events_in(fake, group.id) == []  # the bot is not in it: told nothing
    metadata = fake.channel_messages(group.id)[0].interaction_metadata
    assert metadata is not None
    assert metadata["authorizing_integration_owners"] == {"1": str(bob.id)}


async def test_discord_py_reads_the_private_places(fake: FakeDiscord, client: Listener) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    for channel_id in (group.id, fake.bot_dm("alice").id):
        interaction = await command(fake, "alice", channel_id)
        await fake.wait_for(lambda: len(client.seen) == 1)
        seen = client.seen.pop()
        assert seen.guild_id is None and seen.user.id == fake.user("alice").id
        assert seen.is_user_integration()
        if channel_id == group.id:
            assert isinstance(seen.channel, discord.GroupChannel)
            assert seen.context.private_channel and not seen.is_guild_integration()
        else:
            assert isinstance(seen.channel, discord.DMChannel)
            assert seen.context.dm_channel
            alice = fake.user("alice").id
            assert seen._integration_owners == {0: 0, 1: alice}  # no public accessor
        assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_a_user_option_outside_a_server_resolves_no_member(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    bob = str(fake.user("bob").id)
    for channel_id, members in ((group.id, False), (fake.channel.id, True)):
        interaction = await fake.send_command(
            "alice", "rival", {"who": "bob"}, channel_id=channel_id, wait=False
        )
        resolved = interaction.payload["data"]["resolved"]
        assert bob in resolved["users"] and ("members" in resolved) is members
        assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_a_dm_between_two_people_is_a_private_channel(fake: FakeDiscord) -> None:
    dm = await fake.add_dm("alice", "bob")
    interaction = await command(fake, "alice", dm.id)
    assert interaction.context == 2 and interaction.payload["channel"]["type"] == 1
    assert interaction.owners == {"1": str(fake.user("alice").id)}
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_a_server_without_the_bot(fake: FakeDiscord, client: Listener) -> None:
    guild_id = await fake.add_guild_without_bot("Friends", channel_names=("general", "games"))
    general, games = fake.guild_channels_of(guild_id)
    assert (general.name, games.name) == ("general", "games")
    interaction = await command(fake, "carol", general.id)
    payload = interaction.payload
    assert payload["context"] == 0
    assert payload["authorizing_integration_owners"] == {"1": str(fake.user("carol").id)}
    assert payload["guild_id"] == str(guild_id) and "member" in payload
    perms = int(payload["app_permissions"])
    assert perms == int(payload["member"]["permissions"])  # the person's, as Discord
    assert perms & PERM_USE_EXTERNAL_APPS and perms & PERM_SEND_MESSAGES
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204
    assert not fake.channel_messages(general.id)[0].is_ephemeral
    assert events_in(fake, general.id) == []
    assert client.get_guild(guild_id) is None  # no GUILD_CREATE for it
    # Its guild routes refuse the bot too.
    assert await call(fake, "GET", f"/guilds/{guild_id}") == (403, MISSING_ACCESS)
    assert [r.code for r in fake.take_rejections()] == [50001]


async def test_external_apps_off_makes_every_answer_ephemeral(fake: FakeDiscord) -> None:
    guild_id = await fake.add_guild_without_bot("Strict")
    await fake.set_external_apps(guild_id, False)
    (channel,) = fake.guild_channels_of(guild_id)
    interaction = await command(fake, "alice", channel.id)
    assert interaction.forced_ephemeral
    assert not int(interaction.payload["app_permissions"]) & PERM_USE_EXTERNAL_APPS
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "public?"}}) == 204
    status, followup = await follow_up(fake, interaction, "and this?")
    assert status == 200 and followup["flags"] & FLAG_EPHEMERAL
    assert all(m.is_ephemeral for m in interaction.messages) and len(interaction.messages) == 2
    assert fake.channel_messages(channel.id) == []
    await fake.set_external_apps(guild_id, True)
    again = await command(fake, "alice", channel.id)
    assert not again.forced_ephemeral
    assert await answer(fake, again, {"type": 4, "data": {"content": "public"}}) == 204
    assert [m.content for m in fake.channel_messages(channel.id)] == ["public"]


async def test_without_send_messages_the_answers_are_ephemeral(fake: FakeDiscord) -> None:
    guild_id = await fake.add_guild_without_bot("Quiet", channel_names=("rules", "general"))
    rules, general = fake.guild_channels_of(guild_id)
    await fake.deny(PERM_SEND_MESSAGES, rules.id, target="everyone")
    assert events_in(fake, rules.id) == []  # no CHANNEL_UPDATE of a server without the bot
    muted = await command(fake, "bob", rules.id)
    assert muted.forced_ephemeral
    assert await answer(fake, muted, {"type": 5}) == 204
    assert muted.message is not None and muted.message.is_ephemeral
    elsewhere = await command(fake, "bob", general.id)
    assert not elsewhere.forced_ephemeral
    assert await answer(fake, elsewhere, {"type": 4, "data": {"content": "ok"}}) == 204


async def test_a_click_keeps_the_owners_of_the_message(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    interaction = await command(fake, "alice", group.id)
    button = {"type": 2, "style": 1, "label": "Join", "custom_id": "join"}
    body = {"type": 4, "data": {"content": "table", "components": [
        {"type": 1, "components": [button]}]}}  # fmt: skip
    assert await answer(fake, interaction, body) == 204
    click = await fake.click("bob", fake.last_message(group.id), "join", wait=False)
    assert click.owners == {"1": str(fake.user("alice").id)}  # Alice's install, not Bob's
    assert click.context == 2
    assert await answer(fake, click, {"type": 6}) == 204


# ---- which commands are offered where ----------------------------------------------


async def test_commands_are_offered_only_where_their_contexts_allow(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    guild_id = await fake.add_guild_without_bot("Friends")
    with pytest.raises(PermissionError, match="not available in a group DM"):
        await fake.send_command("alice", "table", channel_id=group.id)
    with pytest.raises(PermissionError, match="not available in the bot's DM"):
        await fake.send_command("alice", "table", channel_id=fake.bot_dm("alice").id)
    # A guild-install-only command is not offered in a server without the bot.
    with pytest.raises(PermissionError, match="not installed"):
        await fake.send_command("alice", "table", channel_id=fake.guild_channels_of(guild_id)[0].id)
    # Nor is any command to a person who did not install the app, where the bot is not.
    fake.user("bob").installed_app = False
    with pytest.raises(PermissionError, match="not installed"):
        await fake.send_command("bob", "dice", channel_id=group.id)
    # Nor to someone not in the group DM, until they join it.
    with pytest.raises(PermissionError, match="not in the private channel"):
        await fake.send_command("carol", "dice", channel_id=group.id)
    with pytest.raises(PermissionError, match="not in the private channel"):
        await fake.send_command("bob", "dice", channel_id=fake.bot_dm("alice").id)
    assert fake.interactions == []
    await fake.join_group_dm(group.id, "carol")
    interaction = await command(fake, "carol", group.id)
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "ok"}}) == 204


# ---- Discord's refusals --------------------------------------------------------------


async def test_the_bot_token_is_refused_where_the_bot_is_not(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    guild_id = await fake.add_guild_without_bot("Friends")
    (botless,) = fake.guild_channels_of(guild_id)
    interaction = await command(fake, "alice", group.id)
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "m"}}) == 204
    message_id = fake.last_message(group.id).id
    for channel_id in (group.id, botless.id):
        routes = [
            ("GET", f"/channels/{channel_id}", None),
            ("GET", f"/channels/{channel_id}/messages", None),
            ("POST", f"/channels/{channel_id}/messages", {"content": "hi"}),
            ("POST", f"/channels/{channel_id}/typing", None),
        ]
        if channel_id == group.id:
            routes += [
                ("GET", f"/channels/{channel_id}/messages/{message_id}", None),
                ("PATCH", f"/channels/{channel_id}/messages/{message_id}", {"content": "e"}),
                ("DELETE", f"/channels/{channel_id}/messages/{message_id}", None),
                ("PUT", f"/channels/{channel_id}/messages/{message_id}/reactions/%F0%9F%8E%B2/@me",
                 None),
                ("DELETE",
                 f"/channels/{channel_id}/messages/{message_id}/reactions/%F0%9F%8E%B2/@me", None),
            ]  # fmt: skip
        for method, path, body in routes:
            assert await call(fake, method, path, body) == (403, MISSING_ACCESS), path
        refused = fake.take_rejections(50001)
        assert len(refused) == len(routes)
        assert all(r.status == 403 for r in refused)
        assert len(fake.bot_token_requests(channel_id)) == len(routes)
    assert fake.last_message(group.id).content == "m"  # nothing was changed
    # The interaction's own requests are no bot-token requests.
    assert not any(r.path.startswith("/api/v10/interactions") for r in fake.bot_token_requests())
    assert fake.bot_token_requests(fake.channel.id) == []


async def test_the_bot_token_is_refused_unless_a_test_takes_the_rejection(
    fake: FakeDiscord,
) -> None:
    group = await fake.add_group_dm("friends", members=["alice"])
    await call(fake, "POST", f"/channels/{group.id}/messages", {"content": "hi"})
    with pytest.raises(AssertionError, match="Missing Access"):
        fake.check()
    fake.take_rejections(50001)


async def test_an_interaction_token_expires(fake: FakeDiscord) -> None:
    dm = fake.bot_dm("alice")
    interaction = await command(fake, "alice", dm.id)
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "first"}}) == 204
    status, followup = await follow_up(fake, interaction, "in time")
    assert status == 200
    fake.token_lifetime = 0.3
    await asyncio.sleep(0.4)
    expired = {"message": "Invalid Webhook Token", "code": 50027}
    message = f"/messages/{followup['id']}"
    for method, tail, body in [
        ("POST", "", {"content": "late"}),
        ("PATCH", "/messages/@original", {"content": "late"}),
        ("GET", "/messages/@original", None),
        ("PATCH", message, {"content": "late"}),
        ("DELETE", message, None),
    ]:
        assert await call(fake, method, hook(fake, interaction, tail), body, bot=False) == (
            401,
            expired,
        ), (method, tail)
    assert [r.code for r in fake.take_rejections()] == [50027] * 5


async def test_a_token_never_issued_is_an_unknown_webhook(fake: FakeDiscord) -> None:
    path = f"/webhooks/{fake.application_id}/not-a-token/messages/@original"
    assert await call(fake, "GET", path, bot=False) == (
        404,
        {"message": "Unknown Webhook", "code": 10015},
    )
    assert [r.code for r in fake.take_rejections()] == [10015]


async def test_five_follow_ups_where_only_the_person_installed_it(fake: FakeDiscord) -> None:
    group = await fake.add_group_dm("friends", members=["alice", "bob"])
    interaction = await command(fake, "alice", group.id)
    assert await answer(fake, interaction, {"type": 5}) == 204
    original = hook(fake, interaction, "/messages/@original")
    assert (await call(fake, "PATCH", original, {"content": "a"}, bot=False))[0] == 200
    for index in range(5):  # an ephemeral one counts as well
        status, _ = await follow_up(fake, interaction, f"{index}", FLAG_EPHEMERAL * (index % 2))
        assert status == 200
    assert await follow_up(fake, interaction, "sixth") == (
        400,
        {"message": "This interaction has hit the maximum number of follow up messages",
         "code": 40094},
    )  # fmt: skip
    assert [r.code for r in fake.take_rejections()] == [40094]
    assert len(interaction.followups) == 5


async def test_no_follow_up_limit_where_the_bot_is(fake: FakeDiscord) -> None:
    interaction = await command(fake, "alice", fake.channel.id)
    assert await answer(fake, interaction, {"type": 4, "data": {"content": "a"}}) == 204
    for index in range(6):
        status, _ = await follow_up(fake, interaction, f"{index}")
        assert status == 200


async def test_a_follow_up_belongs_to_its_token(fake: FakeDiscord) -> None:
    dm = fake.bot_dm("alice")
    first = await command(fake, "alice", dm.id)
    assert await answer(fake, first, {"type": 4, "data": {"content": "one"}}) == 204
    status, followup = await follow_up(fake, first, "mine")
    assert status == 200
    second = await command(fake, "alice", dm.id)
    assert await answer(fake, second, {"type": 4, "data": {"content": "two"}}) == 204
    unknown = {"message": "Unknown Message", "code": 10008}
    path = hook(fake, second, f"/messages/{followup['id']}")
    assert await call(fake, "PATCH", path, {"content": "stolen"}, bot=False) == (404, unknown)
    assert await call(fake, "DELETE", path, bot=False) == (404, unknown)
    assert [r.code for r in fake.take_rejections()] == [10008, 10008]
    own = hook(fake, first, f"/messages/{followup['id']}")
    status, edited = await call(fake, "PATCH", own, {"content": "edited"}, bot=False)
    assert (status, edited["content"]) == (200, "edited")


async def test_the_three_second_rule_still_holds(fake: FakeDiscord) -> None:
    fake.interaction_deadline = 0.1
    group = await fake.add_group_dm("friends", members=["alice"])
    interaction = await command(fake, "alice", group.id)
    await asyncio.sleep(0.2)
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    status, body = await call(fake, "POST", path, {"type": 5}, bot=False)
    assert (status, body["code"]) == (404, 10062)
    assert [r.code for r in fake.take_rejections()] == [10062]
