"""OAuth2's authorization code grant as Discord runs it for an Activity (oauth2.mdx).

The page asks Discord for a code (the SDK's AUTHORIZE; the stand-in mints it with
`mint_code` once the person consented), its server trades the code for an access token
at `POST /oauth2/token` with the application's id and client secret, and reads who the
person is with that token (`GET /users/@me`, `Authorization: Bearer ...`). A code works
once, for ten minutes; a token for a week. Errors are RFC 6749's: `invalid_request`,
`invalid_client` (401), `invalid_grant` (an unknown, used or expired code),
`unsupported_grant_type`. Neither the route nor its form body is in Discord's OpenAPI
spec, so the form is checked here by hand.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

CODE_SECONDS = 600.0  # an authorization code's life (RFC 6749 recommends at most 10 min)
TOKEN_SECONDS = 604_800  # Discord's access tokens: a week
GRANT_TYPE = "authorization_code"
SCOPE_IDENTIFY = "identify"


class OAuthError(Exception):
    """A refused token request: its HTTP status and RFC 6749 error body."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"{status} {error}: {description}")
        self.status = status
        self.error = error
        self.description = description

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


@dataclass
class Grant:
    """Who a code or an access token speaks for, with which scopes, until when."""

    user_id: int
    scopes: tuple[str, ...]
    expires: float  # on the OAuth clock


class OAuth:
    """The codes minted and the tokens issued for one application."""

    def __init__(
        self,
        client_id: int,
        client_secret: str,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.clock = clock
        self._codes: dict[str, Grant] = {}
        self._tokens: dict[str, Grant] = {}
        self._consents: set[tuple[int, frozenset[str]]] = set()
        self.exchanges = 0  # codes traded for tokens, for tests

    def consented(self, user_id: int, scopes: Collection[str]) -> bool:
        """Whether `user_id` already authorized the application for `scopes` (Discord
        asks once, then answers AUTHORIZE at once)."""
        wanted = frozenset(scopes)
        return any(user == user_id and wanted <= given for user, given in self._consents)

    def consent(self, user_id: int, scopes: Collection[str]) -> None:
        """`user_id` pressed Authorize on the consent dialog for `scopes`."""
        self._consents.add((user_id, frozenset(scopes)))

    def mint_code(self, user_id: int, scopes: Collection[str] = (SCOPE_IDENTIFY,)) -> str:
        """A code for `user_id` with `scopes`, as AUTHORIZE answers after the consent."""
        code = secrets.token_urlsafe(22)
        self._codes[code] = Grant(user_id, tuple(scopes), self.clock() + CODE_SECONDS)
        return code

    def exchange(
        self, form: Mapping[str, str], basic: tuple[str, str] | None = None
    ) -> dict[str, object]:
        """Trade a code for an access token (the route's 200 body); OAuthError else.
        The client authenticates in the form or with HTTP Basic (`basic`)."""
        client_id, client_secret = basic or (form.get("client_id"), form.get("client_secret"))
        if not client_id or not client_secret:
            raise OAuthError(401, "invalid_client", "Client authentication is required.")
        if client_id != str(self.client_id) or client_secret != self.client_secret:
            raise OAuthError(401, "invalid_client", "Invalid client credentials.")
        grant_type = form.get("grant_type")
        if not grant_type:
            raise OAuthError(400, "invalid_request", 'Missing "grant_type" in request.')
        if grant_type != GRANT_TYPE:
            raise OAuthError(
                400, "unsupported_grant_type", f'Unsupported grant type "{grant_type}".'
            )
        code = form.get("code")
        if not code:
            raise OAuthError(400, "invalid_request", 'Missing "code" in request.')
        grant = self._codes.pop(code, None)  # a code works once, refused or not
        if grant is None or grant.expires < self.clock():
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        token = secrets.token_urlsafe(22)
        self._tokens[token] = Grant(grant.user_id, grant.scopes, self.clock() + TOKEN_SECONDS)
        self.exchanges += 1
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_SECONDS,
            "refresh_token": secrets.token_urlsafe(22),
            "scope": " ".join(grant.scopes),
        }

    def bearer(self, token: str) -> Grant | None:
        """Whom an access token speaks for; None for an unknown or expired one."""
        grant = self._tokens.get(token)
        if grant is None or grant.expires < self.clock():
            return None
        return grant

    def revoke(self, token: str) -> None:
        """Forget an access token (a test's "the person deauthorized the app")."""
        self._tokens.pop(token, None)
