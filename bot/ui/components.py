"""The one component class: a DynamicItem whose custom_id carries session, version and move.

Registered once with `bot.add_dynamic_items`, it turns any matching click, on any
message, of any game, and after any restart, into a call to the bot's click handler. It
wraps a button, or a move menu (a string select, e.g. Pickomino's claims when there are
too many for buttons), whose picked option is the move.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot.render.custom_ids import TEMPLATE, ComponentRef, MalformedId
from bot.render.layout import ButtonSpec, Layout, MenuSpec, Style
from bot.ui.translator import use_interaction_locale

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}

Wrapped = discord.ui.Button[Any] | discord.ui.Select[Any]


class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], ref: ComponentRef) -> None: ...

    async def on_malformed(self, interaction: discord.Interaction[Any]) -> None: ...


def click_handler(client: discord.Client) -> ClickHandler:
    """The handler the bot serves session components with (bot.client.DiceBot.platform)."""
    handler: ClickHandler = getattr(client, "platform").clicks  # noqa: B009 - any Client
    return handler


class SessionComponent(discord.ui.DynamicItem[Wrapped], template=TEMPLATE):
    """A session's button or menu (one class, so one registration serves both)."""

    def __init__(self, item: Wrapped, ref: ComponentRef | None) -> None:
        super().__init__(item)
        self.ref = ref  # None: the id matched our template but names nothing we know

    @classmethod
    def from_spec(cls, spec: ButtonSpec | MenuSpec, row: int) -> SessionComponent:
        if isinstance(spec, MenuSpec):
            return cls(_select(spec, row), spec.ref)
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=spec.ref.encode(),
            label=spec.label or None,
            style=_STYLES[spec.style],
            disabled=spec.disabled,
            emoji=spec.emoji,
            row=row,
        )
        return cls(button, spec.ref)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SessionComponent:
        # Never raise here: discord.py would log it and leave the click unanswered.
        wrapped = item if isinstance(item, discord.ui.Button | discord.ui.Select) else None
        try:
            ref = ComponentRef.from_custom_id(match[0])
        except MalformedId:
            ref = None
        if wrapped is None:
            wrapped, ref = discord.ui.Button(custom_id=match[0]), None
        return cls(wrapped, ref)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        use_interaction_locale(interaction)  # answers to the clicker are in their language
        handler = click_handler(interaction.client)
        ref = self.ref
        if ref is None:
            await handler.on_malformed(interaction)
            return
        if isinstance(self.item, discord.ui.Select):
            # A menu's custom_id names no move: the move is the option picked.
            ref = replace(ref, arg=self.item.values[0] if self.item.values else "")
        await handler.on_click(interaction, ref)


def _select(spec: MenuSpec, row: int) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=spec.ref.encode(),
        placeholder=spec.placeholder,
        options=[
            discord.SelectOption(label=option.label, value=option.value) for option in spec.options
        ],
        disabled=spec.disabled,
        row=row,
    )


def view_for(layout: Layout) -> discord.ui.View | None:
    """A view of SessionComponents (nothing is kept in memory per message), or None."""
    if not layout:
        return None
    view = discord.ui.View(timeout=None)
    for row, specs in enumerate(layout):
        for spec in specs:
            view.add_item(SessionComponent.from_spec(spec, row))
    return view
