"""Discord's markdown, the subset bots use, as HTML: bold, italic, underline, strike,
spoilers, code, code blocks, quotes, headings, subtext, lists, links, mentions,
timestamps and emoji. Everything else is text, escaped."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from html import escape

from babel.dates import format_timedelta

from bot.i18n import t
from bot.i18n.locales import babel_locale, current_locale
from bot.preview.emoji import (
    CUSTOM_EMOJI,
    UNICODE_EMOJI,
    could_start_emoji,
    custom_emoji_html,
    is_jumbo,
    unicode_emoji_html,
)


@dataclass(frozen=True)
class Markup:
    """What the text cannot say by itself: the names behind ids, emoji images, and the
    moment relative timestamps are counted from."""

    names: Mapping[str, str] = field(default_factory=dict)  # user id -> display name
    channels: Mapping[str, str] = field(default_factory=dict)  # channel id -> name
    roles: Mapping[str, str] = field(default_factory=dict)  # role id -> name
    emoji_images: Mapping[str, str] = field(default_factory=dict)  # name -> URL or path
    now: float | None = None  # unix seconds; None: the real clock


Render = Callable[[re.Match[str], Markup], str]


def _wrap(tag: str) -> Render:
    return lambda match, markup: f"<{tag}>{inline_html(match.group(1), markup)}</{tag}>"


def _code(match: re.Match[str], markup: Markup) -> str:
    return f'<code class="dc-code">{escape(match.group(2))}</code>'


def _mention(text: str) -> str:
    return f'<span class="dc-mention">{escape(text)}</span>'


def _user(match: re.Match[str], markup: Markup) -> str:
    name = markup.names.get(match.group(1))
    return _mention("@" + (name if name is not None else t("preview.unknown_user")))


def _role(match: re.Match[str], markup: Markup) -> str:
    name = markup.roles.get(match.group(1))
    return _mention("@" + (name if name is not None else t("preview.unknown_role")))


def _channel(match: re.Match[str], markup: Markup) -> str:
    name = markup.channels.get(match.group(1))
    return _mention("#" + (name if name is not None else t("preview.unknown_channel")))


def _command(match: re.Match[str], markup: Markup) -> str:
    return _mention("/" + match.group(1))


def _everyone(match: re.Match[str], markup: Markup) -> str:
    return _mention(match.group(0))


def _timestamp(match: re.Match[str], markup: Markup) -> str:
    style = match.group(2) or "f"
    text = timestamp_text(int(match.group(1)), style, markup.now)
    # A relative time carries its instant: a live page counts it down, as Discord does.
    live = f' data-relative="{int(match.group(1))}"' if style == "R" else ""
    return f'<span class="dc-timestamp"{live}>{escape(text)}</span>'


def _custom_emoji(match: re.Match[str], markup: Markup) -> str:
    return custom_emoji_html(match.group(2), markup.emoji_images)


def _link(label: str, url: str) -> str:
    return f'<a class="dc-link" href="{escape(url)}" rel="noreferrer">{label}</a>'


def _masked_link(match: re.Match[str], markup: Markup) -> str:
    return _link(inline_html(match.group(1), markup), match.group(2))


def _bare_link(match: re.Match[str], markup: Markup) -> str:
    url = match.group(1) if match.lastindex else match.group(0)
    return _link(escape(url), url)


def _escaped(match: re.Match[str], markup: Markup) -> str:
    return escape(match.group(1))


def _spoiler(match: re.Match[str], markup: Markup) -> str:
    return f'<span class="dc-spoiler">{inline_html(match.group(1), markup)}</span>'


# Tried in order at each position whose character can start them; the first match wins,
# as in the simple-markdown rules Discord's client is built on.
_RULES: list[tuple[str, re.Pattern[str], Render]] = [
    ("\\", re.compile(r"\\([^\sA-Za-z0-9])"), _escaped),
    ("`", re.compile(r"(`+)(?!`)([\s\S]*?[^`])\1(?!`)"), _code),
    ("<", CUSTOM_EMOJI, _custom_emoji),
    ("<", re.compile(r"<@!?(\d+)>"), _user),
    ("<", re.compile(r"<@&(\d+)>"), _role),
    ("<", re.compile(r"<#(\d+)>"), _channel),
    ("<", re.compile(r"<t:(-?\d{1,13})(?::([tTdDfFR]))?>"), _timestamp),
    ("<", re.compile(r"</([\w -]{1,100}):\d+>"), _command),
    ("<", re.compile(r"<(https?://[^\s>]+)>"), _bare_link),
    ("[", re.compile(r"\[([^\[\]\n]+)\]\(<?(https?://[^\s()<>]+)>?\)"), _masked_link),
    ("h", re.compile(r"https?://[^\s<]+[^<.,:;\"')\]\s]"), _bare_link),
    ("*", re.compile(r"\*\*([\s\S]+?)\*\*(?!\*)"), _wrap("strong")),
    ("*", re.compile(r"\*(?=\S)([\s\S]*?\S)\*(?!\*)"), _wrap("em")),
    ("_", re.compile(r"__([\s\S]+?)__(?!_)"), _wrap("u")),
    ("_", re.compile(r"_([\s\S]+?)_(?![A-Za-z0-9_])"), _wrap("em")),
    ("~", re.compile(r"~~([\s\S]+?)~~"), _wrap("s")),
    ("|", re.compile(r"\|\|([\s\S]+?)\|\|"), _spoiler),
    ("@", re.compile(r"@(?:everyone|here)\b"), _everyone),
]
_RULES_BY_CHAR: dict[str, list[tuple[re.Pattern[str], Render]]] = {}
for _char, _pattern, _render in _RULES:
    _RULES_BY_CHAR.setdefault(_char, []).append((_pattern, _render))


def inline_html(text: str, markup: Markup) -> str:
    """Inline markdown (no blocks) as HTML; newlines are kept for `white-space: pre-wrap`."""
    out: list[str] = []
    plain_from = 0
    position = 0
    while position < len(text):
        char = text[position]
        if char == "_" and position > 0 and text[position - 1].isalnum():
            position += 1  # snake_case words are not italic
            continue
        piece: str | None = None
        end = position
        for pattern, render in _RULES_BY_CHAR.get(char, ()):
            match = pattern.match(text, position)
            if match is not None:
                piece, end = render(match, markup), match.end()
                break
        if piece is None and could_start_emoji(char):
            emoji = UNICODE_EMOJI.match(text, position)
            if emoji is not None:
                piece, end = unicode_emoji_html(emoji.group(0)), emoji.end()
        if piece is None:
            position += 1
            continue
        out.append(escape(text[plain_from:position]))
        out.append(piece)
        position = plain_from = end
    out.append(escape(text[plain_from:]))
    return "".join(out)


_CODE_BLOCK = re.compile(r"```(?:([A-Za-z0-9_+.#-]+)\n)?\n?([\s\S]*?)\n?```")
_HEADING = re.compile(r"(#{1,3}) +(\S.*)")
_SUBTEXT = re.compile(r"-# +(\S.*)")
_LIST_ITEM = re.compile(r"( *)([-*]|\d{1,9}\.) +(\S.*)")


def markdown_html(text: str, markup: Markup, *, jumbo: bool = False) -> str:
    """Block and inline markdown as HTML. `jumbo`: show the text's emoji large when it is
    nothing but emoji (message content and text displays, not embeds)."""
    if jumbo and is_jumbo(text):
        return f'<div class="dc-jumbo">{inline_html(text.strip(), markup)}</div>'
    parts: list[str] = []
    start = 0
    for block in _CODE_BLOCK.finditer(text):
        if block.group(2).strip() == "":
            continue  # Discord shows ``` around nothing as text
        parts.append(_blocks_html(text[start : block.start()], markup, quotes=True))
        parts.append(f'<pre class="dc-codeblock"><code>{escape(block.group(2))}</code></pre>')
        start = block.end()
        if text.startswith("\n", start):
            start += 1  # the block ends its line
    parts.append(_blocks_html(text[start:], markup, quotes=True))
    return "".join(parts)


def _blocks_html(text: str, markup: Markup, *, quotes: bool) -> str:
    """Lines grouped into quotes, headings, subtext, lists and plain runs of text."""
    if not text:
        return ""
    lines = text.split("\n")
    out: list[str] = []
    plain: list[str] = []

    def flush() -> None:
        if plain:
            out.append(inline_html("\n".join(plain), markup))
            plain.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        if quotes and line.startswith(">>> "):
            flush()
            rest = "\n".join([line[4:], *lines[index + 1 :]])
            out.append(_quote(_blocks_html(rest, markup, quotes=False)))
            return "".join(out)
        if quotes and line.startswith("> "):
            flush()
            quoted = []
            while index < len(lines) and (lines[index].startswith("> ") or lines[index] == ">"):
                quoted.append(lines[index][2:])
                index += 1
            out.append(_quote(_blocks_html("\n".join(quoted), markup, quotes=False)))
            continue
        heading = _HEADING.fullmatch(line)
        subtext = _SUBTEXT.fullmatch(line)
        if heading or subtext:
            flush()
            if heading:
                level = len(heading.group(1))
                out.append(f"<h{level}>{inline_html(heading.group(2), markup)}</h{level}>")
            elif subtext:
                out.append(f'<div class="dc-subtext">{inline_html(subtext.group(1), markup)}</div>')
            index += 1
            continue
        if _LIST_ITEM.fullmatch(line):
            flush()
            items = []
            while index < len(lines) and (item := _LIST_ITEM.fullmatch(lines[index])):
                items.append((len(item.group(1)), item.group(2), item.group(3)))
                index += 1
            out.append(_list_html(items, markup))
            continue
        plain.append(line)
        index += 1
    flush()
    return "".join(out)


def _quote(inner: str) -> str:
    bar = '<div class="dc-quote-bar"></div>'
    return f'<div class="dc-quote">{bar}<blockquote>{inner}</blockquote></div>'


def _list_html(items: list[tuple[int, str, str]], markup: Markup) -> str:
    """Items (indent, marker, text) as nested lists: a deeper indent opens a sub-list."""
    html: list[str] = []
    depth_stack: list[tuple[int, str]] = []  # (indent, closing tag)
    for indent, marker, text in items:
        while depth_stack and indent < depth_stack[-1][0]:
            html.append("</li>" + depth_stack.pop()[1])
        ordered = marker[0].isdigit()
        tag = "ol" if ordered else "ul"
        if depth_stack and indent == depth_stack[-1][0] and depth_stack[-1][1] != f"</{tag}>":
            html.append("</li>" + depth_stack.pop()[1])  # "- a" then "1. b": a new list
        if not depth_stack or indent > depth_stack[-1][0]:
            first = f' start="{int(marker[:-1])}"' if ordered else ""
            html.append(f'<{tag} class="dc-list"{first}>')
            depth_stack.append((indent, f"</{tag}>"))
        else:
            html.append("</li>")
        html.append(f"<li>{inline_html(text, markup)}")
    while depth_stack:
        html.append("</li>" + depth_stack.pop()[1])
    return "".join(html)


_FORMATS = {
    "t": "%H:%M",
    "T": "%H:%M:%S",
    "d": "%d/%m/%Y",
    "D": "%-d %B %Y",
    "f": "%-d %B %Y %H:%M",
    "F": "%A, %-d %B %Y %H:%M",
}


def timestamp_text(unix: int, style: str, now: float | None = None) -> str:
    """A `<t:unix:style>` timestamp as Discord writes it in UTC (relative ones in the
    language in force, by CLDR's patterns through Babel: "in 55 seconds", "vor 2
    Minuten", "za 5 minut"; dates and clock times as for an English reader)."""
    try:
        moment = dt.datetime.fromtimestamp(unix, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return t("preview.invalid_date")
    if style != "R":
        return moment.strftime(_FORMATS[style])
    # Whole seconds first, then the unit: 59.6 s left reads "in 1 minute", not "in 60
    # seconds" (threshold 1: a unit is used from one whole of it on).
    delta = round(unix - (time.time() if now is None else now))
    return format_timedelta(
        dt.timedelta(seconds=delta),
        threshold=1,
        add_direction=True,
        locale=babel_locale(current_locale.get()),
    )
