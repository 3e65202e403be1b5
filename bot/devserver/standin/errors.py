"""Discord's error answers (its JSON error body and nested form errors), and the
stand-in's own timeout error for tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class DiscordHTTPError(Exception):
    """Raised by route handlers; turned into Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        detail: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.detail = detail  # for the record and the test's failure, not sent

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unknown_message() -> DiscordHTTPError:
    return DiscordHTTPError(404, 10008, "Unknown Message")


class FakeDiscordTimeout(AssertionError):
    """A wait on the stand-in ran out of time (an assertion failure in a test)."""


class FormErrors:
    """Collects field errors in Discord's nested ``errors`` shape."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", self.tree)
