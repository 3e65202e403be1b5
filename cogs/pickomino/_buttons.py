"""The one button class: a DynamicItem whose custom_id carries game, version and move.

Registered once with `bot.add_dynamic_items`, it turns any matching click, on any
message and after any restart, into a call to the cog's click handler.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.render.custom_ids import TEMPLATE, ButtonRef
from bot.render.layout import ButtonSpec, Layout, Style

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}

CLICK_HANDLER = "pickomino_clicks"  # attribute of the bot holding the ClickHandler


class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None: ...


class SessionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, button: discord.ui.Button[Any], ref: ButtonRef) -> None:
        super().__init__(button)
        self.ref = ref

    @classmethod
    def from_spec(cls, spec: ButtonSpec, row: int) -> SessionButton:
        ref = ButtonRef.parse(spec.custom_id)
        if ref is None:
            raise ValueError(f"not a session button: {spec.custom_id!r}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=spec.custom_id,
            label=spec.label or None,
            style=_STYLES[spec.style],
            disabled=spec.disabled,
            emoji=spec.emoji,
            row=row,
        )
        return cls(button, ref)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SessionButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, ButtonRef.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ClickHandler = getattr(interaction.client, CLICK_HANDLER)
        await handler.on_click(interaction, self.ref)


def view_for(layout: Layout) -> discord.ui.View | None:
    """A view of SessionButtons (nothing is kept in memory per message), or None."""
    if not layout:
        return None
    view = discord.ui.View(timeout=None)
    for row, specs in enumerate(layout):
        for spec in specs:
            view.add_item(SessionButton.from_spec(spec, row))
    return view
