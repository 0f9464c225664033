"""Excel workbooks (.xlsx) as an owner's spreadsheet program saves them, written with openpyxl."""

from __future__ import annotations

import io
from collections.abc import Sequence

from openpyxl import Workbook


def workbook(*sheets: tuple[str, Sequence[Sequence[object]]]) -> bytes:
    """A workbook with these sheets (title, rows); cells keep their types (numbers stay numbers)."""
    book = Workbook()
    assert book.active is not None
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
