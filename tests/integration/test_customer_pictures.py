"""Photos customers send (issue 35, parts 1, 3 and 4), through the signed webhook and the agent, the Graph simulator
serving the files, moto's S3 keeping them:

- a screenshot of the M-Pesa message (drawn here with Pillow, read by Tesseract) pays the matching order once, and
  the same screenshot again pays nothing more; one showing another business's number is told so;
- a photo with a caption searches the catalog by it; with the model engine the model's description of the photo is
  the search; a photo with neither is asked about;
- a file too large or of the wrong type is refused politely and nothing is kept;
- what is kept is under the shop's prefix, encrypted, in the customer's export, and gone with their erasure.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw

from tests.chat import Chat, conversations_for
from tests.conftest import BOTO, SHOP, Clock, scripted_llm_engine
from tests.integration.test_agent import Pipeline
from tests.integration.test_money_ledger import accounted
from tests.integration.test_webhook import SECRET, TOKEN, api_event, text_message, value
from tests.screenshots import Receipt, draw
from tulia.admin.customer_data import erase_customer, export_customer
from tulia.channel.graph_api import WhatsAppSender
from tulia.channel.media import MediaClient
from tulia.channel.reading import TesseractReader
from tulia.channel.whatsapp import conversation_id_for
from tulia.llm.scripted import ScriptedChatModel
from tulia.local.simulators.graph import GraphSimulator
from tulia.pipeline import payments_app
from tulia.pipeline.agent import AgentService
from tulia.pipeline.media import MediaIntake
from tulia.pipeline.payments import PaymentCallbacks
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.media import MediaStore, create_media_bucket
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues

CUSTOMER = "254712345678"
BUCKET = "test-media"
PAYBILL = "600984"  # the demo shop's


def tesseract() -> TesseractReader:
    reader = TesseractReader()
    if not reader.available():
        pytest.fail("tesseract is not installed: `make test` installs Debian's tesseract-ocr")
    return reader


@pytest.fixture
def media(seeded: Services) -> Iterator[MediaStore]:
    s3 = BOTO.client("s3")
    create_media_bucket(s3, BUCKET, "eu-west-1")
    store = MediaStore(BUCKET, lambda: s3)
    seeded.media_files = store
    yield store
    seeded.media_files = None


def pipeline(seeded: Services, clock: Clock, graph: GraphSimulator, conversations: Any, store: MediaStore) -> Any:
    graph.sent.clear()
    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[INBOUND.logical_name]
    hook = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, url),
        clock=clock,
    )
    http = httpx.Client(timeout=30)
    agent = AgentService(
        services=seeded,
        conversations=conversations,
        messages=MessageRepo(seeded.db),
        sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
        default_token="test-graph-token",
        clock=clock,
        media=MediaIntake(MediaClient(http, graph.base_url), store, tesseract()),
    )
    return Pipeline(hook, agent, sqs, url, graph), http


@pytest.fixture
def pipe(seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat, media: MediaStore) -> Iterator[Pipeline]:
    """The rules engine (no model sees the pictures)."""
    built, http = pipeline(seeded, clock, graph, chat.conversations, media)
    with http:
        yield built


def photo(graph: GraphSimulator, data: bytes, mid: str, caption: str = "", mime: str = "image/png") -> dict[str, Any]:
    """A customer's image message as Meta sends it: the file uploaded to Meta, its id and sha256 in the webhook."""
    media_id = graph.add_media(data, mime)
    node: dict[str, Any] = {"id": media_id, "mime_type": mime}
    if caption:
        node["caption"] = caption
    return {"id": mid, "timestamp": str(int(time.time())), "type": "image", "image": node, "from": CUSTOMER}


def sends(pipe: Pipeline, message: dict[str, Any]) -> list[str]:
    before = len(pipe.replies_to(CUSTOMER))
    pipe.customer_sends(value(message))
    assert pipe.run_agent() == {"batchItemFailures": []}
    return pipe.replies_to(CUSTOMER)[before:]


def says(pipe: Pipeline, words: str, mid: str) -> list[str]:
    return sends(pipe, text_message(words, mid=mid, sender=CUSTOMER))


def rows_shown(pipe: Pipeline) -> list[str]:
    """The rows of the list the customer got last (a shortlist: each item's name and price)."""
    payload = pipe.graph.messages_to(CUSTOMER)[-1].payload
    assert payload["type"] == "interactive", payload
    sections = payload["interactive"]["action"].get("sections") or []
    return [f"{r['title']} {r.get('description', '')}" for sec in sections for r in sec["rows"]]


def product_picture() -> bytes:
    """A photo with no words on it (a yellow packet on a table)."""
    image = Image.new("RGB", (480, 360), (120, 90, 60))
    ImageDraw.Draw(image).rectangle((140, 60, 340, 300), fill=(240, 200, 40))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    return out.getvalue()


def order_to_pay_by_paybill(pipe: Pipeline, seeded: Services) -> Any:
    says(pipe, "I want an oraimo 20000mAh power bank", "wamid.p1")
    says(pipe, "black", "wamid.p2")
    says(pipe, "1", "wamid.p3")
    says(pipe, "pickup", "wamid.p4")
    steps = says(pipe, "paybill", "wamid.p5")
    assert f"Business number: {PAYBILL}" in steps[-1]
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + CUSTOMER)
    assert customer_id is not None
    [order] = seeded.orders.list_for_customer(SHOP, customer_id).items
    return order


def paid_without_the_reference(seeded: Services, clock: Clock, pipe: Pipeline, code: str, amount: int) -> None:
    """Daraja's confirmation of money paid to the shop's Paybill with a mistyped account: the shop's unmatched
    money, from the customer's number (masked as Daraja's v2 sends it)."""
    confirmed(seeded, clock, pipe, code, amount, "oda yangu")
    assert any(u.trans_id == code for u in seeded.payments.list_unmatched(SHOP).items)


def confirmed(seeded: Services, clock: Clock, pipe: Pipeline, code: str, amount: int, account: str) -> None:
    """Daraja's confirmation of money paid to the shop's Paybill with this account number."""
    body = {
        "TransactionType": "Pay Bill",
        "TransID": code,
        "TransTime": "20261128121325",
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": PAYBILL,
        "BillRefNumber": account,
        "MSISDN": "2547 ***** 678",
        "FirstName": "WANJIKU",
    }
    callbacks = PaymentCallbacks(services=seeded, queue=InboundQueue(pipe.sqs, pipe.url), clock=clock)
    path = f"/payments/daraja/c2b/{seeded.tenants.c2b_token(SHOP)}/confirmation"
    response = payments_app.handle(api_event("POST", path=path, body=json.dumps(body).encode()), callbacks)
    assert json.loads(response["body"])["ResultCode"] == 0


def test_a_screenshot_of_the_mpesa_message_pays_the_order_once(
    pipe: Pipeline, seeded: Services, clock: Clock, graph: GraphSimulator
) -> None:
    order = order_to_pay_by_paybill(pipe, seeded)
    due = order.amount_due
    paid_without_the_reference(seeded, clock, pipe, "TKR4PIC7QM", due)
    shot = draw(Receipt("TKR4PIC7QM", due, PAYBILL, kind="paybill", business="DEMO SHOP", account="oda yangu"), "sms")
    [reply] = sends(pipe, photo(graph, shot, "wamid.s1"))
    assert f"We received KES {due:,} for order {order.order_id} (M-Pesa receipt TKR4PIC7QM)" in reply
    paid = seeded.orders.get(SHOP, order.order_id)
    assert (paid.status, paid.paid_amount) == ("paid", due)
    assert accounted(seeded, SHOP)["unmatched"] == 0
    # the same screenshot again (a new message): nothing more is paid, the customer is told it was received
    again = sends(pipe, photo(graph, shot, "wamid.s2"))
    assert f"We received KES {due:,} for order {order.order_id}" in again[0]
    assert seeded.orders.get(SHOP, order.order_id).paid_amount == due
    assert accounted(seeded, SHOP)["paid_orders"] == due
    # a second order, and the same screenshot sent to pay it: refused, the second order left unpaid
    says(pipe, "I want an oraimo 20000mAh power bank", "wamid.s3a")
    says(pipe, "black", "wamid.s3b")
    says(pipe, "1", "wamid.s3c")
    says(pipe, "pickup", "wamid.s3d")
    says(pipe, "paybill", "wamid.s3e")
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + CUSTOMER)
    assert customer_id is not None
    second = next(o for o in seeded.orders.list_for_customer(SHOP, customer_id).items if o.order_id != order.order_id)
    refused = sends(pipe, photo(graph, shot, "wamid.s4"))
    assert "The M-Pesa payment TKR4PIC7QM has already been used for another payment." in refused[0]
    assert seeded.orders.get(SHOP, second.order_id).status != "paid"
    assert accounted(seeded, SHOP)["paid_orders"] == due


def test_a_screenshot_read_one_character_off_pays_once_and_again_is_said_paid(
    pipe: Pipeline, seeded: Services, clock: Clock, graph: GraphSimulator
) -> None:
    """An OCR slip (the picture's code one character off the shop's record) is matched to the record for the
    amount shown; once that record has paid the order, the same screenshot again is that payment, not an
    unknown code (a fresh clone's Tesseract slipped like this, and the second screenshot was told "I can't find
    it ... waiting for KES 0")."""
    order = order_to_pay_by_paybill(pipe, seeded)
    due = order.amount_due
    paid_without_the_reference(seeded, clock, pipe, "TKR4PIC7QW", due)
    shot = draw(Receipt("TKR4PIC7QM", due, PAYBILL, kind="paybill", business="DEMO SHOP", account="oda yangu"), "sms")
    [reply] = sends(pipe, photo(graph, shot, "wamid.o1"))
    assert f"We received KES {due:,} for order {order.order_id} (M-Pesa receipt TKR4PIC7QW)" in reply
    again = sends(pipe, photo(graph, shot, "wamid.o2"))
    assert f"We received KES {due:,} for order {order.order_id} (M-Pesa receipt TKR4PIC7QW)" in again[0]
    assert not any("waiting for" in r for r in again), again
    assert seeded.orders.get(SHOP, order.order_id).paid_amount == due
    assert accounted(seeded, SHOP)["paid_orders"] == due


def test_a_screenshot_of_money_its_account_number_already_matched_is_said_paid(
    pipe: Pipeline, seeded: Services, clock: Clock, graph: GraphSimulator
) -> None:
    """The customer typed the order's number as the account (the money paid the order on arrival) and sends the
    screenshot as proof anyway, read one character off: she is told the order is paid by that receipt."""
    order = order_to_pay_by_paybill(pipe, seeded)
    due = order.amount_due
    confirmed(seeded, clock, pipe, "TKR4ACC7QW", due, order.order_id)
    assert seeded.orders.get(SHOP, order.order_id).status == "paid"
    shot = draw(
        Receipt("TKR4ACC7QM", due, PAYBILL, kind="paybill", business="DEMO SHOP", account=order.order_id), "sms"
    )
    reply = sends(pipe, photo(graph, shot, "wamid.o3"))
    assert f"We received KES {due:,} for order {order.order_id} (M-Pesa receipt TKR4ACC7QW)" in reply[-1], reply
    assert seeded.orders.get(SHOP, order.order_id).paid_amount == due


def test_a_screenshot_of_a_payment_to_another_number_is_told_and_pays_nothing(
    pipe: Pipeline, seeded: Services, clock: Clock, graph: GraphSimulator
) -> None:
    order = order_to_pay_by_paybill(pipe, seeded)
    paid_without_the_reference(seeded, clock, pipe, "TKR4OTH8QM", order.amount_due)
    shot = draw(Receipt("TKR4OTH8QM", order.amount_due, "5123456", kind="till", business="SALON"), "app", seed=3)
    reply = sends(pipe, photo(graph, shot, "wamid.s3"))
    assert "shows a payment to 5123456, not to our number 600984, so it can't pay your order" in reply[0]
    assert seeded.orders.get(SHOP, order.order_id).status != "paid"
    assert any(u.trans_id == "TKR4OTH8QM" for u in seeded.payments.list_unmatched(SHOP).items)


def test_a_photo_with_a_caption_searches_the_catalog_by_it(
    pipe: Pipeline, graph: GraphSimulator, seeded: Services
) -> None:
    reply = sends(
        pipe, photo(graph, product_picture(), "wamid.c1", caption="mko na oraimo power bank?", mime="image/jpeg")
    )
    assert reply == [
        "Hivi ndivyo nimepata:"
    ]  # "mko na ...?" is Swahili: answered in Swahili (issue 53's language head)
    rows = rows_shown(pipe)
    assert rows, "no shortlist"
    assert all("Oraimo" in r and "KES" in r for r in rows), rows  # the catalog's items and prices
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + CUSTOMER)
    assert customer_id is not None
    read = [e["text"] for e in seeded.threads.everything(SHOP, customer_id)["entries"] if e["role"] == "customer"]
    assert read == ["📷 Photo: mko na oraimo power bank?"]  # as the shop's people read it in the console


def test_a_photo_with_nothing_to_search_by_is_asked_about(pipe: Pipeline, graph: GraphSimulator) -> None:
    reply = sends(pipe, photo(graph, product_picture(), "wamid.n1", mime="image/jpeg"))
    assert reply == [
        "Thanks for the photo! I can't tell from it what you're looking for. What is it called? (The name or brand on "
        "it helps.) If it's an M-Pesa message, please type its code."
    ]


def test_a_file_too_large_or_of_the_wrong_type_is_refused_politely_and_not_kept(
    pipe: Pipeline, graph: GraphSimulator, media: MediaStore, seeded: Services
) -> None:
    big = photo(graph, product_picture(), "wamid.b1", mime="image/jpeg")
    graph.media_sizes[big["image"]["id"]] = 5 * 1024 * 1024 + 1
    assert sends(pipe, big)[0].startswith("That file is too large for me to open (photos up to 5 MB")
    pdf = photo(graph, b"%PDF-1.7 a price list", "wamid.b2", mime="application/pdf")
    assert sends(pipe, pdf)[0].startswith("I can read text, photos and voice notes, but not this kind of file.")
    conversation = conversation_id_for(SHOP, "+" + CUSTOMER)
    assert media.list_for(SHOP, conversation) == []


def test_a_kept_photo_is_encrypted_under_the_shop_exported_and_erased_with_the_customer(
    pipe: Pipeline, graph: GraphSimulator, media: MediaStore, seeded: Services
) -> None:
    picture = product_picture()
    sends(pipe, photo(graph, picture, "wamid.k1", caption="oraimo power bank", mime="image/jpeg"))
    conversation = conversation_id_for(SHOP, "+" + CUSTOMER)
    [kept] = media.list_for(SHOP, conversation)
    assert kept["key"] == f"{SHOP}/{conversation}/wamid.k1.jpg"
    assert CUSTOMER not in kept["key"]  # no phone number in a key
    s3 = BOTO.client("s3")
    head = s3.head_object(Bucket=BUCKET, Key=kept["key"])
    assert (head["ServerSideEncryption"], head["ContentType"]) == ("AES256", "image/jpeg")
    assert media.get(kept["key"]) == picture
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + CUSTOMER)
    assert customer_id is not None
    customer = seeded.customers.get(SHOP, customer_id)
    assert [f["key"] for f in export_customer(seeded, customer, None)["media_files"]] == [kept["key"]]
    assert erase_customer(seeded, customer, None)["media_files_deleted"] == 1
    assert media.list_for(SHOP, conversation) == []


def test_with_the_model_engine_the_photo_is_described_and_the_description_searched(
    seeded: Services, clock: Clock, graph: GraphSimulator, media: MediaStore
) -> None:
    model = ScriptedChatModel()
    model.queue("describe_photo", "Oraimo power bank, black")
    model.responder = lambda node, prompt: {  # the turn's classifier: a product search (the model reads it)
        "intent_classify": {"intent": "sales_discovery", "confidence": 0.93, "notes": "a product"},
        "language_policy": {"response_language": "en", "confidence": 0.9, "should_ask_language_question": False},
        "governor_spam_casual": {"classification": "business", "confidence": 0.95, "recommended_action": "proceed"},
        "sale": {"product": "oraimo power bank"},
    }
    conversations = conversations_for(seeded, scripted_llm_engine(model, reader_threshold=0.70))
    built, http = pipeline(seeded, clock, graph, conversations, media)
    with http:
        reply = sends(built, photo(graph, product_picture(), "wamid.d1", caption="mko na hii?", mime="image/jpeg"))
    [described] = model.calls_for("describe_photo")
    assert described["images"][0]["media_type"] == "image/jpeg"  # the picture itself went to the model
    assert "The customer's caption: mko na hii?" in described["prompt"]
    assert reply == ["Hivi ndivyo nimepata:"]  # in the caption's Swahili, not the description's English
    rows = rows_shown(built)
    assert rows, "no shortlist"
    assert all("Oraimo" in r and "KES" in r for r in rows), rows


PICTURE = "https://pictures.shop.example/demo-shop/PB-002.jpg"


@pytest.fixture
def pictured(seeded: Services) -> Iterator[None]:
    """The Oraimo power bank has a picture (as a pack's image_url column or the console's upload gives it)."""
    item = seeded.catalog.get(SHOP, "PB-002")
    seeded.catalog.put_many([item.model_copy(update={"image_url": PICTURE})])
    yield
    seeded.catalog.put_many([item])


def test_an_items_picture_goes_with_its_card_once_per_chat(
    pipe: Pipeline, graph: GraphSimulator, pictured: None
) -> None:
    card = says(pipe, "I want an oraimo 20000mAh power bank", "wamid.i1")
    assert card[0] == "[picture] Oraimo Traveler 20000mAh Power Bank - KES 2,900"  # the catalog's name and price
    assert card[-1].endswith("Which colour would you like?")
    [sent] = [m.payload for m in graph.messages_to(CUSTOMER) if m.payload["type"] == "image"]
    assert sent["image"]["link"] == PICTURE
    says(pipe, "cancel", "wamid.i2")
    again = says(pipe, "I want an oraimo 20000mAh power bank", "wamid.i3")
    assert not any(r.startswith("[picture]") for r in again)  # one picture per item in a chat: never a flood
    assert again[-1].endswith("Which colour would you like?")


def test_a_picture_meta_cannot_fetch_goes_as_its_caption(pipe: Pipeline, graph: GraphSimulator, pictured: None) -> None:
    graph.unreachable_pictures.add(PICTURE)
    try:
        card = says(pipe, "I want an oraimo 20000mAh power bank", "wamid.f1")
    finally:
        graph.unreachable_pictures.discard(PICTURE)
    assert card[0] == "Oraimo Traveler 20000mAh Power Bank - KES 2,900"  # as text: nothing of the card is lost
    assert card[-1].endswith("Which colour would you like?")
    assert [m.payload["type"] for m in graph.messages_to(CUSTOMER)][:1] == ["text"]
