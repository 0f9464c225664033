"""Web Push to a staff member's browser or phone: the message encrypted for that device (RFC 8291,
``aes128gcm``) and the request signed with the deployment's VAPID key (RFC 8292, Mozilla's ``py_vapid``),
posted to the push service the browser chose (RFC 8030).

Push endpoints come from browsers, so they are checked before anything is sent to them: HTTPS on a known
push service's host (``TULIA_WEBPUSH_HOSTS``; the local stack and tests add their own loopback service)."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx

from tulia.errors import InvalidInput

TOKEN_LIFETIME = timedelta(hours=12)  # RFC 8292: at most 24 hours


class PushGone(Exception):
    """The push service no longer knows this subscription (404 or 410): the device is forgotten."""


class PushFailed(Exception):
    """The push service refused the message or could not be reached (the alert's other devices still get it)."""


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64url(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode()


@dataclass(frozen=True)
class VapidKey:
    """The deployment's application server key pair (P-256): the private key as 32 raw bytes, base64url."""

    private_key: str
    subject: str = "mailto:alerts@tulia.example"

    @classmethod
    def generate(cls, subject: str = "mailto:alerts@tulia.example") -> VapidKey:
        from cryptography.hazmat.primitives.asymmetric import ec

        number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        return cls(b64url(number.to_bytes(32, "big")), subject)

    @property
    def public_key(self) -> str:
        """What the console gives ``pushManager.subscribe`` as ``applicationServerKey`` (uncompressed point)."""
        from cryptography.hazmat.primitives import serialization

        point = self._vapid().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def _vapid(self) -> Any:
        from py_vapid import Vapid02

        return Vapid02.from_raw(self.private_key.encode())

    def authorization(self, endpoint: str, now: datetime) -> str:
        """The ``Authorization: vapid t=<JWT>, k=<public key>`` header for a push to ``endpoint``."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int((now + TOKEN_LIFETIME).timestamp()),
            "sub": self.subject,
        }
        return str(self._vapid().sign(claims)["Authorization"])


def check_endpoint(endpoint: str, hosts: tuple[str, ...]) -> str:
    """A push endpoint we may post to: HTTPS on one of ``hosts`` (or a subdomain of one); plain HTTP only to a
    loopback host that is listed (the local stack's stand-in)."""
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    listed = any(host == h or host.endswith("." + h) for h in hosts)
    loopback = host in ("127.0.0.1", "localhost", "::1")
    if not listed or not (parts.scheme == "https" or (parts.scheme == "http" and loopback)):
        raise InvalidInput("This is not the address of a push service Tulia sends to.", field="endpoint")
    return endpoint


RECORD_SIZE = 4096  # one record: push services take at most 4,096 bytes of body


def encrypt(payload: bytes, p256dh: str, auth: str, *, sender: Any = None, salt: bytes | None = None) -> bytes:
    """The message as only the subscribing device can read it: RFC 8291's keys (ECDH with a fresh sender key,
    then HKDF with the device's auth secret) and RFC 8188's ``aes128gcm`` framing, one record. (Mozilla's
    ``http_ece`` does the same but ships no wheel, and Lambda layers here are built from wheels only; the tests
    check this against ``http_ece`` and RFC 8291's worked example.) ``sender``/``salt`` are for that example."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    def hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)

    device_point = b64url_decode(p256dh)
    try:
        device = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), device_point)
    except ValueError as exc:
        raise PushFailed("the device's key is not a P-256 point") from exc
    key: ec.EllipticCurvePrivateKey = sender or ec.generate_private_key(ec.SECP256R1())
    salt = salt or os.urandom(16)
    sender_point: bytes = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    key_info = b"WebPush: info\x00" + device_point + sender_point
    ikm = hkdf(b64url_decode(auth), key.exchange(ec.ECDH(), device), key_info, 32)
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    header: bytes = salt + RECORD_SIZE.to_bytes(4, "big") + bytes([len(sender_point)]) + sender_point
    record = AESGCM(cek).encrypt(nonce, payload + b"\x02", None)  # 0x02: the last record, no padding
    if len(header) + len(record) > RECORD_SIZE:
        raise PushFailed("the message is too long for one push")
    return header + record


def wall_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class WebPushSender:
    http: httpx.Client
    key: VapidKey
    hosts: tuple[str, ...]  # TULIA_WEBPUSH_HOSTS
    # the VAPID token's expiry is read by the push service against its own clock: real time, never the shop's
    wall: Callable[[], datetime] = wall_clock

    def send(self, endpoint: str, p256dh: str, auth: str, message: dict[str, Any]) -> int:
        """Post one message; returns the push service's status. Raises PushGone or PushFailed."""
        check_endpoint(endpoint, self.hosts)
        body = encrypt(json.dumps(message, ensure_ascii=False).encode(), p256dh, auth)
        headers = {
            "Authorization": self.key.authorization(endpoint, self.wall()),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(24 * 3600),  # an alert a day old is not worth showing
            "Urgency": "high",
        }
        try:
            response = self.http.post(endpoint, content=body, headers=headers)
        except httpx.HTTPError as exc:
            raise PushFailed(f"push service unreachable: {type(exc).__name__}") from exc
        if response.status_code in (404, 410):
            raise PushGone(f"push subscription gone ({response.status_code})")
        if response.status_code >= 300:
            raise PushFailed(f"push service answered {response.status_code}")
        return response.status_code
