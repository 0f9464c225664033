"""Repositories against moto: keys, tenant routes, aliases, append-only consent, state machines."""

from __future__ import annotations

import pytest

from tests.conftest import SALON, SHOP, Caller, Clock, new_customer
from tulia.domain.order import ORDER_TRANSITIONS
from tulia.domain.payment import Payment
from tulia.domain.times import sortable
from tulia.errors import InvalidInput, NotFound, StateConflict
from tulia.services import Services
from tulia.store import keys
from tulia.store.dynamo import decode_cursor
from tulia.store.tables import ALL_TABLES, CHECKPOINTS, CUSTOMERS


def test_every_table_is_created_from_its_single_definition(dynamodb) -> None:
    for table in ALL_TABLES:
        desc = dynamodb.describe_table(TableName=f"test-{table.logical_name}")["Table"]
        assert [k["AttributeName"] for k in desc["KeySchema"]] == [table.pk, table.sk]
        assert {
            a["AttributeType"] for a in desc["AttributeDefinitions"] if a["AttributeName"] in (table.pk, table.sk)
        } == {"S"}


def test_our_tables_use_lowercase_keys_and_checkpoints_use_the_savers_own() -> None:
    assert all((t.pk, t.sk) == ("pk", "sk") for t in ALL_TABLES if t is not CHECKPOINTS)
    assert (CHECKPOINTS.pk, CHECKPOINTS.sk) == ("PK", "SK")  # langgraph-checkpoint-aws DynamoDBSaver's schema


def test_tenant_owned_keys_start_with_the_tenant_id() -> None:
    assert keys.customer_pk("shop-a", "cus_1").startswith("shop-a#")
    assert keys.order_pk("shop-a", "ORD-AAAAA").startswith("shop-a#")
    assert keys.catalog_pk("shop-a").startswith("shop-a#")
    with pytest.raises(InvalidInput):
        keys.order_pk("shop-a#x", "ORD-1")


def test_phone_number_id_resolves_to_its_tenant(seeded: Services) -> None:
    assert seeded.tenants.tenant_for_phone_number_id("106540352242922") == SHOP
    assert seeded.tenants.tenant_for_phone_number_id("209876543210987") == SALON
    assert seeded.tenants.tenant_for_phone_number_id("999") is None


def test_a_phone_number_id_cannot_be_claimed_by_a_second_tenant(seeded: Services) -> None:
    salon = seeded.tenants.get(SALON)
    thief = salon.model_copy(
        update={"whatsapp": salon.whatsapp.model_copy(update={"phone_number_id": "106540352242922"})}
    )
    with pytest.raises(InvalidInput) as err:
        seeded.tenants.save(thief, previous_phone_number_id="209876543210987")
    assert err.value.field == "whatsapp.phone_number_id"
    assert seeded.tenants.tenant_for_phone_number_id("106540352242922") == SHOP
    assert seeded.tenants.tenant_for_phone_number_id("209876543210987") == SALON


def test_same_phone_at_two_tenants_is_two_customers(shop: Caller, salon: Caller) -> None:
    a = shop.ok("customer_get_or_create", phone_e164="0712345678")
    b = salon.ok("customer_get_or_create", phone_e164="+254712345678")
    assert a["customer_id"] != b["customer_id"]
    assert (a["created"], b["created"]) == (True, True)


def test_a_customer_seen_later_with_a_whatsapp_user_id_stays_one_customer(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    customer = seeded.customers.get(SHOP, cid)
    seeded.customers.add_alias(customer, wa_user_id="KE.1502576394655843", now=seeded.clock())
    assert seeded.customers.find_id_by_wa_user(SHOP, "KE.1502576394655843") == cid
    assert seeded.customers.get(SHOP, cid).wa_user_id == "KE.1502576394655843"


def test_consent_events_are_insert_only(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"marketing_opt_in": True},
        consent_source="user_message",
    )
    events = seeded.customers.consent_events(SHOP, cid)
    assert {e.field for e in events} == {"marketing_opt_in", "offers_whatsapp"}  # opting in turns offers on
    event = events[0]
    item = seeded.db.get(
        CUSTOMERS, keys.customer_pk(SHOP, cid), keys.consent_event_sk(sortable(event.at), event.event_id)
    )
    assert item is not None
    with pytest.raises(StateConflict):  # the same event can never be rewritten
        seeded.customers.save_preferences(seeded.customers.get(SHOP, cid), seeded.customers.get(SHOP, cid), [event])
    assert len(seeded.customers.consent_events(SHOP, cid)) == 2


def _order(shop: Caller, cid: str) -> dict:
    return shop.ok(
        "order_create", customer_id=cid, items=[{"item_id": "CB-001", "quantity": 1}], delivery={"mode": "pickup"}
    )


@pytest.mark.parametrize(
    ("start", "target", "allowed"),
    [(s, t, t in nexts) for s, nexts in ORDER_TRANSITIONS.items() for t in ORDER_TRANSITIONS],
)
def test_order_state_machine_edges(shop: Caller, seeded: Services, start: str, target: str, allowed: bool) -> None:
    cid = new_customer(shop)
    order_id = _order(shop, cid)["order_id"]
    path = {
        "draft": [],
        "pending_payment": ["pending_payment"],
        "payment_failed": ["pending_payment", "payment_failed"],
        "paid": ["pending_payment", "paid"],
        "fulfilled": ["pending_payment", "paid", "fulfilled"],
        "cancelled": ["cancelled"],
    }[start]
    for step in path:
        seeded.orders.transition(SHOP, order_id, to=step, now=seeded.clock())
    if allowed:
        assert seeded.orders.transition(SHOP, order_id, to=target, now=seeded.clock()).status == target
    else:
        with pytest.raises(StateConflict):
            seeded.orders.transition(SHOP, order_id, to=target, now=seeded.clock())
        assert seeded.orders.get(SHOP, order_id).status == start


def _stk(shop: Caller, cid: str) -> tuple[str, Payment]:
    order = _order(shop, cid)
    stk = shop.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    return order["order_id"], shop.services.payments.get(SHOP, order["order_id"], stk["payment_request_id"])


def test_paid_callback_marks_payment_and_order_paid_and_counts_the_customer(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    _order_id, payment = _stk(shop, cid)
    settled, order = seeded.payments.settle(payment, to="paid", now=seeded.clock(), receipt="RLA0R69NXM")
    assert (settled.status, settled.receipt) == ("paid", "RLA0R69NXM")
    assert (order.status, order.payment_status, order.amount_due) == ("paid", "paid", 0)
    assert seeded.customers.get(SHOP, cid).orders_paid_count == 1


def test_duplicate_paid_callback_changes_nothing(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    order_id, payment = _stk(shop, cid)
    seeded.payments.settle(payment, to="paid", now=seeded.clock(), receipt="RLA0R69NXM")
    with pytest.raises(StateConflict):
        seeded.payments.settle(payment, to="paid", now=seeded.clock(), receipt="RLA0R69NXM")
    order, _payments = seeded.orders.get_with_payments(SHOP, order_id)
    assert order.paid_amount == order.totals.total  # not counted twice
    assert seeded.customers.get(SHOP, cid).orders_paid_count == 1


def test_late_failure_after_success_never_moves_a_paid_order_back(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    order_id, payment = _stk(shop, cid)
    seeded.payments.settle(payment, to="paid", now=seeded.clock(), receipt="R1")
    for late in ("failed", "cancelled", "timeout"):
        with pytest.raises(StateConflict):
            seeded.payments.settle(payment, to=late, now=seeded.clock())
    assert seeded.orders.get(SHOP, order_id).status == "paid"
    assert seeded.payments.get(SHOP, order_id, payment.payment_id).status == "paid"


def test_cancelled_prompt_fails_the_order_and_allows_a_new_attempt(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    order_id, payment = _stk(shop, cid)
    settled, order = seeded.payments.settle(payment, to="cancelled", now=seeded.clock(), result_code="1032")
    assert (settled.status, order.status, order.payment_status) == ("cancelled", "payment_failed", "cancelled")
    retry = shop.ok("payment_initiate_stk_push", order_id=order_id, phone_e164="0712345678", amount=order.amount_due)
    assert retry["status"] == "pending"


def test_payment_confirmed_after_timeout_is_recorded_as_paid(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    _order_id, payment = _stk(shop, cid)
    timed_out, order = seeded.payments.settle(payment, to="timeout", now=seeded.clock())
    assert order.status == "payment_failed"
    paid, order = seeded.payments.settle(timed_out, to="paid", now=seeded.clock(), receipt="LATE1", needs_review=True)
    assert (paid.status, paid.needs_review, order.status) == ("paid", True, "paid")


def test_payment_found_by_provider_reference_and_callback_token(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    _order_id, payment = _stk(shop, cid)
    assert seeded.payments.find_by_ref(SHOP, "stk", payment.checkout_request_id).payment_id == payment.payment_id
    assert seeded.payments.find_by_callback_token(payment.callback_token).payment_id == payment.payment_id
    assert seeded.payments.find_by_ref(SALON, "stk", payment.checkout_request_id) is None
    assert seeded.payments.find_by_callback_token("0" * 32) is None


def test_order_listing_pages_with_a_cursor_that_cannot_cross_tenants(
    shop: Caller, seeded: Services, clock: Clock
) -> None:
    cid = new_customer(shop)
    refs = []
    for _ in range(5):
        clock.advance(minutes=1)
        refs.append(_order(shop, cid)["order_ref"])
    page1 = seeded.orders.list_for_customer(SHOP, cid, limit=2)
    page2 = seeded.orders.list_for_customer(SHOP, cid, limit=2, cursor=page1.cursor)
    assert [o.order_id for o in page1.items + page2.items] == refs[::-1][:4]
    with pytest.raises(InvalidInput):
        seeded.orders.list_for_customer(SALON, cid, limit=2, cursor=page1.cursor)
    with pytest.raises(InvalidInput):
        decode_cursor("not-a-cursor", expected_pk="x")


def test_kb_reindex_replaces_chunks_and_delete_removes_them(seeded: Services) -> None:
    before = [c for c in seeded.kb.current_chunks(SHOP) if c.doc_id == "faq-delivery"]
    doc = next(d for d in seeded.kb.documents(SHOP) if d.doc_id == "faq-delivery")
    new_doc = doc.model_copy(update={"version": doc.version + 1, "chunk_count": 1})
    chunk = before[0].model_copy(update={"version": doc.version + 1, "position": 0, "text": "Delivery is free today."})
    seeded.kb.save_document(new_doc, [chunk])
    now = [c for c in seeded.kb.current_chunks(SHOP) if c.doc_id == "faq-delivery"]
    assert [c.text for c in now] == ["Delivery is free today."]
    seeded.kb.delete_document(SHOP, "faq-delivery")
    assert not [c for c in seeded.kb.current_chunks(SHOP) if c.doc_id == "faq-delivery"]
    assert not seeded.db.query(CUSTOMERS, "x").items


def test_unknown_ids_are_not_found(seeded: Services) -> None:
    with pytest.raises(NotFound):
        seeded.tenants.get("no-such-shop")
    with pytest.raises(NotFound):
        seeded.orders.get(SHOP, "ORD-ZZZZZ")
    with pytest.raises(NotFound):
        seeded.customers.get(SHOP, "cus_missing")


def test_stale_stk_claim_can_be_taken_over(shop: Caller, seeded: Services, clock: Clock) -> None:
    cid = new_customer(shop)
    order = _order(shop, cid)
    shop.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    assert (
        shop.err(
            "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
        )["code"]
        == "payment_in_progress"
    )
    clock.advance(seconds=181)
    assert (
        shop.ok(
            "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
        )["status"]
        == "pending"
    )
