"""The WhatsApp webhook function: real API Gateway HTTP API (v2) events, signed Meta payloads,
moto DynamoDB and SQS FIFO in process."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import BOTO, ROOT, SALON, SHOP, Clock
from tulia.channel.whatsapp import sign
from tulia.pipeline.webhook import WebhookService
from tulia.pipeline.webhook_app import handle
from tulia.services import Services
from tulia.store.messages import MessageRepo
from tulia.store.queues import InboundQueue, create_queues, group_id

SECRET, TOKEN = "test-app-secret", "test-verify-token"
SHOP_NUMBER, SALON_NUMBER = "106540352242922", "209876543210987"


def api_event(
    method: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    params: dict[str, str] | None = None,
    base64_body: bool = False,
    path: str = "/webhooks/whatsapp",
) -> dict[str, Any]:
    """An API Gateway HTTP API payload v2.0 event, as Lambda receives it."""
    raw_query = "&".join(f"{k}={v}" for k, v in (params or {}).items())
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": raw_query,
        "headers": {"content-type": "application/json", "user-agent": "facebookexternalua", **(headers or {})},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "api123",
            "domainName": "api123.execute-api.eu-west-1.amazonaws.com",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "173.252.127.1",
                "userAgent": "facebookexternalua",
            },
            "requestId": "req-1",
            "routeKey": "$default",
            "stage": "$default",
            "time": "23/Nov/2026:10:00:00 +0000",
            "timeEpoch": 1795428000000,
        },
        "isBase64Encoded": base64_body,
    }
    if params:
        event["queryStringParameters"] = params
    if body is not None:
        event["body"] = base64.b64encode(body).decode() if base64_body else body.decode("utf-8")
    return event


def meta_payload(*values: dict[str, Any]) -> bytes:
    """A webhook POST body; Meta escapes non-ASCII characters, as json.dumps does by default."""
    return json.dumps(
        {
            "object": "whatsapp_business_account",
            "entry": [{"id": "WABA1", "changes": [{"field": "messages", "value": v}]} for v in values],
        }
    ).encode()


def value(
    message: dict[str, Any] | None = None,
    *,
    number: str = SHOP_NUMBER,
    wa_id: str | None = "254712345678",
    user_id: str | None = None,
    name: str = "Wanjiku",
    statuses: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    contact: dict[str, Any] = {"profile": {"name": name}}
    if wa_id:
        contact["wa_id"] = wa_id
    if user_id:
        contact["user_id"] = user_id
    out: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "254700000001", "phone_number_id": number},
    }
    if message is not None:
        out["contacts"] = [contact]
        out["messages"] = [message]
    if statuses is not None:
        out["statuses"] = statuses
    return out


def text_message(body: str, mid: str = "wamid.HBgLMTIz", sender: str | None = "254712345678") -> dict[str, Any]:
    msg = {"id": mid, "timestamp": str(int(time.time())), "type": "text", "text": {"body": body}}  # sent now
    if sender:
        msg["from"] = sender
    return msg


def signed(body: bytes) -> dict[str, str]:
    return {"x-hub-signature-256": sign(body, SECRET)}


@dataclass
class Pipe:
    service: WebhookService
    sqs: Any
    url: str
    services: Services

    def post(self, body: bytes, headers: dict[str, str] | None = None, **kw: Any) -> dict[str, Any]:
        return handle(
            api_event("POST", body=body, headers=signed(body) if headers is None else headers, **kw), self.service
        )

    def queued(self) -> list[dict[str, Any]]:
        out = []
        while True:
            got = self.sqs.receive_message(
                QueueUrl=self.url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"], WaitTimeSeconds=0
            ).get("Messages", [])
            if not got:
                return out
            for m in got:
                out.append({"body": json.loads(m["Body"]), "attributes": m["Attributes"]})
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"])


def test_the_webhook_records_when_each_customer_last_wrote_for_the_24_hour_window(pipe: Pipe, clock: Clock) -> None:
    messages = MessageRepo(pipe.services.db)
    assert messages.last_inbound(SHOP, "+254712345678") is None
    old_sample = {**text_message("hello", mid="wamid.w1"), "timestamp": "1600000000"}  # a copied sample payload
    assert pipe.post(meta_payload(value(old_sample)))["statusCode"] == 200
    first = messages.last_inbound(SHOP, "+254712345678")
    assert first is not None
    assert abs((first - clock.now).total_seconds()) < 1  # from when it reached us
    clock.advance(hours=3)
    pipe.post(meta_payload(value(text_message("there?", mid="wamid.w2"))))
    later = messages.last_inbound(SHOP, "+254712345678")
    assert later is not None
    assert (later - first).total_seconds() > 3 * 3600 - 1  # each message restarts the window
    pipe.post(meta_payload(value(text_message("there?", mid="wamid.w2"))))  # Meta's redelivery
    assert messages.last_inbound(SHOP, "+254712345678") == later
    assert messages.last_inbound(SALON, "+254712345678") is None  # per shop


# verification ----------------------------------------------------------------------------------
def test_meta_verification_echoes_the_challenge(pipe: Pipe) -> None:
    params = {"hub.mode": "subscribe", "hub.verify_token": TOKEN, "hub.challenge": "1158201444"}
    response = handle(api_event("GET", params=params), pipe.service)
    assert (response["statusCode"], response["body"]) == (200, "1158201444")
    assert {k.lower(): v for k, v in response["headers"].items()}["content-type"] == "text/plain"


@pytest.mark.parametrize(
    "params",
    [
        {"hub.mode": "subscribe", "hub.verify_token": "wrong", "hub.challenge": "1"},
        {"hub.mode": "unsubscribe", "hub.verify_token": TOKEN, "hub.challenge": "1"},
        {},
    ],
)
def test_meta_verification_with_a_wrong_token_or_mode_is_refused(pipe: Pipe, params: dict[str, str]) -> None:
    response = handle(api_event("GET", params=params), pipe.service)
    assert response["statusCode"] == 403
    assert "1" not in response["body"]


# messages ------------------------------------------------------------------------------------------
def test_a_signed_text_message_is_queued_for_its_tenant_and_customer(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("Bei ya simu ya Samsung?")))
    response = pipe.post(body)
    assert response["statusCode"] == 200
    [queued] = pipe.queued()
    message = queued["body"]["message"]
    assert queued["body"]["tenant_id"] == SHOP
    assert (message["text"], message["phone_e164"], message["display_name"]) == (
        "Bei ya simu ya Samsung?",
        "+254712345678",
        "Wanjiku",
    )
    assert queued["attributes"]["MessageGroupId"] == group_id(SHOP, "+254712345678")
    assert queued["attributes"]["MessageDeduplicationId"] == "wamid.HBgLMTIz"
    assert "254712345678" not in queued["attributes"]["MessageGroupId"]  # no phone numbers in queue metadata


def test_the_same_webhook_delivered_twice_is_queued_once(pipe: Pipe, clock: Clock) -> None:
    body = meta_payload(value(text_message("habari")))
    assert json.loads(pipe.post(body)["body"]) == {"queued": 1, "duplicates": 0}
    clock.advance(days=3)  # Meta retries for days; SQS's own 5-minute window would not catch this
    again = pipe.post(body)
    assert again["statusCode"] == 200
    assert json.loads(again["body"]) == {"queued": 0, "duplicates": 1}
    assert len(pipe.queued()) == 1


@pytest.mark.parametrize(
    "headers",
    [{}, {"x-hub-signature-256": "sha256=" + "0" * 64}, {"x-hub-signature-256": "md5=abc"}],
)
def test_a_bad_or_missing_signature_is_401_and_nothing_is_queued_or_recorded(
    pipe: Pipe, headers: dict[str, str]
) -> None:
    body = meta_payload(value(text_message("hi")))
    assert pipe.post(body, headers=headers)["statusCode"] == 401
    assert pipe.queued() == []
    assert pipe.post(body)["statusCode"] == 200  # the marker was never written: the genuine one goes through


def test_a_body_changed_after_signing_is_refused(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("Lipa KES 100")))
    tampered = body.replace(b"100", b"999")
    assert pipe.post(tampered, headers=signed(body))["statusCode"] == 401


def test_the_signature_covers_the_raw_bytes_including_escaped_non_ascii_and_base64_bodies(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("Asante sana 🙏 — karibu", mid="wamid.emoji")))
    assert b"\\ud83d" in body  # Meta's escaping, kept as sent
    assert pipe.post(body, base64_body=True)["statusCode"] == 200
    [queued] = pipe.queued()
    assert queued["body"]["message"]["text"] == "Asante sana 🙏 — karibu"


def test_a_signed_but_malformed_body_is_acknowledged_kept_and_queues_nothing(pipe: Pipe) -> None:
    bodies = (b"{not json", b'{"object": "whatsapp_business_account"}', b"[]")
    for body in bodies:
        response = pipe.post(body)
        assert response["statusCode"] == 200  # Meta stops retrying a payload that will never parse
        assert json.loads(response["body"]) == {"ignored": "malformed"}
    assert pipe.queued() == []
    kept = pipe.service.messages.malformed_webhooks()
    assert [base64.b64decode(k["body"]) for k in kept] == list(reversed(bodies))  # newest first


def test_an_unknown_business_number_is_acknowledged_and_dropped(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("hello"), number="999999999"))
    assert pipe.post(body)["statusCode"] == 200
    assert pipe.queued() == []


def test_every_message_type_is_parsed(pipe: Pipe) -> None:
    def msg(mid: str, kind: str, obj: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {"from": "254712345678", "timestamp": "1795428000", "id": mid, "type": kind, kind: obj, **extra}

    list_reply = {"id": "item:SG-001", "title": "Samsung Galaxy A15", "description": "KES 21,500"}
    order = {
        "catalog_id": "c1",
        "text": "these please",
        "product_items": [{"product_retailer_id": "SG-002", "quantity": "2", "item_price": 500, "currency": "KES"}],
    }
    messages = [
        msg("w1", "interactive", {"type": "list_reply", "list_reply": list_reply}),
        msg("w2", "interactive", {"type": "button_reply", "button_reply": {"id": "confirm:yes", "title": "Yes"}}),
        msg("w3", "button", {"payload": "reorder", "text": "Order again"}, context={"id": "wamid.ours"}),
        msg("w4", "image", {"id": "m1", "mime_type": "image/jpeg", "sha256": "x", "caption": "hii iko?"}),
        msg("w5", "audio", {"id": "m2", "mime_type": "audio/ogg", "voice": True}),
        msg("w6", "location", {"latitude": -1.29, "longitude": 36.82}),
        msg("w7", "reaction", {"message_id": "wamid.ours", "emoji": "👍"}),
        msg("w8", "order", order),
        msg("w9", "sticker", {"id": "m3"}),
    ]
    payload = value(text_message("x"))
    payload["messages"] = messages
    assert pipe.post(meta_payload(payload))["statusCode"] == 200
    got = {q["body"]["message"]["message_id"]: q["body"]["message"] for q in pipe.queued()}
    assert "w7" not in got  # reactions are not turns
    assert (got["w1"]["kind"], got["w1"]["reply_id"], got["w1"]["text"]) == (
        "interactive",
        "item:SG-001",
        "Samsung Galaxy A15",
    )
    assert got["w2"]["reply_id"] == "confirm:yes"
    assert (got["w3"]["kind"], got["w3"]["reply_id"], got["w3"]["context_id"]) == ("button", "reorder", "wamid.ours")
    assert (got["w4"]["kind"], got["w4"]["text"]) == ("image", "hii iko?")
    assert {got[m]["kind"] for m in ("w5", "w6", "w9")} == {"audio", "location", "sticker"}
    assert got["w8"]["order_items"] == [{"product_retailer_id": "SG-002", "quantity": 2, "item_price": 500}]


def test_a_sender_without_a_phone_is_keyed_by_the_business_scoped_user_id(pipe: Pipe) -> None:
    only_id = value(text_message("niaje", mid="w-bsuid", sender=None), wa_id=None, user_id="KE.1502576394655843")
    both = value(text_message("niaje", mid="w-both"), user_id="KE.1502576394655843")
    assert pipe.post(meta_payload(only_id, both))["statusCode"] == 200
    got = {q["body"]["message"]["message_id"]: q for q in pipe.queued()}
    assert got["w-bsuid"]["body"]["message"]["phone_e164"] is None
    assert got["w-bsuid"]["body"]["message"]["wa_user_id"] == "KE.1502576394655843"
    assert got["w-bsuid"]["attributes"]["MessageGroupId"] == group_id(SHOP, "bsuid:KE.1502576394655843")
    assert (got["w-both"]["body"]["message"]["phone_e164"], got["w-both"]["body"]["message"]["wa_user_id"]) == (
        "+254712345678",
        "KE.1502576394655843",
    )


def test_one_post_for_two_tenants_and_several_customers_is_split_by_group(pipe: Pipe) -> None:
    body = meta_payload(
        value(text_message("shop A", mid="a1")),
        value(text_message("salon B", mid="b1", sender="254722000111"), number=SALON_NUMBER, wa_id="254722000111"),
        value(text_message("shop C", mid="c1", sender="254733000222"), wa_id="254733000222"),
    )
    assert json.loads(pipe.post(body)["body"])["queued"] == 3
    got = {q["body"]["message"]["message_id"]: q for q in pipe.queued()}
    assert got["b1"]["body"]["tenant_id"] == SALON
    assert got["a1"]["body"]["tenant_id"] == got["c1"]["body"]["tenant_id"] == SHOP
    groups = {q["attributes"]["MessageGroupId"] for q in got.values()}
    assert len(groups) == 3


def test_delivery_statuses_are_recorded(pipe: Pipe) -> None:
    failed = {
        "id": "wamid.sent1",
        "status": "failed",
        "timestamp": "1795428100",
        "recipient_id": "254712345678",
        "errors": [{"code": 131047, "title": "Re-engagement message", "error_data": {"details": "24h passed"}}],
    }
    read = {"id": "wamid.sent2", "status": "read", "timestamp": "1795428200", "recipient_id": "254712345678"}
    assert pipe.post(meta_payload(value(statuses=[failed, read])))["statusCode"] == 200
    repo = MessageRepo(pipe.services.db)
    [status] = repo.statuses(SHOP, "wamid.sent1")
    assert (status["sk"], status["error"]["code"], status["error"]["details"]) == (
        "STATUS#failed",
        131047,
        "24h passed",
    )
    assert repo.statuses(SHOP, "wamid.sent2")[0]["sk"] == "STATUS#read"
    assert pipe.queued() == []  # statuses are not turns


def test_when_the_queue_fails_meta_is_asked_to_retry_and_the_retry_is_accepted(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("hello", mid="w-retry")))
    working = pipe.service.queue
    pipe.service.queue = InboundQueue(pipe.sqs, pipe.url + "-missing")
    try:
        assert pipe.post(body)["statusCode"] == 503
    finally:
        pipe.service.queue = working
    assert pipe.post(body)["statusCode"] == 200
    assert len(pipe.queued()) == 1


def test_other_paths_and_methods(pipe: Pipe) -> None:
    assert handle(api_event("GET", path="/nope"), pipe.service)["statusCode"] == 404
    assert handle(api_event("PUT", body=b"{}"), pipe.service)["statusCode"] == 405


# the Lambda function itself ---------------------------------------------------------------------
def test_the_lambda_handler_wires_settings_moto_and_the_queue(
    seeded: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tulia.config import get_settings
    from tulia.pipeline import webhook_app

    create_queues(BOTO.client("sqs"), "test-")
    monkeypatch.setenv("TULIA_TABLE_PREFIX", "test-")
    monkeypatch.setenv("TULIA_META_APP_SECRET", SECRET)
    get_settings.cache_clear()
    webhook_app.service.cache_clear()
    sys.path.insert(0, str(ROOT / "functions" / "webhook"))
    try:
        import handler as webhook_function

        class Context:
            function_name, memory_limit_in_mb, aws_request_id = "webhook", 256, "req-1"
            invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:webhook"

        body = meta_payload(value(text_message("nataka simu", mid="w-lambda")))
        response = webhook_function.handler(api_event("POST", body=body, headers=signed(body)), Context())
        assert response["statusCode"] == 200
        sqs = BOTO.client("sqs")
        url = sqs.get_queue_url(QueueName="test-inbound.fifo")["QueueUrl"]
        [message] = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        assert json.loads(message["Body"])["message"]["text"] == "nataka simu"
    finally:
        sys.path.remove(str(ROOT / "functions" / "webhook"))
        sys.modules.pop("handler", None)
        get_settings.cache_clear()
        webhook_app.service.cache_clear()


def test_the_webhook_function_imports_only_what_it_needs_per_request() -> None:
    """Its cold start is the floor customers wait on (issue 32, part 6): no LangChain or LangGraph, no
    pydantic (no domain models, no settings until the first request builds the service), no store
    modules of other features, no Powertools resolver (two routes are dispatched in the module)."""
    code = (
        "import sys; sys.path.insert(0, 'functions/webhook'); import handler; "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('langchain_core', 'langchain_aws', 'langgraph', "
        "'pydantic') or m in ('aws_lambda_powertools.event_handler', 'tulia.domain.common', 'tulia.store.broadcasts', "
        "'tulia.config')); print(heavy); assert not heavy"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
