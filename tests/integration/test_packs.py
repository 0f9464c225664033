"""Tenant packs: the demo packs load whole; a broken pack names file, row or field, and writes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import PACKS, SHOP, Caller
from tulia.packs.loader import Pack, PackInvalid, load_pack
from tulia.packs.seed import seed_pack
from tulia.services import Services
from tulia.store import keys
from tulia.store.tables import OFFERS


def test_demo_shop_is_a_realistic_nairobi_electronics_shop(demo_packs: dict[str, Pack]) -> None:
    pack = demo_packs[SHOP]
    assert len(pack.catalog) >= 300
    assert len({i.category for i in pack.catalog}) >= 10
    assert any(i.stock == 0 for i in pack.catalog)
    assert any(d.name == "storage" and any(o.price_delta for o in d.options) for i in pack.catalog for d in i.variants)
    assert any(d.name == "colour" for i in pack.catalog for d in i.variants)
    offers = {o.offer_id: o for o in pack.offers}
    assert len(offers) >= 3
    assert offers["BLACKFRIDAY25"].valid_to.year == 2025  # an expired one
    assert offers["VIP500"].requires_opt_in
    assert {d.filename.rsplit(".", 1)[1] for d in pack.documents} >= {"pdf", "docx", "md"}
    assert pack.tenant.payments.mpesa_stk.shortcode == "174379"
    assert pack.tenant.payments.enabled_methods() == ["mpesa_stk", "mpesa_c2b", "pesapal"]


def test_demo_salon_sells_services(demo_packs: dict[str, Pack]) -> None:
    pack = demo_packs["demo-salon"]
    assert sum(i.type == "service" for i in pack.catalog) >= 10
    assert pack.tenant.languages.default == "sw"
    assert pack.tenant.payments.mpesa_c2b.till == "5123456"


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "shop"
    shutil.copytree(PACKS / SHOP, dest)
    return dest


def issues_of(pack_dir: Path) -> list[str]:
    with pytest.raises(PackInvalid) as err:
        load_pack(pack_dir)
    return [str(i) for i in err.value.issues]


def test_missing_tenant_field_is_named(pack_copy: Path) -> None:
    text = (pack_copy / "tenant.yaml").read_text().replace('  phone_number_id: "106540352242922"\n', "")
    (pack_copy / "tenant.yaml").write_text(text)
    assert any(
        "tenant.yaml" in i and "whatsapp.phone_number_id" in i and "required" in i.lower() for i in issues_of(pack_copy)
    )


def test_a_vocabulary_that_claims_shared_words_or_gives_a_word_twice_is_refused(pack_copy: Path) -> None:
    (pack_copy / "vocabulary.yaml").write_text("phone: [simu, delivery]\ntv: [simu]\nBad Term: [x]\n")
    [problem] = [i for i in issues_of(pack_copy) if i.startswith("vocabulary.yaml")]
    assert "'delivery' is a word every shop shares" in problem
    assert "'simu' is given to two terms: 'phone' and 'tv'" in problem
    assert "term 'Bad Term'" in problem
    (pack_copy / "vocabulary.yaml").write_text("- simu\n")
    assert "vocabulary.yaml: must map each term to a list of words" in issues_of(pack_copy)


def test_a_pack_vocabulary_folds_the_trades_words_in_search(pack_copy: Path, services: Services) -> None:
    (pack_copy / "vocabulary.yaml").write_text("powerbank: [banki ya stima, juice box]\n")
    seed_pack(services, load_pack(pack_copy))
    tenant = services.tenants.get(SHOP)
    index = services.catalog_indexes.get(SHOP, tenant.catalog_version)
    assert tenant.vocabulary.root == {"powerbank": ["banki ya stima", "juice box"]}
    hits = index.search("juice box 20000mah", limit=3).hits
    assert [h.item_id for h in hits]
    assert all(h.item_id.startswith("PB-") for h in hits)


def test_bad_price_names_the_row(pack_copy: Path) -> None:
    lines = (pack_copy / "catalog.csv").read_text().splitlines()
    lines[3] = lines[3].replace(",Smartphones,31000,", ",Smartphones,thirty thousand,")
    (pack_copy / "catalog.csv").write_text("\n".join(lines) + "\n")
    assert any(i.startswith("catalog.csv, row 4") and "price" in i for i in issues_of(pack_copy))


def test_decimal_shillings_are_refused_but_thousands_separators_are_fine(pack_copy: Path) -> None:
    lines = (pack_copy / "catalog.csv").read_text().splitlines()
    lines[1] = lines[1].replace(",13500,", ',"13,500",')
    lines[2] = lines[2].replace(",21500,", ",21500.50,")
    (pack_copy / "catalog.csv").write_text("\n".join(lines) + "\n")
    issues = issues_of(pack_copy)
    assert any("row 3" in i and "whole number" in i for i in issues)
    assert not any("row 2" in i for i in issues)


def test_duplicate_item_id_names_both_rows(pack_copy: Path) -> None:
    lines = (pack_copy / "catalog.csv").read_text().splitlines()
    lines.append(lines[1])
    (pack_copy / "catalog.csv").write_text("\n".join(lines) + "\n")
    assert any("duplicate sku 'PH-SAM-001'" in i and "row 2" in i for i in issues_of(pack_copy))


def test_unknown_category_in_an_offer(pack_copy: Path) -> None:
    text = (pack_copy / "offers.yaml").read_text().replace("[Smartwatches & Wearables]", "[Drones]")
    (pack_copy / "offers.yaml").write_text(text)
    assert any("offers.yaml" in i and "Drones" in i and "categor" in i for i in issues_of(pack_copy))


def test_unreadable_pdf(pack_copy: Path) -> None:
    (pack_copy / "kb" / "policy" / "returns-policy.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf at all")
    assert any(i.startswith("kb/policy/returns-policy.pdf") and "unreadable PDF" in i for i in issues_of(pack_copy))


def test_missing_catalog_column_and_missing_files(pack_copy: Path, tmp_path: Path) -> None:
    lines = (pack_copy / "catalog.csv").read_text().splitlines()
    lines[0] = lines[0].replace("stock,", "qty,")
    (pack_copy / "catalog.csv").write_text("\n".join(lines) + "\n")
    assert any("missing column(s): stock" in i for i in issues_of(pack_copy))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert {i.split(":")[0] for i in issues_of(empty)} == {"tenant.yaml", "catalog.csv"}


def test_several_problems_are_reported_together(pack_copy: Path) -> None:
    (pack_copy / "kb" / "notes.xlsx").write_bytes(b"x")
    text = (pack_copy / "tenant.yaml").read_text().replace("default: en", "default: fr")
    (pack_copy / "tenant.yaml").write_text(text)
    issues = issues_of(pack_copy)
    assert any("kb/notes.xlsx" in i for i in issues)
    assert any("languages.default" in i for i in issues)


def test_shop_texts_per_language_and_handoff_hours_are_checked_at_load(pack_copy: Path) -> None:
    text = (pack_copy / "tenant.yaml").read_text()
    text = text.replace("eta: {en: next day, sw: kesho yake}", "eta: {en: next day, fr: le lendemain}", 1)
    text = text.replace("hours: Mon-Sat 08:00-19:00", "hours: Mon-Sat 19:00-08:00")
    (pack_copy / "tenant.yaml").write_text(text)
    assert issues_of(pack_copy) == [
        "tenant.yaml, field delivery_zones.2.eta: Value error, languages are en, sw or sheng (not fr)",
        "tenant.yaml, field handoff.hours: Value error, hours 'Mon-Sat 19:00-08:00': closing time must be "
        "after opening time (same day)",
    ]


def test_an_invalid_pack_writes_nothing(services: Services, pack_copy: Path) -> None:
    (pack_copy / "kb" / "policy" / "returns-policy.pdf").write_bytes(b"garbage")
    with pytest.raises(PackInvalid):
        seed_pack(services, load_pack(pack_copy))
    assert services.tenants.find(SHOP) is None
    assert list(services.catalog.iter_all(SHOP)) == []


def test_reseeding_replaces_the_catalog_and_keeps_offer_redemptions(
    seeded: Services, pack_copy: Path, shop: Caller
) -> None:
    lines = (pack_copy / "catalog.csv").read_text().splitlines()
    kept = [lines[0], *(line for line in lines[1:] if line.startswith("PH-"))]
    (pack_copy / "catalog.csv").write_text("\n".join(kept) + "\n")
    offers = yaml.safe_load((pack_copy / "offers.yaml").read_text())
    (pack_copy / "offers.yaml").write_text(yaml.safe_dump([o for o in offers if not o.get("categories")]))
    seeded.db.update(
        OFFERS, keys.offers_pk(SHOP), keys.offer_sk("VIP500"), update="SET redemptions = :n", values={":n": 7}
    )
    summary = seed_pack(seeded, load_pack(pack_copy))
    assert summary.items == len(kept) - 1
    assert {i.category for i in seeded.catalog.iter_all(SHOP)} == {"Smartphones"}
    assert shop.err("catalog_get_item", item_id="CB-001")["code"] == "not_found"
    assert shop.ok("catalog_search", query="oraimo charger", limit=5)["results"] == []
    assert next(o for o in seeded.offers.all_for(SHOP) if o.offer_id == "VIP500").redemptions == 7
    assert {o.offer_id for o in seeded.offers.all_for(SHOP)} == {"WELCOME10", "VIP500"}
