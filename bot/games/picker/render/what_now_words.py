"""A Picker prompt (what_now.py) in words, in the language in force: the "what now"
line of the live message."""

from __future__ import annotations

from bot.games.picker.words import COLOUR_MARK, die_text
from bot.i18n import t
from bot.render.names import Namer, safe_name
from bot.render.prompt import Prompt


def what_now_text(prompt: Prompt, name_of: Namer) -> str:
    args = prompt.args
    words: dict[str, object] = {}
    if "value" in args:
        words["value"] = args["value"]
    if "colour" in args:
        words["die"] = die_text(args["colour"], args["value"])
    if "colours" in args:
        words["colours"] = "".join(COLOUR_MARK[colour] for colour in args["colours"])
    if "player" in args:
        words["name"] = safe_name(name_of(args["player"]))
    return t(prompt.key, **words)
