"""A Pickomino prompt (what_now.py) in words, in the language in force: the "what now"
line of the live message."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.pickomino.engine.specialists import Specialist
from bot.games.pickomino.render.text import dice_text
from bot.games.pickomino.render.what_now import Offer, Prompt
from bot.i18n import t
from bot.render.names import Namer, safe_name


def what_now_text(prompt: Prompt, name_of: Namer, marks: Mapping[Specialist, str]) -> str:
    """The prompt's line; `marks` are the specialists' marks the message draws them with."""
    args = prompt.args
    words: dict[str, object] = {
        "weasel": marks[Specialist.WEASEL],
        "golden_die": marks[Specialist.GOLDEN_DIE],
    }
    if "count" in args:
        words["dice"] = t("pickomino.now.dice", count=args["count"])
    if "faces" in args:
        words["faces"] = dice_text(args["faces"])
    if "offers" in args:
        texts = (offer_text(offer, name_of, marks) for offer in args["offers"])
        words["options"] = t("pickomino.turn.stop.or").join(texts)
    if "total" in args:
        words["total"] = args["total"]
    return t(prompt.key, **words)


def offer_text(offer: Offer, name_of: Namer, marks: Mapping[Specialist, str]) -> str:
    """`take 27`, `take 23 + 🦦`, `take 25 + 🌭` (the Raven's), `steal 25 from Bob`,
    `steal the 🐔 Hen from Bob` (the Hen, not the tile: what that button does)."""
    if offer.victim is not None:
        name = safe_name(name_of(offer.victim))
        if offer.hen:
            return t("pickomino.now.option.steal_hen", name=name, mark=marks[Specialist.HEN])
        return t("pickomino.now.option.steal", tile=offer.tile, name=name)
    if offer.specialist is Specialist.RAVEN:
        return t("pickomino.now.option.take.raven", tile=offer.tile)
    if offer.specialist is not None:
        mark = marks[offer.specialist]
        return t("pickomino.now.option.take.specialist", tile=offer.tile, mark=mark)
    return t("pickomino.now.option.take", tile=offer.tile)
