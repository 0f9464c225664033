"""An owner gives an item its picture (issue 35, part 6) through the admin function: the file is checked by its own
bytes (JPEG, PNG or WebP, up to WhatsApp's 5 MB), kept under the shop's prefix of the pictures bucket at a new
address each time, and the item's image_url becomes that address; a picture replaced or removed is deleted; an
address typed in is kept and never deleted. Anything else is a clear 422 and changes nothing."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from tests.conftest import BOTO, SALON, SHOP
from tests.integration.test_signup import Person
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.media import PictureStore

BUCKET = "test-pictures"
BASE = "https://d111.cloudfront.example"


def jpeg(colour: tuple[int, int, int] = (240, 200, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def pictures(seeded: Services) -> Iterator[PictureStore]:
    s3 = BOTO.client("s3")
    s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    store = PictureStore(BUCKET, BASE, lambda: s3)
    seeded.pictures = store
    yield store
    seeded.pictures = None


@pytest.fixture
def owner(seeded: Services, pictures: PictureStore) -> Person:
    person = Person(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))), "sub-o", "o@shop.example")
    person.tenant_id, person.groups = SHOP, ["owner"]
    return person


def keys() -> list[str]:
    return sorted(o["Key"] for o in BOTO.client("s3").list_objects_v2(Bucket=BUCKET).get("Contents", []))


def test_an_uploaded_picture_becomes_the_items_address_and_a_new_one_replaces_it(
    seeded: Services, owner: Person, pictures: PictureStore
) -> None:
    version = seeded.tenants.get(SHOP).catalog_version
    first = jpeg()
    status, item = owner("POST", "/admin/catalog/items/PB-002/picture", file=(first, "image/jpeg"))
    assert status == 200, item
    assert item["image_url"].startswith(f"{BASE}/pictures/{SHOP}/PB-002-")
    assert seeded.catalog.get(SHOP, "PB-002").image_url == item["image_url"]
    [key] = keys()
    assert pictures.get(key) == (first, "image/jpeg")  # what WhatsApp fetches from that address
    assert seeded.tenants.get(SHOP).catalog_version > version
    png = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png, "PNG")
    status, again = owner("POST", "/admin/catalog/items/PB-002/picture", file=(png.getvalue(), "image/png"))
    assert status == 200
    assert again["image_url"] != item["image_url"]  # a new address: nothing cached shows the old picture
    assert again["image_url"].endswith(".png")
    assert keys() == [again["image_url"].removeprefix(f"{BASE}/")]  # the old file is gone
    status, removed = owner("DELETE", "/admin/catalog/items/PB-002/picture")
    assert (status, removed["image_url"]) == (200, None)
    assert keys() == []
    actions = [e.action for e in AuditRepo(seeded.db).list(SHOP, limit=3).items]
    assert actions == ["catalog.item.picture_removed", "catalog.item.picture", "catalog.item.picture"]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"%PDF-1.7 price list", "Send the picture itself: a JPEG, PNG or WebP file."),
        (b"GIF89a" + b"\0" * 40, "Send the picture itself: a JPEG, PNG or WebP file."),
        (b"", "Send the picture itself: a JPEG, PNG or WebP file."),
        (b"\xff\xd8\xff" + b"\0" * (5 * 1024 * 1024), "The picture is larger than 5 MB"),
    ],
)
def test_what_is_not_a_picture_or_too_large_is_refused_and_changes_nothing(
    seeded: Services, owner: Person, data: bytes, says: str
) -> None:
    before = seeded.catalog.get(SHOP, "PB-002")
    status, error = owner("POST", "/admin/catalog/items/PB-002/picture", file=(data, "image/jpeg"))
    assert status == 422
    assert error["message"].startswith(says)
    assert seeded.catalog.get(SHOP, "PB-002") == before
    assert keys() == []


def test_an_address_typed_in_is_kept_and_never_deleted_and_another_shops_item_is_not_found(
    seeded: Services, owner: Person
) -> None:
    status, item = owner("PATCH", "/admin/catalog/items/PB-002", {"image_url": "https://cdn.shop.example/pb.jpg"})
    assert (status, item["image_url"]) == (200, "https://cdn.shop.example/pb.jpg")
    status, error = owner("PATCH", "/admin/catalog/items/PB-002", {"image_url": "javascript:alert(1)"})
    assert status == 422, error
    status, removed = owner("DELETE", "/admin/catalog/items/PB-002/picture")
    assert (status, removed["image_url"]) == (200, None)
    salon_item = next(iter(seeded.catalog.iter_all(SALON))).item_id
    status, _ = owner("POST", f"/admin/catalog/items/{salon_item}/picture", file=(jpeg(), "image/jpeg"))
    assert status == 404  # her token names her shop: another shop's item is not hers to picture
    assert keys() == []
