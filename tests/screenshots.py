"""M-Pesa confirmations drawn as a customer's phone shows them (Pillow), for the tests and the reading bench:
the SMS in a chat bubble (light or dark), the M-Pesa app's receipt screen, and the SIM toolkit's plain text, in
the fonts a fresh machine has (DejaVu when Debian's package is there, else Pillow's own), with the noise a real
screenshot carries (JPEG, scaling, blur, a tint). The words are Safaricom's formats, not ours."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = (
    "DejaVuSans.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansCondensed.ttf",
    "DejaVuSans-Bold.ttf",
)
LAYOUTS = ("sms", "sms_dark", "app", "toolkit")


@dataclass(frozen=True)
class Receipt:
    code: str
    amount: int  # KES
    shortcode: str
    kind: str = "till"  # or "paybill"
    business: str = "MAMA MBOGA SHOP"
    account: str = "ORD-1"
    when: str = "28/11/26 at 1:05 PM"
    balance: int = 3_450


def money(amount: int) -> str:
    return f"{amount:,}.00"


def font(size: int, n: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The n-th of the machine's fonts at this size (Pillow's own when DejaVu is not installed)."""
    files = [FONT_DIR / f for f in FONT_FILES if (FONT_DIR / f).exists()]
    if files:
        return ImageFont.truetype(str(files[n % len(files)]), size)
    return ImageFont.load_default(size=size)


def sms_text(r: Receipt) -> str:
    if r.kind == "paybill":
        return (
            f"{r.code} Confirmed. Ksh{money(r.amount)} sent to {r.business} for account {r.account} on {r.when}. "
            f"New M-PESA balance is Ksh{money(r.balance)}. Transaction cost, Ksh0.00. "
            f"Amount you can transact within the day is 499,000.00."
        )
    return (
        f"{r.code} Confirmed. Ksh{money(r.amount)} paid to {r.business}. Till Number {r.shortcode} on {r.when}. "
        f"New M-PESA balance is Ksh{money(r.balance)}. Transaction cost, Ksh0.00. "
        f"Amount you can transact within the day is 499,000.00."
    )


def app_lines(r: Receipt) -> list[tuple[str, str]]:
    number = ("Till Number", r.shortcode) if r.kind == "till" else ("Business Number", r.shortcode)
    rows = [("", "Transaction successful"), ("Amount", f"KSh {money(r.amount)}"), ("Paid to", r.business), number]
    if r.kind == "paybill":
        rows.append(("Account Number", r.account))
    rows += [("Transaction ID", r.code), ("Date", r.when.replace(" at ", ", ")), ("Transaction cost", "KSh 0.00")]
    return rows


def _wrap(draw: ImageDraw.ImageDraw, words: str, face: object, width: int) -> list[str]:
    lines, line = [], ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=face) <= width:  # type: ignore[arg-type]
            line = trial
        else:
            lines.append(line)
            line = word
    return [*lines, line]


def draw(r: Receipt, layout: str = "sms", seed: int = 0, noise: bool = False) -> bytes:
    """A screenshot of this confirmation as PNG (or JPEG with noise)."""
    rnd = random.Random(seed)
    width = rnd.choice((720, 1080, 900))
    size = rnd.randint(26, 38) * width // 900
    face = font(size, seed)
    dark = layout == "sms_dark"
    background = (11, 20, 26) if dark else (236, 229, 221) if layout == "sms" else (255, 255, 255)
    ink = (233, 237, 239) if dark else (17, 27, 33)
    image = Image.new("RGB", (width, int(width * 1.6)), background)
    pen = ImageDraw.Draw(image)
    margin = width // 12
    y = margin
    if layout in ("sms", "sms_dark"):
        pen.text((margin, y), "MPESA", fill=ink, font=font(size + 6, seed + 4))
        y += size * 3
        lines = _wrap(pen, sms_text(r), face, width - 4 * margin)
        bubble = (31, 44, 52) if dark else (255, 255, 255)
        pen.rounded_rectangle(
            (margin, y, width - margin, y + (len(lines) + 1) * int(size * 1.4)), radius=size, fill=bubble
        )
        y += size // 2
        for line in lines:
            pen.text((margin * 2, y), line, fill=ink, font=face)
            y += int(size * 1.4)
    elif layout == "app":
        pen.rectangle((0, 0, width, size * 4), fill=(0, 166, 81))
        pen.text((margin, size), "M-PESA", fill=(255, 255, 255), font=font(size + 8, seed + 4))
        y = size * 6
        for label, value in app_lines(r):
            if label:
                pen.text((margin, y), label, fill=(110, 110, 110), font=face)
                shown = pen.textlength(value, font=face)  # type: ignore[arg-type]
                pen.text((width - margin - shown, y), value, fill=ink, font=face)
            else:
                pen.text((margin, y), value, fill=(0, 166, 81), font=font(size + 4, seed + 4))
            y += int(size * 2.2)
    else:  # the SIM toolkit's plain screen
        for line in _wrap(pen, sms_text(r), face, width - 2 * margin):
            pen.text((margin, y), line, fill=ink, font=face)
            y += int(size * 1.3)
    out = io.BytesIO()
    if noise:
        if rnd.random() < 0.5:
            image = image.filter(ImageFilter.GaussianBlur(rnd.uniform(0.3, 0.9)))
        scale = rnd.uniform(0.75, 1.0)
        image = image.resize((int(image.width * scale), int(image.height * scale)))
        tint = Image.new("RGB", image.size, tuple(rnd.randint(0, 40) for _ in range(3)))
        image = Image.blend(image, tint, rnd.uniform(0.0, 0.12))
        image.save(out, "JPEG", quality=rnd.randint(55, 85))
    else:
        image.save(out, "PNG")
    return out.getvalue()


def random_receipt(rnd: random.Random) -> Receipt:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    alnum = letters + "0123456789"
    while True:
        code = rnd.choice("STRQ") + "".join(rnd.choice(alnum) for _ in range(9))
        digits = sum(c.isdigit() for c in code)
        if digits and len(code) - digits >= 3:
            break
    kind = rnd.choice(("till", "till", "paybill"))
    return Receipt(
        code=code,
        amount=rnd.choice((90, 450, 1_250, 2_610, 12_999, 48_500)) + rnd.randint(0, 3) * 5,
        shortcode=str(rnd.randint(10_000, 9_999_999)),
        kind=kind,
        business=rnd.choice(("MAMA MBOGA SHOP", "JUA KALI HARDWARE", "NAIROBI BEAUTY", "DEMO SHOP LTD")),
        account=f"ORD-{rnd.randint(1000, 9999)}",
        when=f"{rnd.randint(1, 28)}/{rnd.randint(1, 12)}/26 at {rnd.randint(1, 12)}:{rnd.randint(0, 59):02d} "
        + rnd.choice(("AM", "PM")),
        balance=rnd.randint(0, 90_000),
    )
