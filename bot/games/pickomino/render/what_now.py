"""The "what now" line of the player to move, decided from the game alone: a catalog
key and its raw arguments (bot.render.prompt.Prompt), worded by what_now_words.py.

Pure: it reads the engine and nothing else (no discord, no i18n), so a practice game
can turn the same decision into a coaching line. Keys, one per state of a turn:

- `pickomino.now.start` / `.start.golden_die`: before the first roll (`count` dice);
- `pickomino.now.keep` / `.keep.weasel`: a roll to keep one face from (`faces`
  keepable, `taken`: faces of the roll kept already);
- `pickomino.now.no_new_face`: Extrawurm, the Weasel's holder rolled no new face;
- `pickomino.now.stop` / `.stop.menu`: dice kept, a tile to take now or `count` dice
  to roll (`offers`, in the order the buttons show them; `canned_worm`: the Canned
  Worm is the worm);
- `pickomino.now.roll.no_worm` / `.roll.no_tile`: dice kept, no tile yet (`total`);
- `pickomino.now.claim.dice` / `.claim.faces` / `.claim.menu`: the turn ended by
  itself (every die or every face kept): which tile to take.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.games.pickomino.engine import ClaimOption, Face, Game, Phase, Source
from bot.games.pickomino.engine.specialists import Specialist
from bot.render.prompt import Prompt

__all__ = ["Offer", "Prompt", "shown_claims", "what_now"]


@dataclass(frozen=True, slots=True)
class Offer:
    """A claim as a prompt names it: the tile, whose it is, and what comes with it."""

    tile: int
    victim: str | None = None  # a steal's victim
    hen: bool = False  # Extrawurm: the steal takes the Sitting Hen, and the victim keeps the tile
    specialist: Specialist | None = None  # Extrawurm: who sits on the grill tile taken


def shown_claims(options: Iterable[ClaimOption]) -> list[ClaimOption]:
    """The claims in the order the turn offers them: grill tiles highest first, then steals.
    All of them: there are at most 18 (one per tile), and a menu holds 25."""
    return sorted(options, key=lambda option: (option.source is Source.STEAL, -option.tile))


def what_now(game: Game, *, claims_in_menu: bool = False) -> Prompt | None:
    """What the player to move may do now and why; None once the game is over.
    `claims_in_menu`: the message offers the claims in a menu, not as buttons."""
    if game.is_over:
        return None
    legal = game.legal_actions()
    phase = game.phase
    if phase is Phase.NO_NEW_FACE:
        return Prompt("pickomino.now.no_new_face")
    if phase is Phase.KEEP:
        return _keep(game, legal.keepable, legal.can_weasel)
    offers = tuple(_offer(game, option) for option in shown_claims(legal.claims))
    if phase is Phase.CLAIM:
        if claims_in_menu:
            return Prompt("pickomino.now.claim.menu")
        key = "pickomino.now.claim.dice" if not game.dice_left else "pickomino.now.claim.faces"
        return Prompt(key, {"offers": offers})
    count = game.dice_left
    if not game.kept:
        golden = game.turn_dice > game.layout.dice  # the Golden Die's ninth
        key = "pickomino.now.start.golden_die" if golden else "pickomino.now.start"
        return Prompt(key, {"count": count})
    if offers and claims_in_menu:
        return Prompt("pickomino.now.stop.menu", {"count": count})
    if offers:  # `canned_worm`: the can is the worm (the kept line shows its 5)
        args = {"offers": offers, "count": count, "canned_worm": game.canned_worm_counts}
        return Prompt("pickomino.now.stop", args)
    if not game.has_worm and not game.canned_worm_counts:
        return Prompt("pickomino.now.roll.no_worm", {"count": count})
    return Prompt("pickomino.now.roll.no_tile", {"count": count, "total": game.claim_total})


def _keep(game: Game, keepable: tuple[Face, ...], can_weasel: bool) -> Prompt:
    # `taken`: faces of the roll kept already, greyed on their buttons. The kept line says
    # which they are, so the live message leaves them out; a coaching line may say why.
    taken = tuple(sorted(set(game.roll or ()).intersection(game.kept)))
    key = "pickomino.now.keep.weasel" if can_weasel else "pickomino.now.keep"
    return Prompt(key, {"faces": keepable, "taken": taken})


def _offer(game: Game, option: ClaimOption) -> Offer:
    if option.source is Source.STEAL:
        return Offer(option.tile, option.victim, hen=game.is_hen_steal(option))
    expansion = game.expansion
    specialist = None if expansion is None else expansion.on_tile(option.tile)
    return Offer(option.tile, specialist=specialist)
