"""Message components as HTML: the classic action rows (buttons, select menus) and
Components V2 (containers, text displays, separators, sections, thumbnails, media
galleries, files). Interactive parts carry their custom_id in `data-custom-id`, so a
page can make them clickable."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from bot.i18n import t
from bot.preview.emoji import emoji_html
from bot.preview.markdown import Markup, markdown_html
from bot.preview.media import image_html

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR = 9, 10, 11, 12, 13, 14
CONTAINER = 17
SELECTS = {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
LINK_STYLE = 5
STYLE_NAMES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}

Component = Mapping[str, Any]


@dataclass(frozen=True)
class Media:
    """What component rendering needs besides the markdown context: attachment images."""

    markup: Markup
    images: Mapping[str, str]


def colour_css(value: int | None) -> str | None:
    return None if value is None else f"#{value & 0xFFFFFF:06x}"


def _data_id(component: Component) -> str:
    custom_id = component.get("custom_id")
    return f' data-custom-id="{escape(str(custom_id))}"' if custom_id else ""


def button_html(button: Component, media: Media) -> str:
    style = int(button.get("style") or 2)
    classes = ["dc-button", f"dc-button-{STYLE_NAMES.get(style, 'secondary')}"]
    if button.get("disabled"):
        classes.append("dc-disabled")
    inner = []
    if button.get("emoji"):
        inner.append(emoji_html(button["emoji"], media.markup.emoji_images))
    if button.get("label"):
        inner.append(f'<span class="dc-label">{escape(str(button["label"]))}</span>')
    if style == LINK_STYLE:
        inner.append('<span class="dc-launch" aria-hidden="true">↗</span>')
    url = f' data-url="{escape(str(button["url"]))}"' if button.get("url") else ""
    return f'<div class="{" ".join(classes)}"{_data_id(button)}{url}>{"".join(inner)}</div>'


def select_html(select: Component, media: Media) -> str:
    """A closed select menu: its default options' labels, else its placeholder."""
    options = select.get("options") or []
    chosen = [option for option in options if option.get("default")]
    if chosen:
        shown = ", ".join(str(option.get("label", "")) for option in chosen)
        text = f'<span class="dc-select-value">{escape(shown)}</span>'
    else:
        placeholder = select.get("placeholder") or t("preview.select.placeholder")
        text = f'<span class="dc-select-placeholder">{escape(str(placeholder))}</span>'
    listed = "".join(
        f'<li data-value="{escape(str(option.get("value", "")))}">'
        f"{escape(str(option.get('label', '')))}</li>"
        for option in options
    )
    disabled = " dc-disabled" if select.get("disabled") else ""
    return (
        f'<div class="dc-select{disabled}"{_data_id(select)}>{text}'
        f'<span class="dc-chevron" aria-hidden="true"></span>'
        f'<ul class="dc-select-options" hidden>{listed}</ul></div>'
    )


def action_row_html(row: Component, media: Media) -> str:
    items = []
    for child in row.get("components") or []:
        kind = child.get("type")
        if kind == BUTTON:
            items.append(button_html(child, media))
        elif kind in SELECTS:
            items.append(select_html(child, media))
    return f'<div class="dc-row">{"".join(items)}</div>'


def classic_components_html(rows: list[Component], media: Media) -> str:
    if not rows:
        return ""
    return f'<div class="dc-components">{"".join(action_row_html(r, media) for r in rows)}</div>'


def text_display_html(text: Component, media: Media) -> str:
    content = str(text.get("content") or "")
    return (
        f'<div class="dc-text dc-markup">{markdown_html(content, media.markup, jumbo=True)}</div>'
    )


def separator_html(separator: Component) -> str:
    spacing = 2 if separator.get("spacing") == 2 else 1
    divider = " dc-divider" if separator.get("divider", True) else ""
    return f'<div class="dc-separator dc-spacing-{spacing}{divider}"></div>'


def thumbnail_html(thumbnail: Component, media: Media) -> str:
    label = str(thumbnail.get("description") or "")
    picture = image_html(thumbnail.get("media") or {}, media.images, "dc-thumbnail-image", label)
    return f'<div class="dc-thumbnail">{picture}</div>'


def section_html(section: Component, media: Media) -> str:
    texts = "".join(text_display_html(c, media) for c in section.get("components") or [])
    accessory = section.get("accessory") or {}
    if accessory.get("type") == THUMBNAIL:
        side = thumbnail_html(accessory, media)
    elif accessory.get("type") == BUTTON:
        side = button_html(accessory, media)
    else:
        side = ""
    return (
        f'<div class="dc-section"><div class="dc-section-text">{texts}</div>'
        f'<div class="dc-section-accessory">{side}</div></div>'
    )


def gallery_html(gallery: Component, media: Media) -> str:
    items = gallery.get("items") or []
    pictures = "".join(
        image_html(
            item.get("media") or {}, media.images, "dc-gallery-item", item.get("description") or ""
        )
        for item in items
    )
    count = min(len(items), 10)
    return f'<div class="dc-gallery dc-gallery-{count}">{pictures}</div>'


def file_html(name: str, size: int | None) -> str:
    detail = f'<div class="dc-file-size">{escape(t("preview.file.size", size=size))}</div>'
    return (
        '<div class="dc-file"><div class="dc-file-icon" aria-hidden="true"></div>'
        f'<div class="dc-file-text"><div class="dc-file-name">{escape(name)}</div>'
        f"{detail if size is not None else ''}</div></div>"
    )


def _file_component_html(component: Component) -> str:
    url = str((component.get("file") or {}).get("url") or "")
    return file_html(component.get("name") or url.rsplit("/", 1)[-1], component.get("size"))


def container_html(container: Component, media: Media) -> str:
    accent = colour_css(container.get("accent_color"))
    style = f' style="--dc-accent: {accent}"' if accent else ""
    classes = "dc-container dc-accent" if accent else "dc-container"
    if container.get("spoiler"):
        classes += " dc-spoiler-box"
    children = "".join(v2_html(child, media) for child in container.get("components") or [])
    return f'<div class="{classes}"{style}>{children}</div>'


def v2_html(component: Component, media: Media) -> str:
    """One Components V2 component (top level or inside a container); unknown: nothing."""
    render = _V2_RENDERERS.get(component.get("type"))
    return render(component, media) if render is not None else ""


_V2_RENDERERS: dict[Any, Callable[[Component, Media], str]] = {
    CONTAINER: container_html,
    TEXT_DISPLAY: text_display_html,
    SEPARATOR: lambda component, media: separator_html(component),
    SECTION: section_html,
    MEDIA_GALLERY: gallery_html,
    THUMBNAIL: thumbnail_html,
    FILE: lambda component, media: _file_component_html(component),
    ACTION_ROW: action_row_html,
}


def v2_components_html(components: list[Component], media: Media) -> str:
    inner = "".join(v2_html(component, media) for component in components)
    return f'<div class="dc-v2">{inner}</div>'
