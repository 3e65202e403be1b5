"""Buttons as plain data (the cog turns them into discord.ui items), and Discord's limits."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import discord

from bot.render.custom_ids import MAX_CUSTOM_ID

MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_LABEL = 80
MAX_EMBED_TOTAL = 6000
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FOOTER = 2048


class Style(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    label: str = ""
    style: Style = Style.SECONDARY
    disabled: bool = False
    emoji: str | None = None


Layout = list[list[ButtonSpec]]  # rows of buttons


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message the bot shows: one embed and its buttons."""

    embed: discord.Embed
    layout: Layout


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def layout_problems(layout: Layout) -> list[str]:
    """Every way the layout breaks Discord's component limits (empty when it is fine)."""
    problems: list[str] = []
    if len(layout) > MAX_ROWS:
        problems.append(f"{len(layout)} rows")
    ids = [button.custom_id for row in layout for button in row]
    if len(set(ids)) != len(ids):
        problems.append("repeated custom_id")
    for row in layout:
        if not 1 <= len(row) <= MAX_PER_ROW:
            problems.append(f"a row of {len(row)}")
        for button in row:
            if len(button.custom_id) > MAX_CUSTOM_ID:
                problems.append(f"custom_id of {len(button.custom_id)}")
            if len(button.label) > MAX_LABEL:
                problems.append(f"label of {len(button.label)}")
            if not button.label and not button.emoji:
                problems.append("a button with neither label nor emoji")
    return problems


def embed_problems(embed: discord.Embed) -> list[str]:
    """Every way the embed breaks Discord's embed limits (empty when it is fine)."""
    problems: list[str] = []
    if len(embed) > MAX_EMBED_TOTAL:
        problems.append(f"total {len(embed)}")
    if len(embed.fields) > MAX_FIELDS:
        problems.append(f"{len(embed.fields)} fields")
    if embed.title and len(embed.title) > MAX_TITLE:
        problems.append(f"title {len(embed.title)}")
    if embed.description and len(embed.description) > MAX_DESCRIPTION:
        problems.append(f"description {len(embed.description)}")
    if embed.footer.text and len(embed.footer.text) > MAX_FOOTER:
        problems.append(f"footer {len(embed.footer.text)}")
    for field in embed.fields:
        if not field.name or len(field.name) > MAX_FIELD_NAME:
            problems.append(f"field name {field.name!r}")
        if not field.value or len(field.value) > MAX_FIELD_VALUE:
            problems.append(f"field {field.name!r} value of {len(field.value or '')}")
    return problems
