"""Discord's proxy signature: with the application's public key (DISCORD_PUBLIC_KEY),
every request the table serves must have come through Discord's proxy, which signs
each one it forwards (the Activities docs, "Validating Proxy Request Headers").

The proxy adds `X-Discord-Proxy-Payload` (base64 of a JSON object: `application_id`,
`user_id`, `is_developer`, `created_at`, `expires_at`), `X-Signature-Timestamp` (the
payload's `created_at`) and `X-Signature-Ed25519`, an Ed25519 signature over the
decoded payload bytes alone (not timestamp + body, as for interactions). Discord's own
JavaScript reads the signature as base64, its Python example as hex: 64 bytes are 88
base64 characters or 128 hex digits, so both are taken, by length.

The signed payload covers no method, path or body and may be replayed until it
expires: it proves a request came through the proxy for that user, which is why the
socket also checks that user is the one its access token names.
"""

from __future__ import annotations

import base64
import binascii
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

PAYLOAD = "X-Discord-Proxy-Payload"
TIMESTAMP = "X-Signature-Timestamp"
SIGNATURE = "X-Signature-Ed25519"
SIGNATURE_BYTES = 64
BASE64_LENGTH = 88
HEX_LENGTH = 128
MAX_PAYLOAD_CHARS = 2048  # the proxy's payload is a few short fields


@dataclass(frozen=True, slots=True)
class Signed:
    """Who the proxy forwarded a request for."""

    user_id: int
    expires_at: int  # epoch seconds


class ProxySignature:
    """Checks the proxy's headers with the application's public key (64 hex digits)."""

    def __init__(self, public_key_hex: str, *, clock: Callable[[], float] = time.time) -> None:
        self._key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        self.clock = clock

    def verify(self, headers: Mapping[str, str]) -> Signed | None:
        """Who the request came through the proxy for; None when the headers are
        missing, malformed, expired or not signed by the key."""
        encoded = headers.get(PAYLOAD, "")
        signature = _signature_bytes(headers.get(SIGNATURE, ""))
        if signature is None or not encoded or len(encoded) > MAX_PAYLOAD_CHARS:
            return None
        try:
            payload_bytes = base64.b64decode(encoded, validate=True)
            self._key.verify(signature, payload_bytes)
            payload = orjson.loads(payload_bytes)
        except (binascii.Error, ValueError, InvalidSignature):
            return None
        if not isinstance(payload, dict):
            return None
        created, expires = payload.get("created_at"), payload.get("expires_at")
        user = str(payload.get("user_id", ""))
        if type(created) is not int or type(expires) is not int:
            return None  # bool is an int too: `type(...) is int` keeps it out
        if not (user.isascii() and user.isdigit()):
            return None
        if headers.get(TIMESTAMP) != str(created) or expires < self.clock():
            return None
        return Signed(int(user), expires)


def _signature_bytes(text: str) -> bytes | None:
    """The signature's 64 bytes, from 128 hex digits or 88 base64 characters."""
    try:
        if len(text) == HEX_LENGTH:
            raw = bytes.fromhex(text)
        elif len(text) == BASE64_LENGTH:
            raw = base64.b64decode(text, validate=True)
        else:
            return None
    except (ValueError, binascii.Error):
        return None
    return raw if len(raw) == SIGNATURE_BYTES else None
