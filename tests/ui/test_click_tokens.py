"""Each channel's interaction tokens: which one edits which message, which sends the next
follow-up (5 at most each), and when they stop being used."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.ui.click_tokens import FOLLOWUPS_PER_INTERACTION, PRUNE_EVERY, InteractionTokens

CHANNEL, LIVE, OLD = 1, 10, 11


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def interaction(name: str) -> Any:
    return SimpleNamespace(id=name, message=SimpleNamespace(id=LIVE))


def same(kept: Any, answered: Any) -> bool:
    """The token's copy of the answered interaction: the same one, its message dropped."""
    return kept is not None and kept.id == answered.id and kept.message is None


def test_a_token_edits_its_message_until_a_margin_before_discord_forgets_it():
    clock = Clock()
    tokens = InteractionTokens(clock, lifetime=900, margin=60)
    click = interaction("click")
    tokens.remember(CHANNEL, click, LIVE)
    assert same(tokens.usable(CHANNEL, LIVE), click)
    assert tokens.usable(CHANNEL, OLD) is None  # another message: not through this one
    assert not tokens.ending(CHANNEL, LIVE)
    clock.now += 900 - 120  # its last margin: the last edits show the Continue state
    assert tokens.ending(CHANNEL, LIVE) and same(tokens.usable(CHANNEL, LIVE), click)
    clock.now += 61
    assert tokens.usable(CHANNEL, LIVE) is None and tokens.ending(CHANNEL, LIVE)


def test_follow_ups_go_through_the_newest_token_five_at_most_then_older_ones():
    clock = Clock()
    tokens = InteractionTokens(clock)
    older, newer = interaction("older"), interaction("newer")
    tokens.remember(CHANNEL, older, LIVE)
    clock.now += 1
    tokens.remember(CHANNEL, newer, None)  # an answer elsewhere: it still sends follow-ups
    used = [tokens.for_followup(CHANNEL) for _ in range(2 * FOLLOWUPS_PER_INTERACTION)]
    assert [token.interaction.id for token in used if token] == ["newer"] * 5 + ["older"] * 5
    assert tokens.for_followup(CHANNEL) is None and not tokens.has_followup(CHANNEL)


def test_a_refused_token_sends_no_more_and_the_next_one_takes_over():
    tokens = InteractionTokens(Clock())
    tokens.remember(CHANNEL, interaction("first"), LIVE)
    tokens.remember(CHANNEL, interaction("second"), LIVE)
    refused = tokens.for_followup(CHANNEL)
    assert refused is not None and refused.interaction.id == "second"
    tokens.spent(refused)
    then = tokens.for_followup(CHANNEL)
    assert then is not None and then.interaction.id == "first"


def test_channels_whose_tokens_all_ran_out_are_forgotten():
    clock = Clock()
    tokens = InteractionTokens(clock)
    tokens.remember(CHANNEL, interaction("old"), LIVE)
    clock.now += 3600
    for index in range(PRUNE_EVERY):
        tokens.remember(100 + index % 3, interaction(f"new-{index}"), LIVE)
    assert tokens.channels() == 3  # the first channel's interactions are not kept
