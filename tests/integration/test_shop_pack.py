"""One format for a shop (issue 34, part 7): every demo shop, seeded from its pack, exports as a pack that the
same loader reads back to the same shop (secrets never in it), and a pack imported into a shop made in the
console makes it that shop while its own id, number, status and payments stay. Through the real admin function,
the loader `tulia seed` uses, and moto."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GROCER, HARDWARE, SALON, SHOP
from tests.conftest import Caller as ToolCaller
from tests.integration.test_signup import NEW_SHOP, Person
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.packs.loader import Pack, load_pack
from tulia.packs.transfer import export_pack, load_pack_files, zip_pack
from tulia.services import Services
from tulia.store.audit import AuditRepo

ZIP = "application/zip"


def unzipped(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def same_shop(exported: Pack, original: Pack) -> None:
    """What a pack defines is the same (the running shop's own fields are not a pack's)."""
    assert [i.model_dump() for i in exported.catalog] == [
        i.model_dump() for i in sorted(original.catalog, key=lambda i: i.item_id)
    ]
    assert [o.model_dump() for o in exported.offers] == [
        o.model_dump() for o in sorted(original.offers, key=lambda o: o.offer_id)
    ]
    assert exported.tenant.vocabulary == original.tenant.vocabulary
    left = exported.tenant.model_dump(exclude={"payments", "whatsapp"})
    right = original.tenant.model_dump(exclude={"payments", "whatsapp"})
    assert left == right
    assert exported.tenant.payments.mpesa_c2b == original.tenant.payments.mpesa_c2b
    assert {d.doc_id: d.source_type for d in exported.documents} == {
        d.doc_id: d.source_type for d in original.documents
    }


@pytest.mark.parametrize("shop", [SHOP, SALON, GROCER, HARDWARE])
def test_every_demo_shop_exports_as_a_pack_the_loader_reads_back_to_the_same_shop(
    shop: str, seeded: Services, demo_packs: dict[str, Pack]
) -> None:
    files = export_pack(seeded, shop)
    same_shop(load_pack_files(files), demo_packs[shop])
    # the documents hold what Tulia read: every section of the original is in the export
    original = {d.doc_id: d for d in demo_packs[shop].documents}
    exported = {d.doc_id: d for d in load_pack_files(files).documents}
    for doc_id, doc in original.items():
        assert exported[doc_id].extracted.title == doc.extracted.title
        headings = [s.heading for s in doc.extracted.sections if s.heading and s.text.strip()]
        assert [h for h in headings if h in {s.heading for s in exported[doc_id].extracted.sections}] == headings


def test_no_secret_of_the_shop_is_in_its_pack(seeded: Services) -> None:
    tenant = seeded.tenants.get(SHOP)
    assert tenant.whatsapp is not None
    assert tenant.payments.mpesa_stk is not None
    secrets = [tenant.payments.mpesa_stk.passkey, tenant.whatsapp.phone_number_id, "access_token", "passkey"]
    tenant = tenant.model_copy(
        update={"whatsapp": tenant.whatsapp.model_copy(update={"access_token": "EAAG-secret-token-123"})}
    )
    seeded.tenants.save(tenant)
    everything = b"".join(unzipped(zip_pack(export_pack(seeded, SHOP), SHOP)).values())
    for secret in [*secrets, "EAAG-secret-token-123", "consumer_secret"]:
        assert secret.encode() not in everything, secret


@pytest.fixture
def api(seeded: Services) -> Any:
    return build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db)))


@pytest.fixture
def njeri(api: Any, seeded: Services) -> Person:
    """A new owner with a shop made in the console (in setup, with its starter items and FAQ)."""
    person = Person(api, "sub-njeri", "njeri@example.co.ke")
    assert person("POST", "/admin/signup/shop", {**NEW_SHOP, "trade": "electronics"})[0] == 200
    person.signs_in_again(seeded)
    return person


def test_a_pack_downloaded_from_the_console_starts_a_new_shop_as_the_same_shop(
    seeded: Services, api: Any, njeri: Person, tmp_path: Path, demo_packs: dict[str, Pack]
) -> None:
    owner = Person(api, "sub-owner", "owner@duka.example", tenant_id=SHOP)
    owner.groups = ["owner"]
    status, data = owner("GET", "/admin/shop/pack")
    assert status == 200
    files = unzipped(data)
    assert {"demo-shop/tenant.yaml", "demo-shop/catalog.csv", "demo-shop/offers.yaml"} <= set(files)
    # unzipped, it is a folder `tulia seed` reads
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path)
    same_shop(load_pack(tmp_path / "demo-shop"), demo_packs[SHOP])

    before = seeded.tenants.get("mama-njeri-beauty")
    status, read = njeri("POST", "/admin/shop/pack", file=(data, ZIP))
    assert status == 200, read
    assert read == {"items": len(demo_packs[SHOP].catalog), "categories": read["categories"], "offers": 4,
                    "documents": len(demo_packs[SHOP].documents)}  # fmt: skip
    after = seeded.tenants.get("mama-njeri-beauty")
    # hers: id, number (none yet), status, payments and their proofs; the pack's: the rest
    assert (after.tenant_id, after.whatsapp, after.status, after.payments, after.payments_tested) == (
        before.tenant_id, None, "setup", before.payments, before.payments_tested
    )  # fmt: skip
    assert (after.name, after.persona, after.delivery_zones) == (
        "Duka Bora Electronics", demo_packs[SHOP].tenant.persona, demo_packs[SHOP].tenant.delivery_zones
    )  # fmt: skip
    items = {i.item_id for i in seeded.catalog.iter_all("mama-njeri-beauty")}
    assert items == {i.item_id for i in demo_packs[SHOP].catalog}  # her example items were replaced
    assert {i.item_id for i in seeded.catalog.iter_all(SHOP)} == items  # the demo shop is untouched
    [found, *_] = ToolCaller(seeded, "mama-njeri-beauty").ok("catalog_search", query="samsung a15", limit=3)["results"]
    assert (found["name"], found["price"]) == ("Samsung Galaxy A15", 21500)

    # exported again, the new shop is the same pack (its settings of a running shop aside)
    again = export_pack(seeded, "mama-njeri-beauty")
    first = {k.removeprefix("demo-shop/"): v for k, v in files.items()}
    for name in set(first) - {"tenant.yaml"}:
        assert again[name] == first[name], name
    assert [e.action for e in AuditRepo(seeded.db).list("mama-njeri-beauty", limit=1).items] == ["shop.pack_imported"]


def test_a_pack_with_problems_changes_nothing_and_says_every_one(seeded: Services, njeri: Person) -> None:
    files = export_pack(seeded, GROCER)
    files["catalog.csv"] += b"BAD-1,Broken row,Flour,lots,1,desc,product,,,,yes,,,,,shop,\n"
    files["offers.yaml"] = (
        files.get("offers.yaml", b"") + b"- title: Nothing off\n  kind: percent\n  value: 0\n  valid_from: 2026-01-01\n"
    )
    before = {i.item_id for i in seeded.catalog.iter_all("mama-njeri-beauty")}
    status, refused = njeri("POST", "/admin/shop/pack", file=(zip_pack(files, "grocer"), ZIP))
    assert status == 422
    assert refused["code"] == "pack_invalid"
    where = {(p["file"], p["location"]) for p in refused["problems"]}
    assert any(file == "catalog.csv" and location and location.startswith("row ") for file, location in where)
    assert any(file == "offers.yaml" for file, _ in where)
    assert {i.item_id for i in seeded.catalog.iter_all("mama-njeri-beauty")} == before
    assert seeded.tenants.get("mama-njeri-beauty").name == "Mama Njeri Beauty"


def test_a_zip_that_is_no_safe_pack_is_refused(seeded: Services, njeri: Person) -> None:
    escaping = io.BytesIO()
    with zipfile.ZipFile(escaping, "w") as archive:
        archive.writestr("../../etc/tenant.yaml", "tenant_id: x\nname: x\n")
    status, error = njeri("POST", "/admin/shop/pack", file=(escaping.getvalue(), ZIP))
    assert (status, error["message"]) == (422, "The pack's path '../../etc/tenant.yaml' leaves the pack.")
    status, error = njeri("POST", "/admin/shop/pack", file=(b"not a zip at all", ZIP))
    assert (status, error["message"]) == (422, "The file is not a zip of a pack.")
    status, refused = njeri("POST", "/admin/shop/pack", file=(zip_pack({"notes.txt": b"hello"}, "x"), ZIP))
    assert status == 422
    assert {(p["file"], p["message"]) for p in refused["problems"]} >= {
        ("tenant.yaml", "missing (every pack needs one)"),
        ("catalog.csv", "missing (every pack needs a catalog)"),
    }


def test_a_live_shop_is_not_replaced_and_an_agent_may_not_export(seeded: Services, api: Any) -> None:
    owner = Person(api, "sub-owner", "owner@duka.example", tenant_id=SHOP)
    owner.groups = ["owner"]
    data = zip_pack(export_pack(seeded, GROCER), "grocer")
    status, error = owner("POST", "/admin/shop/pack", file=(data, ZIP))
    assert (status, error["code"]) == (409, "shop_live")
    assert seeded.tenants.get(SHOP).name == "Duka Bora Electronics"
    agent = Person(api, "sub-agent", "agent@duka.example", tenant_id=SHOP)
    agent.groups = ["agent"]
    assert agent("GET", "/admin/shop/pack")[0] == 403


def test_a_packs_payments_and_registrations_never_become_the_new_shops(seeded: Services, njeri: Person) -> None:
    """A Till told to customers must be one whose payments reach this shop: a pack naming another shop's Till, even
    one marked registered, changes neither her payment settings nor what she tells customers to pay."""
    files = export_pack(seeded, SALON)  # the salon takes a Till
    assert b"c2b_urls_for" not in files["tenant.yaml"]
    assert b"till:" in files["tenant.yaml"]
    files["tenant.yaml"] += (
        b"c2b_urls_for: '5123456'\nstatus: live\npayments_tested: {mpesa_stk: 2026-01-01T00:00:00Z}\n"
    )
    before = seeded.tenants.get("mama-njeri-beauty")
    status, read = njeri("POST", "/admin/shop/pack", file=(zip_pack(files, "salon"), ZIP))
    assert status == 200, read
    after = seeded.tenants.get("mama-njeri-beauty")
    assert (after.payments, after.c2b_urls_for, after.c2b_offered(), after.status, after.payments_tested) == (
        before.payments, before.c2b_urls_for, None, "setup", before.payments_tested
    )  # fmt: skip
    assert after.name == "Glow Studio Kilimani"


def test_a_zip_with_a_member_that_cannot_be_unpacked_is_a_clear_error(njeri: Person) -> None:
    good = zip_pack({"tenant.yaml": b"tenant_id: x\nname: X\n", "catalog.csv": b"sku\n"}, "x")
    broken = bytearray(good)
    at = broken.index(b"catalog.csv") + len(b"catalog.csv")  # the first member's compressed bytes follow its name
    broken[at : at + 6] = b"\xff" * 6
    status, error = njeri("POST", "/admin/shop/pack", file=(bytes(broken), ZIP))
    assert status == 422
    assert error["message"] == "A file in the zip cannot be read."
