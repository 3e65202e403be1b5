"""The components sent on an edit are built straight from the message: exactly the JSON
discord.py's own LayoutView would send."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.custom_ids import ClickAction, ComponentRef
from bot.render.layout import (
    ButtonSpec,
    Divider,
    MenuOption,
    MenuSpec,
    Picture,
    Rendered,
    Style,
    Text,
)
from bot.ui.components import message_view, prebuilt_message

EMOJIS = [None, "🪱", "5️⃣", "🤖", "<:worm:123456789012345678>", "<a:dance:223456789012345678>"]

buttons = st.builds(
    ButtonSpec,
    ref=st.builds(
        ComponentRef,
        action=st.sampled_from(list(ClickAction)),
        session_id=st.integers(1, 10**12),
        version=st.integers(0, 10**6),
        arg=st.sampled_from(["", "roll", "keep:w", "claim:g21", "steal:.-1"]),
    ),
    label=st.sampled_from(["", "Roll", "Take 21", "Play again"]),
    style=st.sampled_from(list(Style)),
    disabled=st.booleans(),
    emoji=st.sampled_from(EMOJIS),
)
menu = st.builds(
    MenuSpec,
    ref=st.just(ComponentRef(ClickAction.MENU, 7, 3)),
    placeholder=st.just("Stop and take…"),
    options=st.just((MenuOption("Take 21", "claim:g21"), MenuOption("Steal 25", "claim:s25"))),
    disabled=st.booleans(),
)


def _unique(layout: list[list[ButtonSpec | MenuSpec]]) -> bool:
    ids = [spec.custom_id for row in layout for spec in row]
    return len(ids) == len(set(ids))


texts = st.builds(Text, st.text(min_size=1, max_size=40))
dividers = st.builds(Divider, st.booleans())
pictures = st.builds(Picture, st.just("end.png"), st.just(b"png"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(texts, dividers, pictures), min_size=1, max_size=6),
    st.lists(st.lists(buttons, min_size=1, max_size=5), max_size=4).filter(_unique),
    st.integers(0, 0xFFFFFF),
)
def test_prebuilt_live_messages_are_what_a_layout_view_sends(blocks, layout, accent):
    message = Rendered(tuple(blocks), layout, accent)
    prebuilt = prebuilt_message(message)
    assert prebuilt.to_components() == message_view(message).to_components()
    assert prebuilt.has_components_v2() and prebuilt.is_finished()
