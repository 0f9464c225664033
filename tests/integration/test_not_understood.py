"""*Not understood* (issue 53, part 5): messages the bot did not understand go on the shop's list, the owner says what
they meant in the admin API, and her shop's reading changes at once: after she labels three Sheng ways of asking
where an order is, a fourth is read as one, at her shop only. Labelled messages export as corpus lines. The real graph
(rules engine) and the real admin resolver behind API Gateway event shapes, on moto."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import SALON, SHOP
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.services import Services
from tulia.store.audit import AuditRepo

# Sheng: "has Kibe (the shop's rider) left yet?" in words the global reader does not know (the shop's own rider)
TAUGHT = ("kibe ameanza kuja?", "kibe amepita stage?", "kibe ameshatoka?")
FOURTH = "kibe ameanza safari?"  # has Kibe set off?


@pytest.fixture
def admin(seeded: Services) -> Admin:
    return Admin(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))), SHOP)


def customer(chat: Chat, n: int, tenant_id: str = SHOP) -> Chat:
    return Chat(chat.conversations, tenant_id=tenant_id, phone=f"+2547110009{n:02d}")


def listed(admin: Admin, shown: str = "open") -> dict[str, dict[str, Any]]:
    status, page = admin("GET", f"/admin/understanding/not-understood?shown={shown}")
    assert status == 200
    return {item["text"]: item for item in page["items"]}


def test_three_labels_teach_the_shop_a_fourth_way_of_asking_where_an_order_is(chat: Chat, admin: Admin) -> None:
    before = customer(chat, 1)
    before.send(FOURTH)
    assert "orders" not in before.nodes()  # the global reader does not know these words
    for n, text in enumerate(TAUGHT, 2):
        customer(chat, n).send(text)
    open_list = listed(admin)
    assert set(TAUGHT) | {FOURTH} <= set(open_list)
    assert open_list[FOURTH]["why"] in ("unsure", "not_understood")
    for text in TAUGHT:
        status, labelled = admin(
            "PUT",
            f"/admin/understanding/not-understood/{open_list[text]['misread_id']}/label",
            {"intent": "order_status"},
        )
        assert status == 200
        assert labelled["label"]["intent"] == "order_status"
        assert labelled["label"]["by"] == "owner@shop.example"
    assert set(TAUGHT) <= set(listed(admin, "labelled"))
    assert not set(TAUGHT) & set(listed(admin))  # off the open list

    after = customer(chat, 6)
    after.send(FOURTH)
    assert "orders" in after.nodes()  # read as a question about an order, at once
    assert after.state["intent"] == "order_status"

    salon = customer(chat, 7, SALON)  # another shop's reading is its own
    salon.send(FOURTH)
    assert "orders" not in salon.nodes()


def test_labelled_messages_export_as_corpus_lines_and_a_label_taken_back_unteaches(chat: Chat, admin: Admin) -> None:
    for n, text in enumerate(TAUGHT, 10):
        customer(chat, n).send(text)
    ids = {text: item["misread_id"] for text, item in listed(admin).items()}
    for text in TAUGHT:
        admin("PUT", f"/admin/understanding/not-understood/{ids[text]}/label", {"intent": "order_status"})
    status, export = admin("GET", "/admin/understanding/corpus")
    assert status == 200
    assert export["lines"] == sorted(f"order_status | {listed(admin, 'all')[t]['lang']} | {t}" for t in TAUGHT)
    for text in TAUGHT:
        assert admin("DELETE", f"/admin/understanding/not-understood/{ids[text]}/label")[0] == 200
    assert admin("GET", "/admin/understanding/corpus")[1]["lines"] == []
    again = customer(chat, 14)
    again.send(FOURTH)
    assert "orders" not in again.nodes()


def test_the_same_words_from_many_customers_are_one_row_counted(chat: Chat, admin: Admin) -> None:
    customer(chat, 20).send(TAUGHT[0])
    customer(chat, 21).send("  KIBE ameanza   kuja? ")
    row = listed(admin)[TAUGHT[0]]
    assert row["times"] == 2


def test_understood_messages_are_not_listed(chat: Chat, admin: Admin) -> None:
    shopper = customer(chat, 30)
    shopper.send("I want a power bank")
    shopper.send("where is my order ORD-ABCDE")
    assert listed(admin, "all") == {}


def test_labels_are_refused_when_wrong_and_change_nothing(chat: Chat, admin: Admin) -> None:
    customer(chat, 40).send(TAUGHT[0])
    mid = listed(admin)[TAUGHT[0]]["misread_id"]
    path = f"/admin/understanding/not-understood/{mid}/label"
    assert admin("PUT", path, {"intent": "where_is_it"})[0] == 422
    assert admin("PUT", path, {"intent": "sales_discovery", "item_id": "NO-SUCH-ITEM"})[0] == 422
    assert admin("PUT", path, {"intent": "order_status", "quantity": 2})[0] == 422  # a count goes with a purchase
    assert (
        admin("PUT", "/admin/understanding/not-understood/0000000000000000/label", {"intent": "order_status"})[0] == 404
    )
    assert admin("PUT", path, {"intent": "order_status"}, role="agent")[0] == 403  # agents read the list only
    assert admin("GET", "/admin/understanding/not-understood", role="agent")[0] == 200
    other = Admin(admin.api, SALON)
    assert other("PUT", path, {"intent": "order_status"})[0] == 404  # another shop's message is not found
    assert listed(admin)[TAUGHT[0]]["label"] is None


def test_a_purchase_label_names_the_item_and_the_count(chat: Chat, admin: Admin) -> None:
    wish = "ile kasimu ka mzee"  # "that little phone for an old man": a feature phone
    customer(chat, 50).send(wish)
    mid = listed(admin)[wish]["misread_id"]
    status, labelled = admin(
        "PUT",
        f"/admin/understanding/not-understood/{mid}/label",
        {"intent": "sales_discovery", "item_id": "FP-001", "quantity": 2},
    )
    assert status == 200
    assert labelled["label"]["item_name"] == "Nokia 105 (2023)"
    assert labelled["label"]["quantity"] == 2
    assert admin("GET", "/admin/understanding/corpus")[1]["lines"] == [f"sales_discovery | {labelled['lang']} | {wish}"]
    again = customer(chat, 51)
    again.send("Ile kasimu ka  mzee")  # her own words, as another customer types them: the item she named
    assert [(line.item_id, line.quantity) for line in again.state["frame"].lines] == [("FP-001", 2)]


def test_a_short_answer_sent_twice_is_no_misreading(chat: Chat, admin: Admin) -> None:
    shopper = customer(chat, 60)
    shopper.send("I want a power bank")
    shopper.send("2")
    shopper.send("2")
    assert "2" not in listed(admin, "all")
