"""Buttons and select menus as plain data (the cog turns them into discord.ui items), and
Discord's limits."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import discord

from bot.render.custom_ids import MAX_CUSTOM_ID, ComponentRef

MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_LABEL = 80
MAX_MENU_OPTIONS = 25
MAX_OPTION_TEXT = 100  # an option's label and value
MAX_PLACEHOLDER = 150
MAX_FIELD_VALUE = 1024
MAX_DESCRIPTION = 4096
MAX_V2_COMPONENTS = 40  # in a Components V2 message, nested ones counted
MAX_V2_TEXT = 4000  # all its text displays together


class Style(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    ref: ComponentRef  # what a click on it asks for
    label: str = ""
    style: Style = Style.SECONDARY
    disabled: bool = False
    emoji: str | None = None

    @property
    def custom_id(self) -> str:
        return self.ref.text


@dataclass(frozen=True, slots=True)
class MenuOption:
    label: str
    value: str  # what the bot is told when the option is picked


@dataclass(frozen=True, slots=True)
class MenuSpec:
    """A string select menu (one option is picked); it fills a row by itself."""

    ref: ComponentRef
    placeholder: str
    options: tuple[MenuOption, ...]
    disabled: bool = False

    @property
    def custom_id(self) -> str:
        return self.ref.text


Component = ButtonSpec | MenuSpec
Layout = list[list[Component]]  # rows of buttons, or a row holding one menu


@dataclass(frozen=True, slots=True)
class Picture:
    """A PNG sent with a message, shown inside it."""

    filename: str
    data: bytes

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


@dataclass(frozen=True, slots=True)
class Text:
    """A block of markdown text (a Components V2 text display)."""

    content: str


@dataclass(frozen=True, slots=True)
class Divider:
    """A line between blocks (`visible=False`: only a little space)."""

    visible: bool = True


Block = Text | Divider | Picture


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message the bot shows (as Components V2): blocks of text (and maybe a picture)
    in a container whose accent colour is `accent`, and the components below."""

    blocks: tuple[Block, ...]
    layout: Layout
    accent: int | None = None  # 0xRRGGBB

    @property
    def pictures(self) -> list[Picture]:
        """The files the message sends along."""
        return [block for block in self.blocks if isinstance(block, Picture)]

    @property
    def text(self) -> str:
        """All the text, blocks apart by a blank line (tests and previews read it)."""
        return "\n\n".join(block.content for block in self.blocks if isinstance(block, Text))


def v2_problems(rendered: Rendered) -> list[str]:
    """Every way the message breaks Discord's Components V2 limits (empty when fine):
    at most 40 components in all, nested ones counted, and 4000 characters of text."""
    problems = layout_problems(rendered.layout)
    count = 1 + len(rendered.blocks)  # the container and its blocks
    count += sum(1 + len(row) for row in rendered.layout)  # each row and its items
    if count > MAX_V2_COMPONENTS:
        problems.append(f"{count} components")
    if len(rendered.text) > MAX_V2_TEXT:
        problems.append(f"{len(rendered.text)} characters of text")
    if any(isinstance(b, Text) and not b.content.strip() for b in rendered.blocks):
        problems.append("an empty text block")
    return problems


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


UNNAMED_FIELD = "\u200b"  # a field name Discord shows as nothing


def add_line_fields(embed: discord.Embed, name: str, lines: list[str]) -> discord.Embed:
    """`lines` as a field called `name`, continued in unnamed fields where they pass a
    field's limit (a long option list, in a wordier language)."""
    chunks: list[list[str]] = [[]]
    for line in (clip(line, MAX_FIELD_VALUE) for line in lines):
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > MAX_FIELD_VALUE:
            chunks.append([])
        chunks[-1].append(line)
    for index, chunk in enumerate(chunks):
        title = name if index == 0 else UNNAMED_FIELD
        embed.add_field(name=title, value="\n".join(chunk) or "—", inline=False)
    return embed


def layout_problems(layout: Layout) -> list[str]:
    """Every way the layout breaks Discord's component limits (empty when it is fine)."""
    problems: list[str] = []
    if len(layout) > MAX_ROWS:
        problems.append(f"{len(layout)} rows")
    ids = [component.custom_id for row in layout for component in row]
    if len(set(ids)) != len(ids):
        problems.append("repeated custom_id")
    for row in layout:
        if not 1 <= len(row) <= MAX_PER_ROW:
            problems.append(f"a row of {len(row)}")
        if len(row) > 1 and any(isinstance(component, MenuSpec) for component in row):
            problems.append("a menu sharing its row")
        for component in row:
            if len(component.custom_id) > MAX_CUSTOM_ID:
                problems.append(f"custom_id of {len(component.custom_id)}")
            if isinstance(component, MenuSpec):
                problems.extend(_menu_problems(component))
                continue
            if len(component.label) > MAX_LABEL:
                problems.append(f"label of {len(component.label)}")
            if not component.label and not component.emoji:
                problems.append("a button with neither label nor emoji")
    return problems


def _menu_problems(menu: MenuSpec) -> list[str]:
    problems: list[str] = []
    if not 1 <= len(menu.options) <= MAX_MENU_OPTIONS:
        problems.append(f"a menu of {len(menu.options)} options")
    if len(menu.placeholder) > MAX_PLACEHOLDER:
        problems.append(f"placeholder of {len(menu.placeholder)}")
    values = [option.value for option in menu.options]
    if len(set(values)) != len(values):
        problems.append("repeated option value")
    for option in menu.options:
        for text in (option.label, option.value):
            if not 1 <= len(text) <= MAX_OPTION_TEXT:
                problems.append(f"option text of {len(text)}")
    return problems
