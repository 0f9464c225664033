"""Media a customer sends (issue 35, part 1): fetched from the Graph API with the shop's token, checked before and
while it is downloaded, never trusted for its type or size.

Meta's two steps (PROTOCOLS.md 1.4): ``GET /{media-id}`` answers a short-lived ``url`` with the file's
``mime_type``, ``sha256`` and ``file_size``; the url is fetched with the same token. Only what Tulia reads is
taken: voice notes and audio up to 16 MB, photos up to 5 MB (WhatsApp's own limits for them), in the types
WhatsApp sends them as. A file is refused before its download when its stated type or size is not one of those,
and during it when it turns out larger than stated; its bytes must match the stated sha256. Nothing of a file
is logged (its id and kind only).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

import httpx

from tulia.observability import logger as log

MediaKind = Literal["audio", "image"]
ALLOWED_TYPES: dict[MediaKind, frozenset[str]] = {
    # (webm: what a browser records; WhatsApp itself sends ogg/opus)
    "audio": frozenset({"audio/ogg", "audio/opus", "audio/mpeg", "audio/amr", "audio/mp4", "audio/aac", "audio/webm"}),
    "image": frozenset({"image/jpeg", "image/png", "image/webp"}),
}
MAX_BYTES: dict[MediaKind, int] = {"audio": 16 * 1024 * 1024, "image": 5 * 1024 * 1024}
EXTENSIONS = {
    "audio/ogg": "ogg", "audio/opus": "opus", "audio/mpeg": "mp3", "audio/amr": "amr", "audio/mp4": "m4a",
    "audio/aac": "aac", "audio/webm": "webm", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp",
}  # fmt: skip
Refusal = Literal["type", "size", "unavailable", "damaged"]


class MediaRefused(Exception):
    """Why a customer's file is not taken: its ``type`` or ``size``, Meta would not give it (``unavailable``), or
    its bytes are not the file Meta described (``damaged``)."""

    def __init__(self, reason: Refusal, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason: Refusal = reason


@dataclass(frozen=True)
class Media:
    data: bytes
    mime_type: str
    sha256: str

    @property
    def extension(self) -> str:
        return EXTENSIONS.get(self.mime_type, "bin")


def plain_type(mime_type: str) -> str:
    """``audio/ogg; codecs=opus`` -> ``audio/ogg``."""
    return mime_type.split(";", 1)[0].strip().lower()


@dataclass
class MediaClient:
    http: httpx.Client
    api_base: str  # the Graph API root, e.g. https://graph.facebook.com/v21.0

    def fetch(self, media_id: str, token: str, kind: MediaKind) -> Media:
        """The file behind a media id, checked (:class:`MediaRefused` says why not)."""
        auth = {"Authorization": f"Bearer {token}"}
        try:
            described = self.http.get(f"{self.api_base.rstrip('/')}/{media_id}", headers=auth, timeout=10)
        except httpx.HTTPError as exc:
            raise MediaRefused("unavailable", f"media node: {exc.__class__.__name__}") from exc
        if described.status_code != 200:
            raise MediaRefused("unavailable", f"media node answered {described.status_code}")
        try:
            node = described.json()
            url, mime_type = str(node["url"]), plain_type(str(node.get("mime_type") or ""))
            stated_size, sha256 = int(node.get("file_size") or 0), str(node.get("sha256") or "").lower()
        except (ValueError, KeyError, TypeError) as exc:
            raise MediaRefused("unavailable", "media node unreadable") from exc
        if mime_type not in ALLOWED_TYPES[kind]:
            raise MediaRefused("type", f"{kind} of type {mime_type or 'unknown'}")
        limit = MAX_BYTES[kind]
        if stated_size > limit:
            raise MediaRefused("size", f"{kind} of {stated_size} bytes")
        data = self._download(url, auth, limit)
        actual = hashlib.sha256(data).hexdigest()
        if sha256 and actual != sha256:
            raise MediaRefused("damaged", "sha256 differs from the media node's")
        log.info("customer media fetched", extra={"media_kind": kind, "bytes": len(data)})
        return Media(data, mime_type, actual)

    def _download(self, url: str, auth: dict[str, str], limit: int) -> bytes:
        """The url's bytes, read no further than ``limit`` (a file larger than Meta said is refused)."""
        chunks: list[bytes] = []
        size = 0
        try:
            with self.http.stream("GET", url, headers=auth, timeout=30) as response:
                if response.status_code != 200:
                    raise MediaRefused("unavailable", f"media url answered {response.status_code}")
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > limit:
                        raise MediaRefused("size", f"more than {limit} bytes")
                    chunks.append(chunk)
        except httpx.HTTPError as exc:
            raise MediaRefused("unavailable", f"media url: {exc.__class__.__name__}") from exc
        return b"".join(chunks)
