"""Discord's markdown as the preview draws it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import with_locale
from bot.preview.emoji import is_jumbo
from bot.preview.markdown import Markup, inline_html, markdown_html, timestamp_text
from tests.preview.dom import parse

NOW = 1_790_000_000
MARKUP = Markup(
    names={"111": "Anne <3"},
    channels={"222": "games"},
    roles={"333": "Dice & Co"},
    emoji_images={"worm": "data:image/png;base64,AAAA"},
    now=NOW,
)


def md(text: str) -> str:
    return markdown_html(text, MARKUP)


@pytest.mark.parametrize(
    ("text", "tag", "inner"),
    [
        ("**bold**", "strong", "bold"),
        ("*italic*", "em", "italic"),
        ("_italic_", "em", "italic"),
        ("__under__", "u", "under"),
        ("~~gone~~", "s", "gone"),
    ],
)
def test_inline_styles(text, tag, inner):
    tree = parse(md(f"a {text} b"))
    assert tree.one(tag=tag).text() == inner
    assert tree.text() == f"a {inner} b"


def test_styles_nest_and_bold_italic_is_both():
    tree = parse(md("***both*** and **bold _and italic_**"))
    strong = tree.all(tag="strong")
    assert [s.text() for s in strong] == ["both", "bold and italic"]
    assert strong[0].one(tag="em").text() == "both"
    assert strong[1].one(tag="em").text() == "and italic"


def test_snake_case_and_escapes_stay_text():
    tree = parse(md(r"dmitri_the_dice_lord \*not italic\* 2 * 3 * 4"))
    assert tree.all(tag="em") == []
    assert tree.text() == "dmitri_the_dice_lord *not italic* 2 * 3 * 4"


def test_code_keeps_markdown_and_html_as_text():
    tree = parse(md("`**<b>**` and ``a`b``"))
    codes = tree.all("dc-code")
    assert [c.text() for c in codes] == ["**<b>**", "a`b"]
    assert tree.all(tag="strong") == [] and tree.all(tag="b") == []


def test_code_block_with_language_line():
    tree = parse(md("before\n```py\nx = **1**\n<i>\n```\nafter"))
    block = tree.one("dc-codeblock")
    assert block.text() == "x = **1**\n<i>"
    assert tree.text().startswith("before") and tree.text().endswith("after")


def test_quotes_one_line_and_rest_of_message():
    tree = parse(md("> one\n> **two**\nplain"))
    quote = tree.one("dc-quote")
    assert quote.one(tag="blockquote").text() == "one\ntwo"
    assert quote.one(tag="strong").text() == "two"
    everything = parse(md("x\n>>> all\nof\nthis"))
    assert everything.one(tag="blockquote").text() == "all\nof\nthis"


def test_headings_subtext_and_what_is_not_a_heading():
    tree = parse(md("# Big\n## Middle\n### Small\n-# tiny print\n#hashtag\n#### four"))
    assert [tree.one(tag=h).text() for h in ("h1", "h2", "h3")] == ["Big", "Middle", "Small"]
    assert tree.one("dc-subtext").text() == "tiny print"
    assert "#hashtag" in tree.text() and "#### four" in tree.text()


def test_lists_nest_and_ordered_lists_keep_their_start():
    tree = parse(md("- one\n  - inner\n- two\n\n3. three\n4. four"))
    lists = tree.all("dc-list")
    assert [node.tag for node in lists] == ["ul", "ul", "ol"]
    outer, inner, ordered = lists
    assert [li.kids()[0].tag if li.kids() else None for li in outer.kids()] == ["ul", None]
    assert [li.text() for li in inner.kids()] == ["inner"]
    assert ordered.attrs["start"] == "3"
    assert [li.text() for li in ordered.kids()] == ["three", "four"]


def test_mentions_use_the_names_given_and_discords_fallbacks():
    tree = parse(md("<@111> <@!111> <@999> <#222> <#998> <@&333> @everyone </pickomino start:1>"))
    assert [m.text() for m in tree.all("dc-mention")] == [
        "@Anne <3",
        "@Anne <3",
        "@unknown-user",
        "#games",
        "#unknown",
        "@Dice & Co",
        "@everyone",
        "/pickomino start",
    ]


@pytest.mark.parametrize(
    ("style", "text"),
    [
        ("t", "14:13"),
        ("T", "14:13:20"),
        ("d", "21/09/2026"),
        ("D", "21 September 2026"),
        ("f", "21 September 2026 14:13"),
        ("F", "Monday, 21 September 2026 14:13"),
    ],
)
def test_timestamp_styles(style, text):
    assert timestamp_text(NOW, style) == text


@pytest.mark.parametrize(
    ("offset", "text"),
    [
        (300, "in 5 minutes"),
        (-7200, "2 hours ago"),
        (60, "in 1 minute"),
        (59, "in 59 seconds"),
        (-86400 * 3, "3 days ago"),
    ],
)
def test_relative_timestamps_count_from_now(offset, text):
    tree = parse(md(f"Time left: <t:{NOW + offset}:R>"))
    assert tree.one("dc-timestamp").text() == text


def test_a_relative_time_in_whole_seconds_and_the_reader_s_language():
    assert timestamp_text(NOW + 60, "R", now=NOW + 0.4) == "in 1 minute"  # not "60 seconds"
    with with_locale("pl"):
        assert timestamp_text(NOW + 300, "R", now=NOW) == "za 5 minut"


def test_custom_emoji_image_or_placeholder_box():
    tree = parse(md("<:worm:123> <a:party:456>"))
    image = tree.one(tag="img")
    assert image.attrs["src"] == "data:image/png;base64,AAAA" and image.attrs["alt"] == ":worm:"
    box = tree.one("dc-emoji-missing")
    assert box.tag == "span" and box.attrs["title"] == ":party:"


def test_unicode_emoji_are_wrapped_for_the_emoji_font():
    tree = parse(md("kept 4️⃣×3 🪱 👩‍👩‍👧 🇫🇷 ▫️ but not © or ↔"))
    assert [e.text() for e in tree.all("dc-emoji-text")] == ["4️⃣", "🪱", "👩‍👩‍👧", "🇫🇷", "▫️"]


def test_jumbo_only_for_emoji_alone_and_at_most_thirty():
    assert is_jumbo("🪱 <:worm:1>")
    assert not is_jumbo("🪱 ok") and not is_jumbo("") and not is_jumbo("🪱" * 31)
    assert parse(markdown_html("🪱🪱", MARKUP, jumbo=True)).all("dc-jumbo")
    assert not parse(markdown_html("🪱🪱", MARKUP)).all("dc-jumbo")  # not in embeds


def test_links_masked_bare_and_in_angle_brackets():
    tree = parse(
        md("[the **rules**](https://example.org/r) https://a.example/x. <https://b.example>")
    )
    links = tree.all("dc-link")
    assert [(a.text(), a.attrs["href"]) for a in links] == [
        ("the rules", "https://example.org/r"),
        ("https://a.example/x", "https://a.example/x"),
        ("https://b.example", "https://b.example"),
    ]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>&\"'*_~`|#-> \n@:ab1🪱")), max_size=40))
def test_any_text_gives_balanced_html_with_nothing_unescaped(text):
    html = markdown_html(text, MARKUP, jumbo=True)
    tree = parse(html)  # fails on unbalanced tags
    allowed = {"root", "strong", "em", "u", "s", "span", "code", "pre", "div", "blockquote"}
    allowed |= {"h1", "h2", "h3", "ul", "ol", "li", "a", "img"}
    assert {node.tag for node in [tree, *tree.all()]} <= allowed
    assert inline_html(text, MARKUP).count("<script") == 0


def test_a_new_kind_of_list_at_the_same_depth_is_a_new_list():
    tree = parse(md("- a\n- b\n1. one\n2. two"))
    assert [(node.tag, len(node.kids())) for node in tree.all("dc-list")] == [("ul", 2), ("ol", 2)]


def test_the_line_after_a_code_block_starts_right_under_it():
    html = md("```\ncode\n```\nafter")
    assert html.endswith("</pre>after")
