"""The one component class: a DynamicItem whose custom_id carries session, version and move.

Registered once (`serve_clicks(bot, handler)`), it turns any matching click, on any
message, of any game, and after any restart, into a call to the bot's click handler. It
wraps a button, or a move menu (a string select, e.g. Pickomino's claims when there are
too many for buttons), whose picked option is the move.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot.render.custom_ids import TEMPLATE, ComponentRef
from bot.render.layout import (
    Block,
    ButtonSpec,
    Divider,
    Layout,
    MenuSpec,
    Rendered,
    Style,
    Text,
)
from bot.ui.translator import use_interaction_locale

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}

Wrapped = discord.ui.Button[Any] | discord.ui.Select[Any]
BUTTON = discord.ComponentType.button.value
STRING_SELECT = discord.ComponentType.string_select.value

log = logging.getLogger(__name__)


class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], ref: ComponentRef) -> None: ...

    async def on_malformed(self, interaction: discord.Interaction[Any]) -> None: ...


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
        ref = ComponentRef.parse(match[0])
        if wrapped is None:
            wrapped, ref = discord.ui.Button(custom_id=match[0]), None
        return cls(wrapped, ref)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # Only the served subclass (serve_clicks) is ever called back; this one draws.
        raise NotImplementedError("register a class made by serve_clicks")


def serve_clicks(client: discord.Client, handler: ClickHandler) -> None:
    """Serve every session component's clicks with `handler`: a subclass bound to it is
    the dynamic item discord.py matches ids with, and the direct dispatch skips the
    view discord.py would rebuild for it."""

    class ServedComponent(SessionComponent, template=TEMPLATE):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            picked = self.item.values if isinstance(self.item, discord.ui.Select) else None
            await serve_click(handler, interaction, self.ref, picked)

    client.add_dynamic_items(ServedComponent)
    serve_clicks_directly(client, handler)


async def serve_click(
    handler: ClickHandler,
    interaction: discord.Interaction[Any],
    ref: ComponentRef | None,
    picked: list[str] | None,
) -> None:
    """A click on a session component: `ref` None for an id that names nothing we know,
    `picked` the options chosen in a menu (None for a button)."""
    use_interaction_locale(interaction)  # answers to the clicker are in their language
    if ref is None:
        await handler.on_malformed(interaction)
        return
    if picked is not None:
        # A menu's custom_id names no move: the move is the option picked.
        ref = replace(ref, arg=picked[0] if picked else "")
    await handler.on_click(interaction, ref)


def serve_clicks_directly(client: discord.Client, handler: ClickHandler) -> None:
    """Serve clicks on SessionComponents without discord.py's detour through a view.

    For a DynamicItem, discord.py rebuilds the clicked message's whole view
    (`View.from_message`: an item per button and block) only to find the clicked one and
    swap ours in; a session component needs just the custom_id and, for a menu, the
    options picked, which the interaction carries. That detour was a tenth of a click's
    CPU time. Other dynamic items (the history pager) keep discord.py's own path."""
    store = getattr(client._connection, "_view_store", None)
    schedule = getattr(store, "schedule_dynamic_item_call", None)
    if store is None or schedule is None:
        # A discord.py whose internals moved (the pin allows any 2.x): its own path
        # still serves every click, only slower.
        log.warning("discord.py has no schedule_dynamic_item_call; clicks take its view path")
        return

    async def dispatch(
        component_type: int,
        factory: type[discord.ui.DynamicItem[Any]],
        interaction: discord.Interaction[Any],
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        if not issubclass(factory, SessionComponent) or interaction.message is None:
            await schedule(component_type, factory, interaction, custom_id, match)
            return
        ref: ComponentRef | None = None
        picked: list[str] | None = None
        if component_type in (BUTTON, STRING_SELECT):
            ref = ComponentRef.parse(custom_id)
            if component_type == STRING_SELECT:
                data: Any = interaction.data or {}
                picked = [str(value) for value in data.get("values") or []]
        try:
            await serve_click(handler, interaction, ref, picked)
        except Exception:
            log.exception("Ignoring exception in a session component's callback")

    store.schedule_dynamic_item_call = dispatch


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


def message_view(message: Rendered) -> discord.ui.LayoutView:
    """A live message as Components V2: its blocks in a container with its accent
    colour, then its rows of SessionComponents (nothing kept in memory per message)."""
    blocks: list[discord.ui.Item[Any]] = []
    for block in message.blocks:
        if isinstance(block, Text):
            blocks.append(discord.ui.TextDisplay(block.content))
        elif isinstance(block, Divider):
            blocks.append(discord.ui.Separator(visible=block.visible))
        else:
            blocks.append(discord.ui.MediaGallery(discord.MediaGalleryItem(block.url)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*blocks, accent_colour=message.accent))
    for row, specs in enumerate(message.layout):
        view.add_item(
            discord.ui.ActionRow(*(SessionComponent.from_spec(spec, row) for spec in specs))
        )
    return view


def view_for(layout: Layout) -> discord.ui.View | None:
    """A classic view of SessionComponents (ephemeral answers with text), or None."""
    if not layout:
        return None
    view = discord.ui.View(timeout=None)
    for row, specs in enumerate(layout):
        for spec in specs:
            view.add_item(SessionComponent.from_spec(spec, row))
    return view


class PrebuiltComponents:
    """A message's components as Discord's JSON, built straight from the layout.

    What discord.py asks of a view when it sends or edits a message, without a
    discord.ui item per button: about five times cheaper per click. discord.py keeps no
    copy (is_finished), and needs none: every click on these components reaches
    SessionComponent, the registered DynamicItem, through its custom_id.
    """

    __slots__ = ("_components",)

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def prebuilt_message(message: Rendered) -> Any:
    """The live message's components (Components V2) as `message_view` would send them,
    built straight as JSON for edits (typed Any: it stands in for a LayoutView)."""
    container = {
        "type": 17,
        "accent_color": message.accent or None,  # as discord.py: 0 is no accent
        "spoiler": False,
        "components": [_block_json(block) for block in message.blocks],
    }
    rows = [
        {"type": 1, "components": [_component_json(spec) for spec in specs]}
        for specs in message.layout
    ]
    return PrebuiltComponents([container, *rows])


def _block_json(block: Block) -> dict[str, Any]:
    if isinstance(block, Text):
        return {"type": 10, "content": block.content}
    if isinstance(block, Divider):
        return {"type": 14, "divider": block.visible, "spacing": 1}
    return {"type": 12, "items": [{"media": {"url": block.url}, "spoiler": False}]}


def _component_json(spec: ButtonSpec | MenuSpec) -> dict[str, Any]:
    if isinstance(spec, MenuSpec):
        return {
            "type": 3,
            "custom_id": spec.ref.encode(),
            "placeholder": spec.placeholder,
            "min_values": 1,
            "max_values": 1,
            "options": [
                {"label": o.label, "value": o.value, "default": False} for o in spec.options
            ],
            "disabled": spec.disabled,
            "required": True,
        }
    button: dict[str, Any] = {
        "type": 2,
        "style": _STYLES[spec.style].value,
        "custom_id": spec.ref.encode(),
        "disabled": spec.disabled,
    }
    if spec.label:
        button["label"] = spec.label
    if spec.emoji:
        button["emoji"] = _emoji_json(spec.emoji)
    return button


def _emoji_json(emoji: str) -> dict[str, Any]:
    return discord.PartialEmoji.from_str(emoji).to_dict()  # type: ignore[return-value]
