"""Domain exceptions. Their messages are written for the player who caused them."""


class PickominoError(Exception):
    """Base of every error the engine raises."""


class IllegalAction(PickominoError):
    """The action is not allowed now; the game is left exactly as it was."""


class InvalidState(PickominoError):
    """Stored or supplied state is not a position the rules allow."""
