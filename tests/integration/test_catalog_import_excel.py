"""An owner imports her catalog from an Excel workbook through the admin function (issue 34, part 4): the same
per-row report as a CSV, nothing written while a row is bad unless she asks for the good rows, the catalog's version
moved so the bot searches the new items. An old .xls file or a broken workbook is a clear error and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SHOP
from tests.integration.test_signup import Person
from tests.workbooks import workbook
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.services import Services
from tulia.store.audit import AuditRepo

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HEADER = ("sku", "name", "category", "price", "stock", "description")


@pytest.fixture
def owner(seeded: Services) -> Person:
    person = Person(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))), "sub-o", "o@shop.example")
    person.tenant_id, person.groups = SHOP, ["owner"]
    return person


def _names(seeded: Services) -> dict[str, Any]:
    return {i.item_id: i for i in seeded.catalog.iter_all(SHOP)}


def test_a_workbook_with_a_bad_row_writes_nothing_then_the_good_rows_on_request(
    seeded: Services, owner: Person
) -> None:
    before = _names(seeded)
    version = seeded.tenants.get(SHOP).catalog_version
    book = workbook(
        (
            "Bei",
            [
                HEADER,
                ("XL-KETTLE", "Ramtons electric kettle 1.7L", "Kitchen", 2899.0, 7, "Stainless, auto switch-off"),
                ("XL-IRON", "Philips dry iron", "Kitchen", "two thousand", 3, "Non-stick"),
            ],
        )
    )
    status, report = owner("POST", "/admin/catalog/import", file=(book, XLSX))
    assert status == 422
    assert (report["format"], report["rows"], report["written"], report["invalid"]) == ("xlsx", 2, 0, 1)
    [bad] = report["invalid_rows"]
    assert (bad["row"], bad["sku"]) == (3, "XL-IRON")
    assert "whole number of KES" in bad["errors"][0]["message"]
    assert _names(seeded).keys() == before.keys()
    assert seeded.tenants.get(SHOP).catalog_version == version

    status, report = owner("POST", "/admin/catalog/import?partial=true", file=(book, XLSX))
    assert (status, report["written"], report["invalid"]) == (200, 1, 1)
    kettle = _names(seeded)["XL-KETTLE"]
    assert (kettle.name, kettle.price, kettle.stock) == ("Ramtons electric kettle 1.7L", 2899, 7)
    assert seeded.tenants.get(SHOP).catalog_version > version
    assert [e.action for e in AuditRepo(seeded.db).list(SHOP, limit=1).items] == ["catalog.import"]


def test_a_workbook_sent_without_its_type_is_still_read_as_excel(seeded: Services, owner: Person) -> None:
    book = workbook(("Sheet1", [HEADER, ("XL-FAN", "Desk fan", "Home", 1800, 4, "16 inch")]))
    status, report = owner("POST", "/admin/catalog/import", file=(book, "application/octet-stream"))
    assert (status, report["format"], report["written"]) == (200, "xlsx", 1)
    assert _names(seeded)["XL-FAN"].price == 1800


def test_an_old_xls_or_a_broken_workbook_is_a_clear_error_and_changes_nothing(seeded: Services, owner: Person) -> None:
    before = _names(seeded)
    status, error = owner(
        "POST", "/admin/catalog/import", file=(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64, XLSX)
    )
    assert status == 422, error
    assert error["message"] == (
        "This is an old Excel file (.xls): save it as an Excel Workbook (.xlsx) or as CSV UTF-8."
    )
    status, report = owner("POST", "/admin/catalog/import?partial=true", file=(b"PK\x03\x04broken", XLSX))
    assert (status, report["problems"], report["written"]) == (
        422,
        ["file: not an Excel workbook that can be read (BadZipFile)"],
        0,
    )
    assert _names(seeded).keys() == before.keys()


def test_an_agent_may_not_import(seeded: Services, owner: Person) -> None:
    owner.groups = ["agent"]
    book = workbook(("Sheet1", [HEADER, ("XL-FAN", "Desk fan", "Home", 1800, 4, "16 inch")]))
    assert owner("POST", "/admin/catalog/import", file=(book, XLSX))[0] == 403
    assert "XL-FAN" not in _names(seeded)
