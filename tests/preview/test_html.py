"""Messages, embeds and components as the preview draws them."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import pytest

from bot.preview import Author, CommandUse, message_html, page_html, stylesheet
from bot.preview.embeds import field_columns
from tests.preview.dom import Node, parse

SAMPLES = Path(__file__).parent / "samples"
V2 = 1 << 15
EPHEMERAL = 1 << 6
EVIL = '<script>alert("x")</script> & "quotes" \'too\''


def message(payload: dict, **options) -> Node:
    tree = parse(message_html(payload, **options))
    return tree.one("dc-message")


def test_everything_from_the_payload_is_escaped():
    payload = {
        "content": EVIL,
        "embeds": [
            {
                "title": EVIL,
                "description": EVIL,
                "fields": [{"name": EVIL, "value": EVIL}],
                "footer": {"text": EVIL},
                "author": {"name": EVIL},
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": EVIL, "custom_id": EVIL},
                    {"type": 2, "style": 5, "label": "x", "url": 'https://x.example/"><b>'},
                ],
            },
            {"type": 1, "components": [{"type": 3, "custom_id": "m", "placeholder": EVIL}]},
        ],
    }
    html = message_html(payload, author=Author(name=EVIL), command=CommandUse(EVIL, EVIL))
    assert "<script" not in html and "<b>" not in html
    tree = parse(html)
    assert tree.all(tag="script") == [] and tree.all(tag="b") == []
    assert tree.one("dc-author").text() == EVIL
    assert tree.one("dc-embed-title").text() == EVIL
    assert tree.one("dc-button-primary").attrs["data-custom-id"] == EVIL
    assert tree.one("dc-button-link").attrs["data-url"] == 'https://x.example/"><b>'
    assert tree.one("dc-select-placeholder").text() == EVIL
    assert EVIL in tree.one("dc-command-line").text()


def test_header_shows_the_author_app_tag_and_time():
    tree = message({"content": "hi", "timestamp": "2026-11-23T09:41:00+00:00"})
    assert tree.one("dc-author").text() == "Dice Games"
    assert tree.one("dc-app-tag").text() == "APP"
    assert tree.one("dc-time").text() == "Today at 09:41"
    person = message({"content": "hi"}, author=Author("anne", "#123456", "#ff0000", bot=False))
    assert person.all("dc-app-tag") == []
    assert person.one("dc-avatar").attrs["style"] == "background-color: #123456"
    assert person.one("dc-author").attrs["style"] == "color: #ff0000"


def test_the_author_discord_returns_with_a_message():
    tree = message({"content": "x", "author": {"username": "anne", "global_name": "Anne"}})
    assert tree.one("dc-author").text() == "Anne" and tree.all("dc-app-tag") == []


def test_ephemeral_messages_say_only_you_can_see_them():
    hidden = message({"content": "psst", "flags": EPHEMERAL})
    assert "dc-ephemeral-message" in hidden.classes
    assert "Only you can see this" in hidden.one("dc-ephemeral-note").text()
    assert "Dismiss message" in hidden.one("dc-ephemeral-note").text()
    assert message({"content": "hello"}).all("dc-ephemeral-note") == []


def test_an_interaction_callback_is_read_as_its_message():
    tree = message({"type": 4, "data": {"content": "**hi**", "flags": EPHEMERAL}})
    assert tree.one(tag="strong").text() == "hi" and tree.all("dc-ephemeral-note")


def test_buttons_styles_disabled_emoji_and_custom_ids():
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": style, "label": f"b{style}", "custom_id": f"id{style}"}
            for style in (1, 2, 3, 4)
        ]
        + [{"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"}],
    }
    row["components"][1]["disabled"] = True
    row["components"][0]["emoji"] = {"id": None, "name": "🎲"}
    row["components"][2]["emoji"] = {"id": "99", "name": "worm", "animated": False}
    tree = message({"components": [row]}, emoji_images={"worm": "worm.png"})
    buttons = tree.one("dc-row").kids()
    assert [b.classes - {"dc-button", "dc-disabled"} for b in buttons] == [
        {"dc-button-primary"},
        {"dc-button-secondary"},
        {"dc-button-success"},
        {"dc-button-danger"},
        {"dc-button-link"},
    ]
    assert ["dc-disabled" in b.classes for b in buttons] == [False, True, False, False, False]
    assert [b.attrs.get("data-custom-id") for b in buttons] == ["id1", "id2", "id3", "id4", None]
    assert buttons[0].one("dc-emoji-text").text() == "🎲"
    assert buttons[2].one(tag="img").attrs["src"] == "worm.png"
    assert (
        buttons[4].one("dc-launch").text() == "↗" and buttons[4].one("dc-label").text() == "Rules"
    )


def test_select_menus_show_placeholder_or_chosen_options():
    options = [{"label": "Take 35", "value": "claim:g35"}, {"label": "Take 21", "value": "g21"}]
    menu = {"type": 3, "custom_id": "pko:claims:1:2", "placeholder": "Stop and take…"}
    tree = message({"components": [{"type": 1, "components": [{**menu, "options": options}]}]})
    select = tree.one("dc-select")
    assert select.attrs["data-custom-id"] == "pko:claims:1:2"
    assert select.one("dc-select-placeholder").text() == "Stop and take…"
    assert [li.attrs["data-value"] for li in select.all(tag="li")] == ["claim:g35", "g21"]
    options[1]["default"] = True
    chosen = message({"components": [{"type": 1, "components": [{**menu, "options": options}]}]})
    assert chosen.one("dc-select-value").text() == "Take 21"
    bare = message({"components": [{"type": 1, "components": [{"type": 3, "custom_id": "x"}]}]})
    assert bare.one("dc-select-placeholder").text() == "Make a selection"


def test_discord_py_views_render_every_item():
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id="j"))
    view.add_item(discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="A")]))
    tree = message({"components": view.to_components()})
    assert [row.kids()[0].classes & {"dc-button", "dc-select"} for row in tree.all("dc-row")] == [
        {"dc-button"},
        {"dc-select"},
    ]


def test_embed_parts_and_colour():
    embed = discord.Embed(title="Pickomino", description="Anne's **turn**", colour=0xD65C3E)
    embed.set_author(name="Game 12")
    embed.add_field(name="Grill", value="`21` 🪱", inline=False)
    embed.set_footer(text="Game #1 · move 2")
    embed.timestamp = discord.utils.utcnow().replace(2026, 1, 2, 3, 4)
    tree = message({"embeds": [embed.to_dict()]})
    box = tree.one("dc-embed")
    assert box.attrs["style"] == "border-left-color: #d65c3e"
    assert box.one("dc-embed-author").text() == "Game 12"
    assert box.one("dc-embed-description").one(tag="strong").text() == "turn"
    assert box.one("dc-field-name").text() == "Grill"
    assert box.one("dc-field-value").one("dc-code").text() == "21"
    assert box.one("dc-embed-footer").text() == "Game #1 · move 2•02/01/2026 03:04"


@pytest.mark.parametrize(
    ("inline", "per_row", "columns"),
    [
        ([True] * 3, 3, ["1 / 5", "5 / 9", "9 / 13"]),
        ([True] * 4, 3, ["1 / 5", "5 / 9", "9 / 13", "1 / 13"]),
        ([True] * 4, 2, ["1 / 7", "7 / 13", "1 / 7", "7 / 13"]),
        ([True, False, True, True], 3, ["1 / 13", "1 / 13", "1 / 7", "7 / 13"]),
        ([False, True], 3, ["1 / 13", "1 / 13"]),
    ],
)
def test_inline_fields_share_rows_like_discord(inline, per_row, columns):
    assert field_columns(inline, per_row) == columns


def test_fields_get_desktop_and_phone_columns_and_a_thumbnail_leaves_two_a_row():
    fields = [{"name": str(i), "value": "v", "inline": True} for i in range(3)]
    plain = message({"embeds": [{"fields": fields}]}).all("dc-field")
    assert [f.attrs["style"] for f in plain] == [
        "--dc-col: 1 / 5; --dc-col-phone: 1 / 7",
        "--dc-col: 5 / 9; --dc-col-phone: 7 / 13",
        "--dc-col: 9 / 13; --dc-col-phone: 1 / 13",  # alone on its row: all of it
    ]
    thumb = {"fields": fields, "thumbnail": {"url": "attachment://t.png"}}
    with_thumbnail = message({"embeds": [thumb]}).all("dc-field")
    assert [f.attrs["style"] for f in with_thumbnail] == [
        "--dc-col: 1 / 7; --dc-col-phone: 1 / 7",
        "--dc-col: 7 / 13; --dc-col-phone: 7 / 13",
        "--dc-col: 1 / 13; --dc-col-phone: 1 / 13",
    ]


def test_images_load_only_from_what_the_caller_gives():
    embed = {
        "image": {"url": "attachment://board.png"},
        "thumbnail": {"url": "https://cdn.x/t.png"},
    }
    attachments = [
        {"id": 0, "filename": "board.png"},
        {"id": 1, "filename": "extra.jpg", "width": 300, "height": 100},
        {"id": 2, "filename": "log.txt", "size": 2048},
    ]
    tree = message(
        {"embeds": [embed], "attachments": attachments}, images={"board.png": "data:image/png;x"}
    )
    assert tree.one("dc-embed-picture").attrs["src"] == "data:image/png;x"
    thumbnail = tree.one("dc-embed-thumbnail")  # on the network: never fetched
    assert thumbnail.tag == "div" and "dc-media-missing" in thumbnail.classes
    shown = tree.all("dc-attachment-image")  # board.png is inside the embed, not repeated
    assert len(shown) == 1 and shown[0].attrs["style"] == "aspect-ratio: 300 / 100"
    assert shown[0].text() == "extra.jpg"
    assert tree.one("dc-file-name").text() == "log.txt"
    assert tree.one("dc-file-size").text() == "2048 bytes"


def test_components_v2_structure():
    payload = {
        "flags": V2,
        "components": [
            {
                "type": 17,
                "accent_color": 0x5865F2,
                "components": [
                    {"type": 10, "content": "## Pickomino\nAnne's **turn**"},
                    {"type": 14, "divider": True, "spacing": 1},
                    {
                        "type": 9,
                        "components": [{"type": 10, "content": "Grill"}],
                        "accessory": {"type": 11, "media": {"url": "attachment://g.png"}},
                    },
                    {
                        "type": 9,
                        "components": [{"type": 10, "content": "Hint?"}],
                        "accessory": {"type": 2, "style": 2, "label": "Hint", "custom_id": "h"},
                    },
                    {"type": 14, "divider": False, "spacing": 2},
                    {"type": 12, "items": [{"media": {"url": "attachment://a.png"}}] * 3},
                    {"type": 13, "file": {"url": "attachment://rules.pdf"}},
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "Roll", "custom_id": "r"}],
                    },
                ],
            },
            {"type": 10, "content": "-# outside the container"},
        ],
    }
    tree = message(payload, images={"g.png": "g.png"})
    v2 = tree.one("dc-v2")
    container, outside = v2.kids()
    assert "dc-accent" in container.classes
    assert container.attrs["style"] == "--dc-accent: #5865f2"
    kinds = [sorted(kid.classes)[0] for kid in container.kids()]
    assert kinds == [
        "dc-markup",  # dc-text
        "dc-divider",
        "dc-section",
        "dc-section",
        "dc-separator",
        "dc-gallery",
        "dc-file",
        "dc-row",
    ]
    first = container.kids()[0]
    assert "dc-text" in first.classes and first.one(tag="h2").text() == "Pickomino"
    separators = container.all("dc-separator")
    assert [s.classes for s in separators] == [
        {"dc-separator", "dc-spacing-1", "dc-divider"},
        {"dc-separator", "dc-spacing-2"},
    ]
    grill, hint = container.all("dc-section")
    assert grill.one("dc-section-text").text() == "Grill"
    assert grill.one("dc-thumbnail").one(tag="img").attrs["src"] == "g.png"
    assert hint.one("dc-section-accessory").one("dc-button").attrs["data-custom-id"] == "h"
    gallery = container.one("dc-gallery")
    assert "dc-gallery-3" in gallery.classes and len(gallery.all("dc-gallery-item")) == 3
    assert container.one("dc-file-name").text() == "rules.pdf"
    assert container.one("dc-row").one("dc-button-primary").text() == "Roll"
    assert outside.one("dc-subtext").text() == "outside the container"


def test_components_v2_text_shows_large_emoji_alone():
    tree = message({"flags": V2, "components": [{"type": 10, "content": "🎲 <:worm:1>"}]})
    jumbo = tree.one("dc-jumbo")
    assert jumbo.one("dc-emoji-text").text() == "🎲" and jumbo.one("dc-emoji-missing")


def test_content_mentions_use_the_names_mapping():
    tree = message({"content": "<@42>, your turn"}, names={"42": "Anne"})
    assert tree.one("dc-mention").text() == "@Anne"


def test_page_wraps_fragments_with_the_css_and_width():
    fragments = [message_html({"content": "one"}), message_html({"content": "two"})]
    page = page_html(fragments, 390)
    assert page.startswith("<!DOCTYPE html>") and stylesheet() in page
    assert 'style="width: 390px"' in page
    assert page.count('class="dc-slot"') == 2
    assert "http" not in stylesheet()  # nothing to fetch


def test_the_pickomino_samples_render():
    samples = json.loads((SAMPLES / "pickomino.json").read_text(encoding="utf-8"))
    for sample in samples:
        tree = message(sample["payload"], names=sample.get("names"))
        assert tree.one("dc-container") and tree.all("dc-button")  # Components V2
