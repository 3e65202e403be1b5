"""Where a turn stands: what the player to move is asked to do next."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    ROLL = "roll"  # roll the dice left; with dice kept, stopping may be possible too
    KEEP = "keep"  # a roll is on the table: keep one face from it
    CLAIM = "claim"  # the turn ended by itself (all dice or all faces kept): take a tile
    # Extrawurm: the Weasel's holder rolled no new face and has not used the Weasel this
    # turn; they roll those dice again (Weasel) or take the failure (AcceptFailure).
    NO_NEW_FACE = "no_new_face"
    OVER = "over"  # the game has ended
