"""An embed as HTML, laid out as Discord does: the colour bar, author, title,
description, fields (inline ones side by side), image, thumbnail, footer."""

from __future__ import annotations

import datetime as dt
from html import escape
from typing import Any

from bot.preview.components import Media, colour_css
from bot.preview.markdown import inline_html, markdown_html
from bot.preview.media import image_html, media_source

Embed = dict[str, Any]
GRID_COLUMNS = 12
PHONE_FIELDS_PER_ROW = 2  # the phone app fits fewer inline fields side by side


def embed_html(embed: Embed, media: Media) -> str:
    colour = colour_css(embed.get("color"))
    style = f' style="border-left-color: {colour}"' if colour else ""
    thumbnail = embed.get("thumbnail") or {}
    parts = [
        _author(embed.get("author") or {}, media),
        _title(embed, media),
        _description(embed, media),
        _fields(embed.get("fields") or [], media, 2 if thumbnail.get("url") else 3),
        _image(embed.get("image") or {}, media),
        _footer(embed, media),
    ]
    side = ""
    if thumbnail.get("url"):
        side = image_html(thumbnail, media.images, "dc-embed-thumbnail")
    body = "".join(parts)
    with_thumb = " dc-with-thumbnail" if side else ""
    return (
        f'<div class="dc-embed{with_thumb}"{style}><div class="dc-embed-body">{body}</div>'
        f"{side}</div>"
    )


def _icon(url: str | None, media: Media, css_class: str) -> str:
    source = media_source(url or "", media.images)
    return f'<img class="{css_class}" src="{escape(source)}" alt="">' if source else ""


def _author(author: dict[str, Any], media: Media) -> str:
    if not author.get("name"):
        return ""
    icon = _icon(author.get("icon_url"), media, "dc-embed-author-icon")
    return f'<div class="dc-embed-author">{icon}<span>{escape(str(author["name"]))}</span></div>'


def _title(embed: Embed, media: Media) -> str:
    if not embed.get("title"):
        return ""
    title = inline_html(str(embed["title"]), media.markup)
    if embed.get("url"):
        title = f'<a class="dc-link" href="{escape(str(embed["url"]))}">{title}</a>'
    return f'<div class="dc-embed-title dc-markup">{title}</div>'


def _description(embed: Embed, media: Media) -> str:
    if not embed.get("description"):
        return ""
    html = markdown_html(str(embed["description"]), media.markup)
    return f'<div class="dc-embed-description dc-markup">{html}</div>'


def _fields(fields: list[dict[str, Any]], media: Media, per_row: int) -> str:
    if not fields:
        return ""
    inline = [bool(field.get("inline")) for field in fields]
    wide = field_columns(inline, per_row)
    narrow = field_columns(inline, min(per_row, PHONE_FIELDS_PER_ROW))
    items = []
    for field, desktop, phone in zip(fields, wide, narrow, strict=True):
        name = inline_html(str(field.get("name", "")), media.markup)
        value = markdown_html(str(field.get("value", "")), media.markup)
        items.append(
            f'<div class="dc-field" style="--dc-col: {desktop}; --dc-col-phone: {phone}">'
            f'<div class="dc-field-name dc-markup">{name}</div>'
            f'<div class="dc-field-value dc-markup">{value}</div></div>'
        )
    return f'<div class="dc-embed-fields">{"".join(items)}</div>'


def field_columns(inline: list[bool], per_row: int) -> list[str]:
    """Each field's place on a 12-column grid, as Discord lays them out: consecutive
    inline fields share a row, up to `per_row`, splitting it evenly; any other field
    has a row of its own."""
    rows: list[list[int]] = []
    for index, is_inline in enumerate(inline):
        previous_inline = index > 0 and inline[index - 1]
        if is_inline and previous_inline and len(rows[-1]) < per_row:
            rows[-1].append(index)
        else:
            rows.append([index])
    columns = [""] * len(inline)
    for row in rows:
        span = GRID_COLUMNS // len(row)
        for position, index in enumerate(row):
            columns[index] = f"{1 + position * span} / {1 + (position + 1) * span}"
    return columns


def _image(image: dict[str, Any], media: Media) -> str:
    if not image.get("url"):
        return ""
    return (
        f'<div class="dc-embed-image">{image_html(image, media.images, "dc-embed-picture")}</div>'
    )


def _footer(embed: Embed, media: Media) -> str:
    footer = embed.get("footer") or {}
    pieces = [escape(str(footer["text"]))] if footer.get("text") else []
    when = _footer_time(embed.get("timestamp"))
    if when:
        pieces.append(escape(when))
    if not pieces:
        return ""
    icon = _icon(footer.get("icon_url"), media, "dc-embed-footer-icon")
    separator = '<span class="dc-embed-footer-dot">•</span>'
    return f'<div class="dc-embed-footer">{icon}<span>{separator.join(pieces)}</span></div>'


def _footer_time(value: Any) -> str:
    if not value:
        return ""
    try:
        moment = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return ""
    return moment.strftime("%d/%m/%Y %H:%M")
