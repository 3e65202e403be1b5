"""The one component class: a DynamicItem whose custom_id carries game, version and move.

Registered once with `bot.add_dynamic_items`, it turns any matching click, on any
message and after any restart, into a call to the cog's click handler. It wraps a
button, or the claim menu (a string select shown instead of claim buttons when there
are too many), whose picked option is the move.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot.render.custom_ids import TEMPLATE, ButtonRef
from bot.render.layout import ButtonSpec, Layout, MenuSpec, Style

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}

CLICK_HANDLER = "pickomino_clicks"  # attribute of the bot holding the ClickHandler

Wrapped = discord.ui.Button[Any] | discord.ui.Select[Any]


class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None: ...


class SessionButton(discord.ui.DynamicItem[Wrapped], template=TEMPLATE):
    """A session's button or menu (one class, so one registration serves both)."""

    def __init__(self, item: Wrapped, ref: ButtonRef) -> None:
        super().__init__(item)
        self.ref = ref

    @classmethod
    def from_spec(cls, spec: ButtonSpec | MenuSpec, row: int) -> SessionButton:
        ref = ButtonRef.parse(spec.custom_id)
        if ref is None:
            raise ValueError(f"not a session component: {spec.custom_id!r}")
        if isinstance(spec, MenuSpec):
            return cls(_select(spec, row), ref)
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
        assert isinstance(item, discord.ui.Button | discord.ui.Select)
        return cls(item, ButtonRef.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ClickHandler = getattr(interaction.client, CLICK_HANDLER)
        ref = self.ref
        if isinstance(self.item, discord.ui.Select):
            # A menu's custom_id names no move: the move is the option picked.
            ref = replace(ref, arg=self.item.values[0] if self.item.values else "")
        await handler.on_click(interaction, ref)


def _select(spec: MenuSpec, row: int) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=spec.custom_id,
        placeholder=spec.placeholder,
        options=[
            discord.SelectOption(label=option.label, value=option.value) for option in spec.options
        ],
        disabled=spec.disabled,
        row=row,
    )


def view_for(layout: Layout) -> discord.ui.View | None:
    """A view of SessionButtons (nothing is kept in memory per message), or None."""
    if not layout:
        return None
    view = discord.ui.View(timeout=None)
    for row, specs in enumerate(layout):
        for spec in specs:
            view.add_item(SessionButton.from_spec(spec, row))
    return view
