"""EmojiBook against a real discord.Client whose HTTP layer answers like Discord.

Only `client.http.request` is replaced, so discord.py's own `fetch_application_emojis`
and `create_application_emoji` run: the routes, the base64 image and the `Emoji`
objects are the real ones.
"""

from __future__ import annotations

import base64
import itertools
import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.pictures.dice import die_png
from bot.pictures.drawn import Drawn
from bot.pictures.emojis import MAX_IMAGE_BYTES, EmojiBook

APPLICATION_ID = 900_000_000_000_000_001
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
IMAGES = {f"tt1_die_{face}": die_png(face, WHITE, BLACK) for face in (1, 2, 3)}


@dataclass
class FakeResponse:
    """What discord.HTTPException reads from an aiohttp response."""

    status: int
    reason: str


def refusal(status: int, message: str, code: int = 0) -> discord.HTTPException:
    response = FakeResponse(status, message)
    data = {"message": message, "code": code}
    if status == 403:
        return discord.Forbidden(response, data)  # type: ignore[arg-type]
    return discord.HTTPException(response, data)  # type: ignore[arg-type]


@dataclass
class FakeEmojiApi:
    """The application emoji endpoints: a list of stored emojis, and failures on cue."""

    stored: list[dict[str, Any]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)
    fail_listing: BaseException | None = None
    fail_upload_number: int | None = None  # 1 = the first upload fails
    upload_failure: BaseException | None = None
    uploaded_images: dict[str, bytes] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1_000))

    def store(self, name: str, animated: bool = False) -> int:
        emoji_id = next(self._ids)
        self.stored.append({"id": str(emoji_id), "name": name, "animated": animated})
        return emoji_id

    async def request(self, route: Route, **kwargs: Any) -> Any:
        self.calls.append((route.method, route.path))
        assert route.path == "/applications/{application_id}/emojis"
        if route.method == "GET":
            if self.fail_listing is not None:
                raise self.fail_listing
            return {"items": list(self.stored)}
        assert route.method == "POST"
        uploads = sum(1 for method, _ in self.calls if method == "POST")
        if uploads == self.fail_upload_number:
            assert self.upload_failure is not None
            raise self.upload_failure
        name, data_uri = kwargs["json"]["name"], kwargs["json"]["image"]
        prefix = "data:image/png;base64,"
        assert data_uri.startswith(prefix)
        self.uploaded_images[name] = base64.b64decode(data_uri[len(prefix) :])
        emoji_id = self.store(name)
        return self.stored[-1] | {"id": str(emoji_id)}

    def uploads(self) -> int:
        return sum(1 for method, _ in self.calls if method == "POST")


def client_with(api: FakeEmojiApi, application_id: int | None = APPLICATION_ID) -> discord.Client:
    client = discord.Client(intents=discord.Intents(guilds=True), application_id=application_id)
    client.http.request = api.request  # type: ignore[method-assign]
    return client


def book_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "bot.pictures.emojis" and record.levelno == logging.WARNING
    ]


async def test_uploads_every_emoji_when_none_exist_and_remembers_markup() -> None:
    api = FakeEmojiApi()
    book = EmojiBook(IMAGES)

    result = await book.sync(client_with(api))

    assert result.uploaded == tuple(IMAGES)
    assert result.complete
    assert api.uploaded_images == IMAGES
    ids = {emoji["name"]: emoji["id"] for emoji in api.stored}
    for name in IMAGES:
        assert book.show(name, "🎲") == f"<:{name}:{ids[name]}>"
        assert book.markup(name) == f"<:{name}:{ids[name]}>"


async def test_uploads_only_the_missing_ones() -> None:
    api = FakeEmojiApi()
    existing_id = api.store("tt1_die_2")
    api.store("someone_elses")  # emojis of the application the book does not know stay alone
    book = EmojiBook(IMAGES)

    result = await book.sync(client_with(api))

    assert result.found == ("tt1_die_2",)
    assert result.uploaded == ("tt1_die_1", "tt1_die_3")
    assert set(api.uploaded_images) == {"tt1_die_1", "tt1_die_3"}
    assert book.show("tt1_die_2", "2") == f"<:tt1_die_2:{existing_id}>"


async def test_a_second_sync_uploads_nothing() -> None:
    api = FakeEmojiApi()
    await EmojiBook(IMAGES).sync(client_with(api))
    uploads = api.uploads()

    restarted = EmojiBook(IMAGES)
    result = await restarted.sync(client_with(api))

    assert api.uploads() == uploads == len(IMAGES)
    assert result.found == tuple(IMAGES)
    assert result.uploaded == ()
    assert all(restarted.markup(name) for name in IMAGES)


async def test_an_existing_animated_emoji_keeps_its_animated_markup() -> None:
    api = FakeEmojiApi()
    emoji_id = api.store("tt1_die_1", animated=True)
    book = EmojiBook(IMAGES)

    await book.sync(client_with(api))

    assert book.show("tt1_die_1", "1") == f"<a:tt1_die_1:{emoji_id}>"


async def test_before_sync_every_emoji_shows_its_fallback() -> None:
    book = EmojiBook(IMAGES)
    assert book.show("tt1_die_3", "3️⃣") == "3️⃣"
    assert book.markup("tt1_die_3") is None


@pytest.mark.parametrize(
    "failure",
    [refusal(403, "Missing Access", 50001), refusal(500, "Internal Server Error")],
    ids=["forbidden", "server-error"],
)
async def test_a_failed_listing_uploads_nothing_and_keeps_fallbacks(
    failure: discord.HTTPException, caplog: pytest.LogCaptureFixture
) -> None:
    api = FakeEmojiApi(fail_listing=failure)
    book = EmojiBook(IMAGES)

    with caplog.at_level(logging.WARNING, logger="bot.pictures.emojis"):
        result = await book.sync(client_with(api))

    assert api.uploads() == 0
    assert result.missing == tuple(IMAGES)
    assert [name for name in IMAGES if book.show(name, "x") != "x"] == []
    assert len(book_warnings(caplog)) == 1


async def test_without_an_application_id_nothing_is_asked_of_discord(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api = FakeEmojiApi()
    book = EmojiBook(IMAGES)

    with caplog.at_level(logging.WARNING, logger="bot.pictures.emojis"):
        result = await book.sync(client_with(api, application_id=None))

    assert api.calls == []
    assert not result.complete
    assert book.show("tt1_die_1", "1") == "1"
    assert len(book_warnings(caplog)) == 1


@pytest.mark.parametrize(
    "failure",
    [
        refusal(429, "You are being rate limited."),
        discord.RateLimited(120.0),
        refusal(403, "Missing Permissions", 50013),
        refusal(400, "Maximum number of emojis reached", 30008),
    ],
    ids=["429", "rate-limited", "forbidden", "bad-request"],
)
async def test_a_failed_upload_stops_the_sync_with_one_warning(
    failure: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    api = FakeEmojiApi(fail_upload_number=2, upload_failure=failure)
    book = EmojiBook(IMAGES)

    with caplog.at_level(logging.WARNING, logger="bot.pictures.emojis"):
        result = await book.sync(client_with(api))

    # The first upload went through; the second failed and the third was not tried.
    assert api.uploads() == 2
    assert result.uploaded == ("tt1_die_1",)
    assert result.missing == ("tt1_die_2", "tt1_die_3")
    assert book.show("tt1_die_1", "1").startswith("<:tt1_die_1:")
    assert book.show("tt1_die_2", "2") == "2"
    assert book.show("tt1_die_3", "3") == "3"
    assert len(book_warnings(caplog)) == 1
    assert "tt1_die_2" in book_warnings(caplog)[0]


async def test_the_next_sync_finishes_what_a_failed_one_left() -> None:
    api = FakeEmojiApi(fail_upload_number=1, upload_failure=refusal(429, "slow down"))
    await EmojiBook(IMAGES).sync(client_with(api))

    api.fail_upload_number = None
    book = EmojiBook(IMAGES)
    result = await book.sync(client_with(api))

    assert result.complete
    assert sorted(emoji["name"] for emoji in api.stored) == sorted(IMAGES)


def test_unknown_names_are_a_key_error() -> None:
    book = EmojiBook(IMAGES)
    with pytest.raises(KeyError, match="tt1_die_9"):
        book.show("tt1_die_9", "9")


@pytest.mark.parametrize("name", ["x", "a" * 33, "die-3", "dé_3", "die 3", ""])
def test_names_discord_refuses_are_refused_here(name: str) -> None:
    with pytest.raises(ValueError, match="emoji name"):
        EmojiBook({name: IMAGES["tt1_die_1"]})


def test_a_picture_over_256_kib_is_refused() -> None:
    with pytest.raises(ValueError, match="256 KiB"):
        EmojiBook({"big_one": b"\0" * (MAX_IMAGE_BYTES + 1)}).image("big_one")


async def test_a_picture_over_256_kib_is_not_uploaded_and_shows_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api = FakeEmojiApi()
    book = EmojiBook(IMAGES | {"big_one": b"\0" * (MAX_IMAGE_BYTES + 1)})

    result = await book.sync(client_with(api))

    assert result.uploaded == tuple(IMAGES)
    assert result.missing == ("big_one",)
    assert "big_one" not in api.uploaded_images
    assert book.show("big_one", "?") == "?"
    assert any("256 KiB" in warning for warning in book_warnings(caplog))


def drawn_counting(drawn: list[str]) -> Drawn:
    def drawer(name: str) -> bytes:
        drawn.append(name)
        return IMAGES[name]

    return Drawn({name: partial(drawer, name) for name in IMAGES})


async def test_pictures_are_drawn_only_for_the_emojis_discord_lacks() -> None:
    api = FakeEmojiApi()
    api.store("tt1_die_1")
    api.store("tt1_die_3")
    drawn: list[str] = []
    book = EmojiBook(drawn_counting(drawn))
    assert drawn == []  # a book is made without drawing

    result = await book.sync(client_with(api))

    assert drawn == ["tt1_die_2"]
    assert result.uploaded == ("tt1_die_2",)
    assert api.uploaded_images == {"tt1_die_2": IMAGES["tt1_die_2"]}

    restarted: list[str] = []
    await EmojiBook(drawn_counting(restarted)).sync(client_with(api))
    assert restarted == []  # Discord holds them all: nothing drawn


def test_a_drawn_picture_is_drawn_once() -> None:
    drawn: list[str] = []
    pictures = drawn_counting(drawn)
    assert pictures["tt1_die_1"] == pictures["tt1_die_1"] == IMAGES["tt1_die_1"]
    assert drawn == ["tt1_die_1"]
    assert list(pictures) == list(IMAGES) and len(pictures) == len(IMAGES)


def test_one_name_for_two_pictures_is_refused_but_the_same_set_twice_is_fine() -> None:
    book = EmojiBook(IMAGES, IMAGES)
    assert book.names == tuple(IMAGES)
    with pytest.raises(ValueError, match="tt1_die_1"):
        book.add({"tt1_die_1": IMAGES["tt1_die_2"]})
