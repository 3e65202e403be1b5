"""The proxy's signature: Discord's headers pass (the signature in base64 or in hex);
a payload changed, signed by another key, expired, with another timestamp, or headers
missing or malformed do not."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bot.table.proxy_signature import PAYLOAD, SIGNATURE, TIMESTAMP, ProxySignature, Signed

NOW = 1_800_000_000
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def public_hex(key: Ed25519PrivateKey = KEY) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def signed_headers(
    user_id: str = "1001",
    *,
    created: object = NOW,
    expires: object = NOW + 300,
    key: Ed25519PrivateKey = KEY,
    hex_signature: bool = False,
) -> dict[str, str]:
    """The headers Discord's proxy adds, as its sdk-playground builds them."""
    payload = json.dumps(
        {
            "application_id": "123",
            "user_id": user_id,
            "is_developer": False,
            "created_at": created,
            "expires_at": expires,
        }
    ).encode()
    signature = key.sign(payload)
    return {
        SIGNATURE: signature.hex() if hex_signature else base64.b64encode(signature).decode(),
        TIMESTAMP: str(created),
        PAYLOAD: base64.b64encode(payload).decode(),
    }


@pytest.fixture
def check() -> ProxySignature:
    return ProxySignature(public_hex(), clock=lambda: NOW)


def test_discords_headers_pass_with_the_signature_in_base64_or_hex(check):
    assert check.verify(signed_headers()) == Signed(1001, NOW + 300)
    assert check.verify(signed_headers(hex_signature=True)) == Signed(1001, NOW + 300)


def test_a_changed_payload_another_key_or_another_timestamp_fail(check):
    headers = signed_headers()
    other = signed_headers("1002")
    assert check.verify({**headers, PAYLOAD: other[PAYLOAD]}) is None  # someone else's
    assert check.verify(signed_headers(key=Ed25519PrivateKey.generate())) is None
    assert check.verify({**headers, TIMESTAMP: str(NOW + 1)}) is None


def test_an_expired_payload_fails(check):
    assert check.verify(signed_headers(expires=NOW - 1)) is None
    assert check.verify(signed_headers(expires=NOW)) is not None  # until then


@pytest.mark.parametrize(
    "broken",
    [
        {},
        {SIGNATURE: ""},
        {SIGNATURE: "zz" * 64},  # not hex
        {SIGNATURE: "!" * 88},  # not base64
        {SIGNATURE: "ab" * 63},  # neither length
        {PAYLOAD: "not base64!"},
        {PAYLOAD: base64.b64encode(b"[1, 2]").decode()},
        {PAYLOAD: "A" * 4000},
    ],
)
def test_missing_or_malformed_headers_fail(check, broken):
    headers = {**signed_headers(), **broken}
    if not broken:
        headers = {}
    assert check.verify(headers) is None


def test_a_payload_of_the_wrong_types_fails_even_when_signed(check):
    assert check.verify(signed_headers(created=True)) is None
    assert check.verify(signed_headers(expires="soon")) is None
    assert check.verify(signed_headers("Anne")) is None
