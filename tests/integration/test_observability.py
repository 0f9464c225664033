"""Operability: every log line of a request carries its correlation id and its shop, and tool, model
and provider calls are X-Ray subsegments annotated with the shop (checked with the X-Ray SDK's
recorder and an in-memory emitter: nothing leaves the machine)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import SHOP, Caller
from tests.integration.test_agent import Pipeline, graph, pipeline  # noqa: F401 - fixtures
from tests.integration.test_webhook import api_event, meta_payload, signed, text_message, value
from tulia import observability
from tulia.observability import logger
from tulia.pipeline import payments_app
from tulia.pipeline.webhook_app import handle


class LogLines:
    """The JSON lines the functions' logger writes (its handler's stream swapped for a buffer)."""

    def __init__(self) -> None:
        self.buffer = io.StringIO()

    def take(self) -> list[dict[str, Any]]:
        lines = [json.loads(line) for line in self.buffer.getvalue().splitlines() if line.strip()]
        self.buffer.seek(0)
        self.buffer.truncate()
        return lines


@pytest.fixture
def logs() -> Iterator[LogLines]:
    captured = LogLines()
    handler = logger.registered_handler
    previous = handler.setStream(captured.buffer)  # type: ignore[attr-defined]
    level = logger.log_level
    logger.setLevel("INFO")
    try:
        yield captured
    finally:
        handler.setStream(previous)  # type: ignore[attr-defined]
        logger.setLevel(level)


def keys_of(lines: list[dict[str, Any]]) -> set[tuple[Any, Any]]:
    return {(line.get("correlation_id"), line.get("tenant_id")) for line in lines}


def test_a_messages_log_lines_carry_the_request_and_the_shop_from_webhook_to_reply(
    pipeline: Pipeline,  # noqa: F811
    logs: LogLines,
) -> None:
    body = meta_payload(value(text_message("Nataka simu ya Samsung", mid="wamid.obs1")))
    event = api_event("POST", body=body, headers=signed(body))
    event["requestContext"]["requestId"] = "req-obs-1"
    assert handle(event, pipeline.webhook)["statusCode"] == 200
    webhook_lines = logs.take()
    assert [line["message"] for line in webhook_lines] == ["webhook received"]
    assert keys_of(webhook_lines) == {("req-obs-1", SHOP)}

    assert pipeline.run_agent() == {"batchItemFailures": []}
    agent_lines = logs.take()
    tools = {line["tool"] for line in agent_lines if line["message"] == "tool call"}
    assert "catalog_search" in tools
    # each tool call names the graph node that made it (spec 8.4)
    nodes = {line["tool"]: line.get("node") for line in agent_lines if line["message"] == "tool call"}
    assert all(nodes.values()), nodes
    assert nodes == {
        "tenant_get_context": "load_context",
        "customer_get_or_create": "load_context",
        "catalog_search": "search",
    }
    assert keys_of(agent_lines) == {("wamid.obs1", SHOP)}  # every line of the turn, the tools' included

    logger.info("outside any request")
    [outside] = logs.take()
    assert "correlation_id" not in outside  # the keys went with the request
    assert "tenant_id" not in outside


def test_a_forged_webhook_is_logged_with_its_request_and_no_shop(pipeline: Pipeline, logs: LogLines) -> None:  # noqa: F811
    body = meta_payload(value(text_message("hi", mid="wamid.forged")))
    event = api_event("POST", body=body, headers={"x-hub-signature-256": "sha256=" + "0" * 64})
    event["requestContext"]["requestId"] = "req-forged"
    assert handle(event, pipeline.webhook)["statusCode"] == 401
    [line] = logs.take()
    assert line["message"] == "webhook signature missing or wrong"
    assert (line["correlation_id"], line["tenant_id"]) == ("req-forged", "unknown")


def test_a_failed_payment_check_is_reported_and_logged_with_its_record_and_shop(
    pipeline: Pipeline,  # noqa: F811
    logs: LogLines,
) -> None:
    from tulia.pipeline.payments import PaymentCallbacks

    callbacks = PaymentCallbacks(
        services=pipeline.agent.services,
        queue=None,
        clock=pipeline.agent.clock,  # type: ignore[arg-type]
    )
    check = {"tenant_id": SHOP, "order_id": "ORD-NOPE00", "payment_id": "pay_nope"}
    event = {"Records": [{"messageId": "chk-1", "body": json.dumps(check), "attributes": {}}]}
    assert payments_app.handle(event, callbacks) == {"batchItemFailures": [{"itemIdentifier": "chk-1"}]}
    lines = logs.take()
    assert [line["message"] for line in lines] == ["payment check failed; SQS retries it, then its dead-letter queue"]
    assert keys_of(lines) == {("chk-1", SHOP)}


class Emitted:
    """An X-Ray emitter that keeps what would be sent to the daemon."""

    def __init__(self) -> None:
        self.entities: list[dict[str, Any]] = []

    def send_entity(self, entity: Any) -> None:
        self.entities.append(json.loads(entity.serialize()))

    def set_daemon_address(self, address: str | None) -> None:
        return None

    @property
    def ip(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return 2000


@pytest.fixture
def xray(monkeypatch: pytest.MonkeyPatch) -> Iterator[Emitted]:
    """Tracing switched on as in Lambda (LAMBDA_TASK_ROOT set), segments kept in memory."""
    from aws_lambda_powertools import Tracer
    from aws_xray_sdk import global_sdk_config
    from aws_xray_sdk.core import xray_recorder
    from aws_xray_sdk.core.context import Context

    monkeypatch.setenv("LAMBDA_TASK_ROOT", "/var/task")
    Tracer._reset_config()
    observability.tracer.cache_clear()
    global_sdk_config.set_sdk_enabled(True)
    emitted = Emitted()
    xray_recorder.configure(emitter=emitted, context=Context(), sampling=False, context_missing="LOG_ERROR")
    try:
        yield emitted
    finally:
        global_sdk_config.set_sdk_enabled(False)
        Tracer._reset_config()
        observability.tracer.cache_clear()


def subsegments(entity: dict[str, Any]) -> list[dict[str, Any]]:
    """Nested subsegments (in Lambda, Powertools streams each one as its own entity instead)."""
    out = []
    for sub in entity.get("subsegments") or []:
        out += [sub, *subsegments(sub)]
    return out


def test_tool_model_and_provider_calls_are_traced_with_the_shop(xray: Emitted, seeded: Any) -> None:
    from aws_xray_sdk.core import xray_recorder

    from tests.conftest import new_customer
    from tulia.llm.client import LlmClient
    from tulia.llm.prompts import PromptContext, render
    from tulia.llm.schemas import IntentOut
    from tulia.llm.scripted import ScriptedChatModel

    assert observability.tracer().disabled is False
    shop = Caller(seeded, SHOP)
    shop.customer_id = new_customer(shop)
    xray_recorder.begin_segment("tulia-agent")
    with observability.request_scope("wamid.trace", SHOP):
        order = shop.ok(
            "order_create",
            customer_id=shop.customer_id,
            items=[
                {"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Blue", "storage": "128GB"}}
            ],
            delivery={"mode": "pickup"},
        )
        prompt = shop.ok("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
        model = ScriptedChatModel().queue("intent_classify", '{"intent": "order_status", "confidence": 0.9}')
        ctx = PromptContext(tenant_id=SHOP, tenant_name="Duka Bora", bot_name="Bora", response_language="sw")
        read = LlmClient(model, "eu.amazon.nova-micro-v1:0").json(
            "intent_classify", ctx, render("intent_classify", user_message="oda yangu iko wapi"), IntentOut
        )
    xray_recorder.end_segment()
    assert prompt["checkout_request_id"]
    assert read.value is not None
    spans = [s for entity in xray.entities for s in [entity, *subsegments(entity)]]
    by_name = {s["name"]: s for s in spans}
    assert by_name["## tool order_create"]["annotations"] == {"tenant_id": SHOP, "tool": "order_create"}
    stk = by_name["## tool payment_initiate_stk_push"]
    assert stk["annotations"]["tenant_id"] == SHOP
    inside = [s for s in spans if s.get("parent_id") == stk["id"]]  # Lambda streams each subsegment
    assert [s["name"] for s in inside] == ["## provider daraja", "## provider daraja"]  # the token, the push
    assert inside[-1]["annotations"] == {"tenant_id": SHOP, "provider": "daraja", "attempt": 0}
    model_span = by_name["## model eu.amazon.nova-micro-v1:0"]
    assert model_span["annotations"] == {
        "tenant_id": SHOP,
        "model": "eu.amazon.nova-micro-v1:0",
        "node": "intent_classify",
    }
