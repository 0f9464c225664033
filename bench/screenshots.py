"""How well M-Pesa screenshots are read (issue 35's benchmark): N confirmations drawn with Pillow (tests/screenshots.py:
the SMS in a light or dark chat bubble, the M-Pesa app's receipt, the SIM toolkit's screen; DejaVu's five faces;
half of them with a screenshot's noise: JPEG at quality 55-85, scaling to 75-100%, blur, a tint), each read by
Tesseract (Debian's tesseract-ocr 5, as `tulia dev` reads them) and parsed by tulia.domain.mpesa_receipt.

Reported:
- read: code and amount both exactly right from the picture alone;
- matched: the code the agent would apply, after an OCR slip is matched among the shop's open M-Pesa records
  (every drawn transaction plus 200 others with random codes, a quarter of them for the same amounts) for the
  exact amount shown: right when it is the drawn transaction's code;
- wrong payments: a picture resolved to another transaction's code (must be 0);
- the Till or Paybill, where the picture shows it, taken for the right business (else the customer would be told
  "that is another number");
- pictures that are not confirmations (price tags, posters, notes) read as a confirmation (must be 0);
- seconds per picture (Tesseract).

    .venv/bin/python -m bench.screenshots [N]   (N defaults to 60)
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from decimal import Decimal

from PIL import Image, ImageDraw

from tests.screenshots import LAYOUTS, draw, font, random_receipt
from tulia.channel.reading import TesseractReader
from tulia.domain.mpesa_receipt import read_receipt, resolve_code, same_number

NOT_RECEIPTS = (
    "Jogoo Maize Flour 2kg\nKES 210\nOffer!",
    "Lipa na M-PESA\nBuy Goods Till\n5123456",
    "Oraimo PowerBank 20000mAh\nKsh 2,499",
    "Order ORD-7F3K2 ready for pickup\nThank you",
    "Fresh milk 500ml KES 60\nBread 400g KES 65\nTotal KES 125",
)


def not_a_receipt(words: str, seed: int) -> bytes:
    image = Image.new("RGB", (800, 600), (250, 250, 245))
    pen = ImageDraw.Draw(image)
    y = 60
    for line in words.splitlines():
        pen.text((60, y), line, fill=(20, 20, 20), font=font(40, seed))
        y += 70
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def main(n: int = 60) -> None:
    reader = TesseractReader()
    if not reader.available():
        raise SystemExit("tesseract is not installed (apt install tesseract-ocr)")
    rnd = random.Random(35)
    drawn = [random_receipt(rnd) for _ in range(n)]
    alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    others = [
        (
            rnd.choice("STRQ") + "".join(rnd.choice(alnum) for _ in range(9)),
            Decimal(rnd.choice(drawn).amount if i % 4 == 0 else rnd.randint(10, 90_000)),
        )
        for i in range(200)
    ]
    records = [(r.code, Decimal(r.amount)) for r in drawn] + others
    read_ok = matched_ok = wrong = numbers_shown = numbers_ours = 0
    seconds: list[float] = []
    by_layout: dict[str, list[int]] = {layout: [0, 0] for layout in LAYOUTS}
    for i, receipt in enumerate(drawn):
        layout = LAYOUTS[i % len(LAYOUTS)]
        picture = draw(receipt, layout, seed=i, noise=i % 2 == 1)
        started = time.perf_counter()
        text = reader.read(picture)
        seconds.append(time.perf_counter() - started)
        got = read_receipt(text)
        by_layout[layout][1] += 1
        if got is None:
            continue
        if got.code == receipt.code and got.amount == receipt.amount:
            read_ok += 1
        if receipt.kind == "till" or layout == "app":  # the pictures that show the number paid to
            numbers_shown += 1
            numbers_ours += got.shortcode is not None and same_number(got.shortcode, receipt.shortcode)
        applied = resolve_code(got, records)
        if applied == receipt.code and got.amount == receipt.amount:
            matched_ok += 1
            by_layout[layout][0] += 1
        elif applied != receipt.code and any(applied == code for code, _ in records):
            wrong += 1  # (the right code with a misread amount pays by the record's amount: not counted here)
    false_receipts = sum(
        read_receipt(reader.read(not_a_receipt(words, k))) is not None for k, words in enumerate(NOT_RECEIPTS)
    )
    print(f"screenshots: {n} drawn ({', '.join(LAYOUTS)}; every second one with noise)")
    print(f"read (code and amount exactly right from the picture): {read_ok}/{n} = {100 * read_ok / n:.1f}%")
    print(f"matched (the code applied is the drawn transaction's): {matched_ok}/{n} = {100 * matched_ok / n:.1f}%")
    print(f"wrong payments (another transaction's code applied): {wrong}")
    print(f"Till/Paybill shown and taken for the right one (not told 'another number'): {numbers_ours}/{numbers_shown}")
    print(f"not confirmations read as confirmations: {false_receipts}/{len(NOT_RECEIPTS)}")
    print("matched by layout: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in by_layout.items()))
    print(
        f"tesseract seconds per picture: median {statistics.median(seconds):.2f}, "
        f"worst {max(seconds):.2f} (machine: {sys.platform}, 2 cores)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
