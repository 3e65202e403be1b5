"""The signature Discord's proxy puts on every request it forwards to an Activity's
server (multiplayer-experience.mdx, "Validating Proxy Request Headers"; Discord's
sdk-playground checks it in packages/shared/src/crypto.ts).

`X-Discord-Proxy-Payload` is base64 JSON saying for whom and until when:
{application_id, user_id, is_developer, created_at, expires_at} (seconds since the
epoch); `X-Signature-Timestamp` repeats created_at; `X-Signature-Ed25519` is the
application's Ed25519 signature over the decoded payload bytes alone (no method, path or
body), base64 as the playground sends it. The server checks it with the application's
public key, the portal's "Public Key" (hex).
"""

from __future__ import annotations

import base64
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

SIGNATURE = "X-Signature-Ed25519"
TIMESTAMP = "X-Signature-Timestamp"
PAYLOAD = "X-Discord-Proxy-Payload"
HEADERS = (SIGNATURE, TIMESTAMP, PAYLOAD)
# How long one signed payload is good for. Discord does not say; a request is signed
# afresh each time, so only a replayed one would notice.
PAYLOAD_SECONDS = 300


def public_key_hex(key: Ed25519PrivateKey) -> str:
    """The public half as the portal shows it (64 hex digits): DISCORD_PUBLIC_KEY."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def signed_headers(
    key: Ed25519PrivateKey, application_id: int, user_id: int, now: float
) -> dict[str, str]:
    """The three headers for a request of `user_id`'s launch, created at `now`."""
    created = int(now)
    payload = json.dumps(
        {
            "application_id": str(application_id),
            "user_id": str(user_id),
            "is_developer": False,
            "created_at": created,
            "expires_at": created + PAYLOAD_SECONDS,
        },
        separators=(",", ":"),
    ).encode()
    return {
        SIGNATURE: base64.b64encode(key.sign(payload)).decode(),
        TIMESTAMP: str(created),
        PAYLOAD: base64.b64encode(payload).decode(),
    }
