"""The end screen's rating block (bot.render.ratings, placed by render_session for any
game): each person's change, after the game's text, before its picture and footer."""

from __future__ import annotations

from bot.i18n import with_locale
from bot.plugin.session_message import with_ratings
from bot.render.layout import Picture, Text
from bot.render.ratings import rating_block
from bot.sessions.model import Ending, RatingChange, Seat, Session, Status


def ended(*changes: RatingChange) -> Session:
    session = Session(
        "race",
        guild_id=9,
        channel_id=10,
        host_id=1,
        seats=[Seat(1, "Anne"), Seat(2, "Bridget"), Seat(-1, "Pip (Hard)", True, "hard")],
        id=5,
        status=Status.OVER,
        ending=Ending.FINISHED,
    )
    session.rating_changes = changes
    return session


def test_each_persons_change_up_down_or_none() -> None:
    session = ended(
        RatingChange(1, 1_512, 1_538), RatingChange(2, 1_020, 990), RatingChange(3, 1_000, 1_000)
    )
    block = rating_block(session)
    assert block is not None
    assert block.content.splitlines() == [
        "**Skill ratings**",
        "Anne: 1,512 → 1,538 ▲26",
        "Bridget: 1,020 → 990 ▼30",
        "3: 1,000 → 1,000 ±0",
    ]
    with with_locale("de"):
        german = rating_block(session)
    assert german is not None and "Anne: 1.512 → 1.538 ▲26" in german.content


def test_the_block_goes_before_the_picture_and_the_footer() -> None:
    blocks = (Text("result"), Text("standings"), Picture("end.png", b""), Text("footer"))
    placed = with_ratings(blocks, ended(RatingChange(1, 1_000, 1_061)))
    assert [type(b).__name__ for b in placed] == ["Text", "Text", "Text", "Picture", "Text"]
    assert isinstance(placed[2], Text) and "▲61" in placed[2].content
    assert with_ratings(blocks, ended()) == blocks  # nothing rated: as the game drew it
