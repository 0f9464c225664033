"""Model wording for the text nodes of spec 6.2, behind the fact guard.

A tenant may let the model word replies (``persona.llm_wording``). The model's text is sent only if
every number, price, amount, code, reference, date and ETA in it appears in the tool output of this
turn; otherwise, or when the model fails, the template wording is sent. Either way the trace says
what happened.
"""

from __future__ import annotations

from typing import Any

from tulia.graph.calls import Turn
from tulia.graph.state import ConversationState
from tulia.llm.prompts import PromptContext
from tulia.nlg.guard import unsupported_facts

MAX_WORDED_CHARS = 1024  # a WhatsApp text body can be longer, but a reply this long is a bad reply


def recent_summary(state: ConversationState, limit: int = 400) -> str:
    lines = [f"{m['role']}: {m['text'][:120]}" for m in state.messages[-5:-1]]
    return " | ".join(lines)[-limit:]


def prompt_context(turn: Turn) -> PromptContext:
    s = turn.state
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    frame = turn.get("frame")
    order = ""
    if frame is not None and frame.lines:
        order = "; ".join(
            f"{line.quantity or '?'} x {line.name}"
            + (f" ({', '.join(line.variant_selection.values())})" if line.variant_selection else "")
            for line in frame.lines
        )
        if frame.fulfilment.mode:
            order += f"; {frame.fulfilment.mode}" + (f" to {frame.fulfilment.zone}" if frame.fulfilment.zone else "")
    return PromptContext(
        zones=tuple(z.name for z in tenant.delivery_zones),
        payment_methods=tuple(tenant.payment_methods()),
        order_summary=order,
        tenant_id=turn.ctx.tenant_id,
        tenant_name=str(turn.get("tenant_name") or ""),
        bot_name=str(turn.get("bot_name") or "Tulia"),
        bot_intro=str(turn.get("bot_intro") or ""),
        tone_style=str(turn.get("tone_style")),
        response_language=turn.lang,
        default_language=str(turn.get("default_language")),
        allowed_languages=tuple(turn.get("allowed_languages")),
        customer_language_pref=turn.get("customer_language_pref"),
        recent_summary=recent_summary(s),
    )


def worded(turn: Turn, node: str, template_text: str, facts: list[Any], **values: Any) -> str:
    """The model's wording of ``node`` if the tenant enabled it and it passes the guard, else the template."""
    if not turn.get("llm_wording"):
        return template_text
    result = turn.ctx.engine.write(node, context=prompt_context(turn), values=values)
    if result is None:
        return template_text
    turn.trace.extend(result.calls)
    candidate = result.text or ""
    if not candidate:
        return template_text
    missing = unsupported_facts(candidate, *facts)
    if missing or len(candidate) > MAX_WORDED_CHARS:
        turn.trace.append(
            {"kind": "guard", "node": node, "verdict": "template", "unsupported": missing[:5], "chars": len(candidate)}
        )
        return template_text
    turn.trace.append({"kind": "guard", "node": node, "verdict": "model"})
    return candidate
