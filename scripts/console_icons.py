"""Draw the console's app icons (console/public/icons/*.png): Tulia's green with a white speech bubble, at the sizes
a phone installs a web app with (192 and 512 pixels; the 512 one also "maskable", its drawing inside the safe
circle). Standard library only; run once, the PNGs are committed: `python scripts/console_icons.py`."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN, WHITE = (11, 122, 87), (255, 255, 255)
OUT = Path(__file__).resolve().parents[1] / "console" / "public" / "icons"


def pixel(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (x, y) of a unit square: a rounded square (full bleed when maskable) with a bubble."""
    r = 0.0 if maskable else 0.18
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r if r else True
    if not inside:
        return (0, 0, 0, 0)
    scale = 0.62 if maskable else 0.75  # a maskable icon keeps its drawing in the middle 80 %
    u, v = (x - 0.5) / scale + 0.5, (y - 0.5) / scale + 0.5
    bubble = ((u - 0.5) / 0.36) ** 2 + ((v - 0.46) / 0.28) ** 2 <= 1
    tail = 0.30 <= u <= 0.46 and 0.66 <= v <= 0.84 and (u - 0.30) >= (v - 0.66) * 0.9
    dots = any(((u - dx) ** 2 + (v - 0.46) ** 2) <= 0.045**2 for dx in (0.36, 0.5, 0.64))
    if (bubble or tail) and not dots:
        return (*WHITE, 255)
    return (*GREEN, 255)


def png(size: int, maskable: bool) -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel((i + 0.5) / size, (j + 0.5) / size, maskable)) for i in range(size))
        for j in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
    ):
        (OUT / name).write_bytes(png(size, maskable))


if __name__ == "__main__":
    main()
