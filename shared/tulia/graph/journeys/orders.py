"""The orders journey: order_get_status, then a 3-6 line summary; several orders -> ask which."""

from __future__ import annotations

from typing import Any, Literal, cast

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.graph.buttons import tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.journeys.sale_common import frame_of
from tulia.graph.journeys.sale_payments import PAYABLE, offer_ways_to_pay, payable_now
from tulia.graph.nodes import inbound_text, t
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, command_journey
from tulia.graph.wording import worded
from tulia.nlg.messages import listing, text
from tulia.nlg.templates import STATUS_WORDS, money, word
from tulia.nlu.frame_extract import extract_order_ref


def order_lookup(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["order_status_response", "order_cancel", "__end__"]]:
    """order_get_status: by the reference given (or chosen from a list), else the latest orders."""
    turn = Turn(state, runtime, "order_lookup")
    if state.route == "order_cancel":
        return turn.goto("order_cancel")
    ref = None
    if state.route in ("answer", "maybe_answer") and state.pending == "order_selection":
        option = _chosen(turn)
        if option is None:
            turn.set(route="reclassify")
            return turn.goto(END)
        ref = option["id"].split(":", 1)[1]
    else:
        ref = state.understanding.get("slots", {}).get("order_ref")
    result = turn.tool("order_get_status", customer_id=state.customer_id, **({"order_ref": ref} if ref else {}))
    turn.set(question=None, question_options=[])
    if not result["ok"]:
        key = "order_not_found" if result["error"]["code"] in ("not_found", "invalid_input") else "tool_error"
        turn.say(text(t(turn, key, ref=ref or "")))
        return turn.goto(END)
    turn.set(scratch=Scratch(orders=result["data"]["orders"]))
    return turn.goto("order_status_response")


def order_status_response(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """One order: its status in a few lines. Several: ask which, by reference and date."""
    turn = Turn(state, runtime, "order_status_response")
    found = state.scratch.get("orders", [])
    if not found:
        turn.say(text(t(turn, "no_orders")))
    elif len(found) == 1:
        summary = status_text(turn, found[0])
        turn.say(
            text(
                worded(
                    turn,
                    "order_status_response",
                    summary,
                    [found],
                    orders_json=found,
                    user_message=str(state.inbound.get("text") or "")[:2000],
                )
            )
        )
        turn.set(order_id=found[0]["order_ref"])
        _offer_to_pay(turn, found[0])
    else:
        options = [
            {
                "id": tap_id("order", o["order_ref"]),
                "title": o["order_ref"],
                "description": f"{o['created_at'][:10]} - {money(o['total'])}",
            }
            for o in found
        ]
        turn.say(
            listing(
                t(turn, "which_order", count=len(found)),
                [(o["id"], o["title"], o["description"]) for o in options],
                button=t(turn, "menu_order"),
            )
        )
        turn.set(question="order_selection", question_options=options)
    return turn.goto(END)


def order_cancel(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """ "cancel my order", "nimebadilisha mawazo, futa oda": the order named, else the sale's own, else her latest
    open one (order_cancel). Unpaid, it is cancelled at once and the sale ends; a basket not yet made an order is
    let go; a paid one goes to a person, who settles the money by the shop's policy."""
    turn = Turn(state, runtime, "order_cancel")
    frame = frame_of(turn)
    ref = extract_order_ref(inbound_text(state)) or (frame.order.order_id if frame.order else None)
    result = turn.tool("order_cancel", customer_id=state.customer_id, **({"order_ref": ref} if ref else {}))
    let_go: dict[str, Any] = {
        "frame": None,
        "order_id": None,
        "order_totals": {},
        "question": None,
        "question_options": [],
    }
    if result["ok"]:
        done = result["data"]
        items = ", ".join(f"{i['quantity']} x {i['name']}" for i in done["items"])
        turn.say(text(t(turn, "order_cancelled", ref=done["order_ref"], items=items)))
        turn.set(**let_go)
        return turn.goto(END)
    error = result["error"]
    if error["code"] == "state_conflict" and error.get("reason") == "paid":
        turn.say(text(t(turn, "order_cancel_paid", ref=error.get("details", {}).get("order_ref", ref or ""))))
        turn.set(route="handoff", escalation_required=True, escalation_reason="refund_request")
        return turn.goto(END)
    if error["code"] == "not_found" and frame.lines and not ref:
        turn.say(text(t(turn, "basket_let_go")))  # a basket she never made an order of
        turn.set(**let_go)
        return turn.goto(END)
    if error["code"] == "not_found":
        turn.say(text(t(turn, "order_not_found" if ref else "order_cancel_none", ref=ref or "")))
        return turn.goto(END)
    if error["code"] == "state_conflict" and error.get("reason") == "booking":
        turn.say(text(t(turn, "order_cancel_is_deposit", ref=ref or "")))
        return turn.goto(END)
    turn.say(text(t(turn, "tool_error")))
    return turn.goto(END)


orders = as_node(
    "orders",
    command_journey(
        "orders",
        [
            ("order_lookup", order_lookup),
            ("order_status_response", order_status_response),
            ("order_cancel", order_cancel),
        ],
        entry="order_lookup",
    ),
)


def _offer_to_pay(turn: Turn, order: dict[str, Any]) -> None:
    """An order she can pay now, shown on its own while no other sale is under way: the ways to pay it follow
    ("I want to pay ORD-…", "where is my order?" for one not paid), and her answer goes on in the sale."""
    if order["status"] not in PAYABLE:
        return
    frame = frame_of(turn)
    if frame.lines or frame.payment_started or (frame.order and frame.order.order_id != order["order_ref"]):
        return
    if order["payments"] is None:  # listed as her latest order: its payments are read with it by reference
        result = turn.tool("order_get_status", customer_id=turn.state.customer_id, order_ref=order["order_ref"])
        if not result["ok"]:
            return
        order = result["data"]["orders"][0]
    if payable_now(order):
        offer_ways_to_pay(turn, frame, order)
        turn.set(scratch=Scratch(orders=turn.get("scratch").get("orders", []), sale_asked=True))


def _chosen(turn: Turn) -> dict[str, Any] | None:
    s = turn.state
    reply_id = s.inbound.get("reply_id")
    if reply_id:
        return next((o for o in s.pending_options if o["id"] == reply_id), None)
    choice = s.understanding.get("choice")
    if choice is not None and 1 <= choice <= len(s.pending_options):
        return cast(dict[str, Any], s.pending_options[choice - 1])  # understanding is an untyped dict
    body = str(s.inbound.get("text") or "").upper().replace(" ", "")
    return next((o for o in s.pending_options if o["title"].replace("-", "") in body.replace("-", "")), None)


def status_text(turn: Turn, order: dict[str, Any]) -> str:
    items = ", ".join(f"{i['quantity']} x {i['name']}" for i in order["items"])
    eta = ""
    if order["eta"] and order["status"] in ("paid", "fulfilled"):
        eta = f"\nETA: {order['eta']}"
    return t(
        turn,
        "order_status",
        ref=order["order_ref"],
        date=order["created_at"][:10],
        items=items,
        total=money(order["total"]),
        payment=word(STATUS_WORDS, order["payment_status"], turn.lang),
        status=word(STATUS_WORDS, order["status"], turn.lang),
        eta=eta,
    )
