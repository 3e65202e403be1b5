"""Images in a message: attachments, embed images and thumbnails, gallery items.

A preview never fetches anything: an image shows only when the caller gives its source
(a data URL or a local path) for an `attachment://name` reference, or the payload points
somewhere local. Anything on the network becomes a placeholder of the image's size."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

ATTACHMENT_PREFIX = "attachment://"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif")


def attachment_name(url: str) -> str | None:
    return url[len(ATTACHMENT_PREFIX) :] if url.startswith(ATTACHMENT_PREFIX) else None


def media_source(url: str, images: Mapping[str, str]) -> str | None:
    """Where the browser can load `url` from without the network, or None."""
    name = attachment_name(url)
    if name is not None:
        return images.get(name)
    if url.startswith(("http://", "https://", "//")):
        return None
    return url or None


def is_image(filename: str, content_type: str | None = None) -> bool:
    if content_type:
        return content_type.startswith("image/")
    return filename.lower().endswith(IMAGE_SUFFIXES)


def image_html(
    media: Mapping[str, Any], images: Mapping[str, str], css_class: str, label: str = ""
) -> str:
    """An <img>, or a placeholder box with the image's proportions (16:9 if unknown)."""
    url = str(media.get("url") or "")
    source = media_source(url, images)
    width, height = media.get("width"), media.get("height")
    if source is not None:
        return f'<img class="{css_class}" src="{escape(source)}" alt="{escape(label)}">'
    ratio = f"{width} / {height}" if width and height else "16 / 9"
    shown = label or attachment_name(url) or url.rsplit("/", 1)[-1]
    return (
        f'<div class="{css_class} dc-media-missing" style="aspect-ratio: {escape(ratio)}">'
        f"<span>{escape(shown)}</span></div>"
    )
