"""An Excel catalog is read exactly as the same CSV: numbers Excel keeps as floats are whole KES, every bad row is
reported with Excel's row number, the sheet with the columns is found, and a file that is no workbook is one clear
problem."""

from __future__ import annotations

from datetime import date

from tests.workbooks import workbook
from tulia.domain.catalog_rows import rows_from_csv, rows_from_xlsx

HEADER = ("sku", "name", "category", "price", "stock", "description", "variants", "active")
GOOD = [
    ("UNGA-2", "Jogoo maize flour 2kg", "Flour", 210, 40, "Sifted maize meal", None, None),
    ("MAZIWA", "Fresh milk 500ml", "Dairy", 65.0, None, "Pasteurised", None, True),
    ("SUKARI", "Kabras sugar 1kg", "Sugar", "1,50", 12, "White sugar", "size=1kg|2kg(+140)", "no"),
]
CSV = """sku,name,category,price,stock,description,variants,active
UNGA-2,Jogoo maize flour 2kg,Flour,210,40,Sifted maize meal,,
MAZIWA,Fresh milk 500ml,Dairy,65,,Pasteurised,,yes
SUKARI,Kabras sugar 1kg,Sugar,"1,50",12,White sugar,size=1kg|2kg(+140),no
"""


def test_a_workbook_reads_as_the_same_csv() -> None:
    from_excel = rows_from_xlsx(workbook(("Items", [HEADER, *GOOD])), "shop")
    from_csv = rows_from_csv(CSV, "shop")
    assert [i.model_dump() for i in from_excel.valid] == [i.model_dump() for i in from_csv.valid]
    milk = from_excel.valid[1]
    assert (milk.price, milk.stock, milk.active) == (65, None, True)
    sugar = from_excel.valid[2]
    assert (sugar.price, sugar.active, [o.price_delta for o in sugar.variants[0].options]) == (150, False, [0, 140])


def test_every_bad_row_is_reported_with_excels_row_number() -> None:
    rows = [
        HEADER,
        GOOD[0],
        (None,) * len(HEADER),  # an empty row is skipped, but keeps its number
        ("BAD-PRICE", "Cooking oil 1L", "Oil", 249.5, 3, "Sunflower", None, None),
        ("UNGA-2", "Another flour", "Flour", 200, 1, "Again", None, None),
        ("NO-NAME", None, "Flour", 100, 1, "x", None, "maybe"),
    ]
    result = rows_from_xlsx(workbook(("Sheet1", rows)), "shop")
    assert [i.item_id for i in result.valid] == ["UNGA-2"]
    report = {r.row: (r.sku, [str(e) for e in r.errors]) for r in result.invalid}
    assert sorted(report) == [4, 5, 6]
    assert "must be a whole number of KES" in report[4][1][0]
    assert report[5] == ("UNGA-2", ["sku: duplicate sku 'UNGA-2' (first used in row 2)"])
    assert report[6][1] == ["active 'maybe' must be yes or no"]


def test_the_sheet_with_the_columns_is_read_and_dates_are_text() -> None:
    notes = ("Read me", [("This workbook lists our stock",), ("updated", date(2026, 11, 1))])
    items = ("Stock", [HEADER, ("MKATE", "Bread 400g", "Bakery", 60, 10, "Baked 2026", None, None)])
    result = rows_from_xlsx(workbook(notes, items), "shop")
    assert (result.problems, [i.name for i in result.valid]) == ([], ["Bread 400g"])


def test_a_sheet_without_the_columns_or_a_file_that_is_no_workbook_is_one_problem() -> None:
    headless = rows_from_xlsx(workbook(("Sheet1", [("Item", "Price"), ("Bread", 60)])), "shop")
    assert headless.problems == [
        "header: missing column(s): sku, name, category, stock, description "
        "(required: sku,name,category,price,stock,description)"
    ]
    assert headless.rows == []
    broken = rows_from_xlsx(b"PK\x03\x04 this is not a zip archive", "shop")
    assert broken.problems == ["file: not an Excel workbook that can be read (BadZipFile)"]
    empty = rows_from_xlsx(workbook(("Sheet1", [])), "shop")
    assert empty.problems[0].startswith("header: missing column(s): sku, name, category, price, stock, description")


def test_a_workbook_that_unpacks_to_too_much_is_refused_before_it_is_read() -> None:
    import io
    import zipfile

    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/sharedStrings.xml", b"<si><t>a</t></si>" * (4 * 1024 * 1024))  # 68 MB of text
    assert len(bomb.getvalue()) < 1024 * 1024  # a small file
    result = rows_from_xlsx(bomb.getvalue(), "shop")
    assert result.problems == ["file: the workbook unpacks to more than 50 MB: save the catalog alone as CSV"]


def test_an_items_picture_address_is_read_written_back_and_checked() -> None:
    from tulia.domain.catalog_rows import rows_to_csv

    sheet = (
        "sku,name,category,price,stock,description,image_url\n"
        "UNGA-2,Jogoo maize flour 2kg,Flour,210,40,Sifted,https://cdn.shop.example/p/unga-2.jpg\n"
        "MAZIWA,Fresh milk 500ml,Dairy,65,,Pasteurised,\n"
        "SUKARI,Kabras sugar 1kg,Sugar,150,12,White,ftp://files.example/sugar.jpg\n"
        "CHAI,Ketepa tea 100g,Tea,120,5,Loose tea,https://cdn.shop.example/p/chai tea.jpg\n"
    )
    read = rows_from_csv(sheet, "shop")
    unga, milk = read.valid
    assert (unga.image_url, milk.image_url) == ("https://cdn.shop.example/p/unga-2.jpg", None)
    bad = {r.sku: [e.field for e in r.errors] for r in read.rows if not r.ok}
    assert bad == {"SUKARI": ["image_url"], "CHAI": ["image_url"]}  # not http(s); a space in the address
    again = rows_from_csv(rows_to_csv(read.valid), "shop").valid
    assert [i.model_dump() for i in again] == [i.model_dump() for i in read.valid]
