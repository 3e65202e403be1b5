"""A Discord message payload as an HTML fragment that looks like Discord's dark theme,
and a page around such fragments.

`message_html` takes the dict discord.py sends over REST (or Discord returns): content,
embeds, components (classic rows, or Components V2 when flags has 1 << 15),
attachments, flags (1 << 6: ephemeral). Everything from the payload is escaped; nothing
is fetched (see `bot.preview.media`). The CSS is `styles.css` beside this module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from html import escape
from importlib import resources
from typing import Any

from bot.i18n import t
from bot.preview.components import (
    Media,
    classic_components_html,
    file_html,
    v2_components_html,
)
from bot.preview.embeds import embed_html
from bot.preview.markdown import Markup, markdown_html
from bot.preview.media import attachment_name, image_html, is_image

EPHEMERAL = 1 << 6
IS_COMPONENTS_V2 = 1 << 15
DEFAULT_TIME = "12:00"


@dataclass(frozen=True)
class Author:
    """Who the message is from, as the header shows it."""

    name: str = "Dice Games"
    avatar_colour: str = "#d65c3e"  # the default avatar's background
    name_colour: str | None = None  # the top role's colour; None: Discord's white
    bot: bool = True  # shows the APP tag
    avatar_url: str | None = None  # a data URL or local path; None: the initial


@dataclass(frozen=True)
class CommandUse:
    """The line Discord shows above a reply to a slash command: "Anne used /pickomino"."""

    user: str
    command: str


def message_html(
    payload: Mapping[str, Any],
    *,
    author: Author | None = None,
    names: Mapping[str, str] | None = None,
    channels: Mapping[str, str] | None = None,
    roles: Mapping[str, str] | None = None,
    emoji_images: Mapping[str, str] | None = None,
    images: Mapping[str, str] | None = None,
    command: CommandUse | None = None,
    now: float | None = None,
) -> str:
    """One message as an HTML fragment (a `div.dc-message`).

    names/channels/roles: ids (as strings) to names, for <@id>, <#id>, <@&id>;
    emoji_images: custom emoji name -> image URL or path (else a placeholder box);
    images: attachment filename -> image URL or path, for attachment:// references and
    attachments; now: the unix time relative timestamps count from (default: the clock).
    An interaction callback body ({"type": 4, "data": {...}}) is read as its data.
    """
    body = _message_body(payload)
    markup = Markup(
        names=names or {},
        channels=channels or {},
        roles=roles or {},
        emoji_images=emoji_images or {},
        now=now,
    )
    media = Media(markup, images or {})
    flags = int(body.get("flags") or 0)
    sender = author or _author_from(body)
    parts = [
        _command_line(command) if command else "",
        _avatar(sender),
        _header(sender, body),
    ]
    accessories: list[str] = []
    if flags & IS_COMPONENTS_V2:
        accessories.append(v2_components_html(list(body.get("components") or []), media))
    else:
        content = str(body.get("content") or "")
        if content:
            html = markdown_html(content, markup, jumbo=True)
            parts.append(f'<div class="dc-content dc-markup">{html}</div>')
        embeds = list(body.get("embeds") or [])
        accessories.extend(embed_html(embed, media) for embed in embeds)
        accessories.extend(_attachments(body, embeds, media))
        accessories.append(classic_components_html(list(body.get("components") or []), media))
    shown = "".join(accessories)
    if shown:
        parts.append(f'<div class="dc-accessories">{shown}</div>')
    classes = "dc-message"
    if flags & EPHEMERAL:
        classes += " dc-ephemeral-message"
        parts.append(_ephemeral_note())
    return f'<div class="{classes}">{"".join(parts)}</div>'


def _message_body(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    data = payload.get("data")
    if isinstance(payload.get("type"), int) and isinstance(data, Mapping):
        return data
    return payload


def _author_from(body: Mapping[str, Any]) -> Author:
    """The author as Discord returns it with a message, else the default bot."""
    user = body.get("author")
    if not isinstance(user, Mapping):
        return Author()
    name = user.get("global_name") or user.get("username") or Author.name
    return Author(name=str(name), bot=bool(user.get("bot")))


def _avatar(author: Author) -> str:
    if author.avatar_url:
        return f'<img class="dc-avatar" src="{escape(author.avatar_url)}" alt="">'
    initial = escape(author.name[:1].upper())
    colour = escape(author.avatar_colour)
    return f'<div class="dc-avatar" style="background-color: {colour}">{initial}</div>'


def _header(author: Author, body: Mapping[str, Any]) -> str:
    colour = f' style="color: {escape(author.name_colour)}"' if author.name_colour else ""
    tag = f'<span class="dc-app-tag">{escape(t("preview.app_tag"))}</span>' if author.bot else ""
    when = escape(t("preview.today_at", time=_clock(body.get("timestamp"))))
    return (
        f'<div class="dc-header"><span class="dc-author"{colour}>{escape(author.name)}</span>'
        f'{tag}<span class="dc-time">{when}</span></div>'
    )


def _clock(timestamp: Any) -> str:
    try:
        return dt.datetime.fromisoformat(str(timestamp)).strftime("%H:%M")
    except ValueError:
        return DEFAULT_TIME


def _command_line(command: CommandUse) -> str:
    return (
        f'<div class="dc-command-line"><span class="dc-command-user">{escape(command.user)}</span>'
        f" {escape(t('preview.used_command'))} "
        f'<span class="dc-command-name">/{escape(command.command)}</span></div>'
    )


def _attachments(body: Mapping[str, Any], embeds: list[dict[str, Any]], media: Media) -> list[str]:
    """Attachments not shown inside an embed (an embed's attachment:// image takes its
    attachment out of the list, as on Discord)."""
    used = {_referenced(embed.get(key)) for embed in embeds for key in ("image", "thumbnail")}
    shown = []
    for attachment in body.get("attachments") or []:
        name = str(attachment.get("filename") or "")
        if name in used:
            continue
        if is_image(name, attachment.get("content_type")):
            picture = image_html(
                {"url": f"attachment://{name}", **_size(attachment)},
                media.images,
                "dc-attachment-image",
                name,
            )
            shown.append(f'<div class="dc-attachment">{picture}</div>')
        else:
            shown.append(file_html(name, attachment.get("size")))
    return shown


def _referenced(media: Any) -> str | None:
    return attachment_name(str(media.get("url") or "")) if isinstance(media, Mapping) else None


def _size(attachment: Mapping[str, Any]) -> dict[str, Any]:
    return {key: attachment[key] for key in ("width", "height") if attachment.get(key)}


_EYE = (
    '<svg class="dc-eye" width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">'
    '<path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7Zm0 '
    '11a4 4 0 1 1 0-8 4 4 0 0 1 0 8Zm0-2a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z"/></svg>'
)


def _ephemeral_note() -> str:
    return (
        f'<div class="dc-ephemeral-note">{_EYE}<span>{escape(t("preview.ephemeral"))}</span>'
        f' • <span class="dc-dismiss">{escape(t("preview.dismiss"))}</span></div>'
    )


@cache
def stylesheet() -> str:
    """The CSS every fragment needs (Discord's dark theme, phone and desktop widths)."""
    return resources.files("bot.preview").joinpath("styles.css").read_text(encoding="utf-8")


def page_html(messages: list[str], width: int) -> str:
    """A whole page showing the fragments one under the other in a chat `width` px wide
    (under 600 px the layout is the phone app's)."""
    slots = "".join(f'<div class="dc-slot">{message}</div>' for message in messages)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width={width}"><style>{stylesheet()}</style>'
        f'</head><body class="dc-page"><main class="dc-chat" style="width: {width}px">'
        f"{slots}</main></body></html>"
    )
