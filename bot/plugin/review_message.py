"""A game's review drawn for one reader, in their language: every player's accuracy and
dice luck (a line each, seat order), then the costliest decisions of the reader (of the
first seat when the reader did not play), each drawn by the game, and what the figures
mean. Kept short: at 390 px no taller than the end screen."""

from __future__ import annotations

from bot.i18n import number, percent, t
from bot.plugin.game_plugin import GamePlugin
from bot.plugin.review import GameReview, PlayerReview
from bot.render.layout import Divider, Rendered, Text
from bot.render.names import safe_name

BOT_MARK = "🤖"


def points(share: float) -> str:
    """A win chance's change in percentage points, one decimal: `4.2`, `4,2`."""
    return number(abs(share) * 100, pattern="0.0")


def signed_points(share: float) -> str:
    sign = "−" if share < 0 else "+"
    return sign + points(share)


def review_message(
    review: GameReview, game: GamePlugin, game_id: int, reader: str | None
) -> Rendered:
    """The review as an ephemeral message for `reader` (a player id, or None)."""
    assert game.reviewer is not None
    reviewer = game.reviewer

    def name_of(player: str) -> str:
        return safe_name(review.names.get(player, player))

    lines = [f"### {t('review.title', game_id=game_id)}"]
    for player in review.players:
        lines.append(player_line(player, name_of(player.player), player.player in review.bots))
    focus = review.of(reader) if reader is not None else None
    if focus is None and review.players:
        focus = review.players[0]
    blocks: list[Text | Divider] = [Text("\n".join(lines))]
    if focus is not None:
        costly = [t("review.costly", name=name_of(focus.player))]
        for decision in focus.costly:
            header = t("review.decision", turn=decision.turn, points=points(decision.cost))
            costly.append(f"{header} · {reviewer.draw_decision(decision, name_of)}")
        if not focus.costly:
            costly.append(t("review.costly.none"))
        blocks += [Divider(), Text("\n".join(costly))]
    blocks.append(Text(t("review.about.places" if review.places else "review.about")))
    return Rendered(tuple(blocks), [], game.renderer.colour.value)


def player_line(player: PlayerReview, name: str, bot: bool) -> str:
    shown = f"{BOT_MARK} {name}" if bot else name
    if not player.rolls:  # a game that measures no luck (or a player who never rolled)
        return t("review.player.no_luck", name=shown, accuracy=percent(player.accuracy))
    luck = signed_points(player.luck_per_roll)
    return t("review.player", name=shown, accuracy=percent(player.accuracy), luck=luck)


def practice_text(review: GameReview, game: GamePlugin, learner: str) -> str | None:
    """The learner's costliest decision of a practice game, explained in a sentence."""
    mine = review.of(learner)
    assert game.reviewer is not None
    if mine is None:
        return None
    if not mine.costly:
        return t("review.practice.clean")
    worst = mine.costly[0]
    did, best = game.reviewer.choice_words(
        worst, lambda player: safe_name(review.names.get(player, player))
    )
    return t("review.practice", points=points(worst.cost), did=did, best=best)
