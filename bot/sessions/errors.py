"""Why a request was refused. Each error names its translation key; nothing changed."""

from __future__ import annotations

from typing import Any

from bot.i18n.bidi import isolate


class MessageUnreachable(Exception):
    """A live message cannot be shown now (the bot's token may not touch the channel, and
    no interaction's token is fresh): it stays behind, without a traceback, until a click
    or a resumed channel shows it."""


class SessionError(Exception):
    """Base: `key` and `params` give the polite ephemeral answer through bot.i18n.t. A
    `name` param is a person's name: isolated, so a right-to-left one keeps the
    sentence's order."""

    key: str = "error.generic"

    def __init__(self, **params: Any) -> None:
        super().__init__(self.key)
        if isinstance(params.get("name"), str):
            params["name"] = isolate(params["name"])
        self.params = params


class NoSession(SessionError):
    """No lobby or game in the channel; with `game` and `start` params, the answer names
    the game asked for and how to start one."""

    key = "error.no_session.any"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if "game" in params and "start" in params:
            self.key = "error.no_session"


class AlreadyLive(SessionError):
    key = "error.already_live"  # params: link


class StaleButton(SessionError):
    key = "error.stale_button"


class UnknownAction(SessionError):
    """An action by a name that changes nothing (a forged or damaged request)."""

    key = "error.malformed_id"


class StaleMessage(SessionError):
    key = "error.stale_message"


class StaleVersion(SessionError):
    key = "error.stale_version"


class NotInGame(SessionError):
    key = "error.not_in_game"


class NotYourTurn(SessionError):
    key = "error.not_your_turn"  # params: name


class NotHost(SessionError):
    key = "error.not_host"  # params: name


class HostOnly(SessionError):
    key = "error.host_only"  # params: name


class NoBotToRemove(SessionError):
    key = "error.no_bot_to_remove"


class HintsOff(SessionError):
    key = "error.hints_off"


class AlreadyJoined(SessionError):
    key = "error.already_joined"


class LobbyFull(SessionError):
    key = "error.lobby_full"  # params: max


class NotEnoughPlayers(SessionError):
    key = "error.not_enough_players"  # params: min


class NotInLobby(SessionError):
    key = "error.not_in_lobby"


class NotPlaying(SessionError):
    key = "error.not_playing"


class MoveRefused(SessionError):
    """The game refused the move, for the reason its `key` words."""

    key = "error.illegal_move"

    def __init__(self, key: str = "error.illegal_move", **params: Any) -> None:
        super().__init__(**params)
        self.key = key


class CommitFailed(SessionError):
    key = "error.commit_failed"


class DatabaseDown(SessionError):
    """The database could not be reached (bot.storage.protocols.DatabaseUnavailable): the
    move was not played, and may be tried again in a moment. Expected while PostgreSQL
    restarts, so logged as one warning line, not as a failure."""

    key = "error.database_down"
