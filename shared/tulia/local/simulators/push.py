"""A Web Push service stand-in, for the local stack and tests: it hands out subscriptions as a browser's push
service would (an endpoint, and the device's keys), and accepts a message pushed to one only if it is right by
the standards, checked here independently of the code that sends it:

- signed: ``Authorization: vapid t=<JWT>, k=<key>`` (RFC 8292), an ES256 JWT whose signature verifies with
  ``k``, for this service's origin, expiring within 24 hours, with a contact ``sub``;
- encrypted: ``Content-Encoding: aes128gcm`` (RFC 8188), decrypted as the device does with its private key
  and auth secret (RFC 8291), a ``TTL`` header present.

A wrong message is answered 400 or 401 and recorded in ``refused``; a right one 201, its plaintext recorded in
``received``. A device can be made gone (410), as when its owner unsubscribes."""

from __future__ import annotations

import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from tulia.local.simulators.base import Recorded, Reply, Route, SimulatorServer

PATH_PREFIX = "/push/"


def _unb64(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _b64(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode()


def _point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Refused(Exception):
    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status, self.why = status, why


@dataclass
class Device:
    device_id: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 with RFC 8188's aes128gcm framing: salt, record size, the sender's key as key id, records."""
        if len(body) < 21:
            raise Refused(400, "body too short for an aes128gcm header")
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender_point, ciphertext = body[21 : 21 + id_length], body[21 + id_length :]
        if id_length != 65 or record_size < 18:
            raise Refused(400, "the key id must be the sender's P-256 public key")
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_point)
        shared = self.private_key.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + _point(self.private_key.public_key()) + sender_point
        ikm = _hkdf(self.auth, shared, key_info, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        if len(ciphertext) > record_size:
            raise Refused(400, "one record expected")
        try:
            padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        except Exception as exc:
            raise Refused(400, "the message does not decrypt with this device's keys") from exc
        stripped = padded.rstrip(b"\x00")
        if not stripped.endswith(b"\x02"):
            raise Refused(400, "the last record must end with the delimiter 0x02")
        return stripped[:-1]


@dataclass
class Pushed:
    device_id: str
    message: dict[str, Any]
    ttl: int
    urgency: str | None
    vapid_key: str
    at: float = field(default_factory=time.time)


class PushService(SimulatorServer):
    name = "push"

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host, port)
        self.devices: dict[str, Device] = {}
        self.gone: set[str] = set()
        self.received: list[Pushed] = []
        self.refused: list[tuple[str, str]] = []  # (device id, why)

    def subscribe(self) -> dict[str, Any]:
        """A new device's subscription, as ``PushSubscription.toJSON()`` gives it to the page."""
        device = Device(_b64(os.urandom(12)), ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.devices[device.device_id] = device
        return {
            "endpoint": f"{self.base_url}{PATH_PREFIX}{device.device_id}",
            "expirationTime": None,
            "keys": {"p256dh": _b64(_point(device.private_key.public_key())), "auth": _b64(device.auth)},
        }

    def make_gone(self, subscription: dict[str, Any]) -> None:
        self.gone.add(str(subscription["endpoint"]).rsplit("/", 1)[-1])

    def messages_to(self, subscription: dict[str, Any]) -> list[dict[str, Any]]:
        device_id = str(subscription["endpoint"]).rsplit("/", 1)[-1]
        with self._lock:
            return [p.message for p in self.received if p.device_id == device_id]

    def route_for(self, rec: Recorded) -> Route | None:
        return self._push if rec.method == "POST" and rec.path.startswith(PATH_PREFIX) else None

    def _push(self, rec: Recorded) -> Reply:
        device_id = rec.path.removeprefix(PATH_PREFIX)
        try:
            device = self.devices.get(device_id)
            if device is None or device_id in self.gone:
                raise Refused(410, "no such subscription")
            key = self._verify_vapid(rec.headers.get("authorization", ""))
            if rec.headers.get("content-encoding") != "aes128gcm":
                raise Refused(400, "Content-Encoding must be aes128gcm")
            if not (rec.headers.get("ttl") or "").isdigit():
                raise Refused(400, "a TTL header is required")
            message = json.loads(device.decrypt(rec.raw))
        except Refused as exc:
            with self._lock:
                self.refused.append((device_id, exc.why))
            return Reply(exc.status, {"error": exc.why})
        with self._lock:
            self.received.append(Pushed(device_id, message, int(rec.headers["ttl"]), rec.headers.get("urgency"), key))
        return Reply(201, b"", content_type="text/plain")

    def _verify_vapid(self, header: str) -> str:
        scheme, _, params = header.partition(" ")
        fields = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        if scheme.lower() != "vapid" or "t" not in fields or "k" not in fields:
            raise Refused(401, "Authorization must be 'vapid t=<jwt>, k=<key>'")
        token, key = fields["t"], fields["k"]
        try:
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(key))
            head, body, signature = token.split(".")
            header_json, claims = json.loads(_unb64(head)), json.loads(_unb64(body))
            raw = _unb64(signature)
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except Exception as exc:
            raise Refused(401, "the VAPID token does not verify with its key") from exc
        if header_json.get("alg") != "ES256" or len(raw) != 64:
            raise Refused(401, "the VAPID token must be ES256")
        if claims.get("aud") != self.base_url:
            raise Refused(401, f"the token is for {claims.get('aud')!r}, not this push service")
        now = time.time()
        if not (now < int(claims.get("exp", 0)) <= now + 24 * 3600):
            raise Refused(401, "the token is expired or lives longer than 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise Refused(401, "the token names no contact (sub)")
        return key
