"""WhatsApp's customer-service window (PROTOCOLS.md 1.6): one rule for every message we send.

A customer's message opens a 24-hour window (each new message restarts it; our sends do not).
Inside it any message may go; outside it only an approved template. So every outbound path (the
agent's replies and payment news, order updates, staff replies from the inbox, broadcasts,
reminders) asks :func:`plan` how to reach the customer: the free-form messages, the template
that says the same, or a structured refusal naming the template that is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from tulia.domain.templates import MessageTemplate, pick

WINDOW = timedelta(hours=24)
OUTSIDE_WINDOW_CODE = 131047  # Meta's answer to a free-form message outside the window


def window_open(last_inbound_at: datetime | None, now: datetime) -> bool:
    """Whether a free-form message may go now (never, when the customer never wrote)."""
    return last_inbound_at is not None and now - last_inbound_at < WINDOW


@dataclass(frozen=True)
class TemplateCall:
    """The template that carries a message outside the window: the shop's template ``name`` with
    these body parameters, in order."""

    name: str
    parameters: list[str]
    marketing: bool = False  # only a marketing template may carry it (broadcasts, reminders)


@dataclass(frozen=True)
class Delivery:
    mode: Literal["free_form", "template", "refused"]
    payloads: list[dict[str, Any]] = field(default_factory=list)
    refusal: dict[str, Any] | None = None  # {code, message, template, language}
    preview: str = ""  # what the customer reads (the template's body filled in)


def template_payload(template: MessageTemplate, parameters: list[str], to: dict[str, str]) -> dict[str, Any]:
    """The Graph API body of a template message (PROTOCOLS.md 1.5)."""
    envelope: dict[str, Any] = {"messaging_product": "whatsapp", "recipient_type": "individual"}
    if "to" in to:
        envelope["to"] = to["to"].lstrip("+")
    else:
        envelope["recipient"] = to["recipient"]
    body: dict[str, Any] = {"name": template.name, "language": {"code": template.language}}
    if parameters:
        body["components"] = [
            {"type": "body", "parameters": [{"type": "text", "text": _parameter(p)} for p in parameters]}
        ]
    return {**envelope, "type": "template", "template": body}


def _parameter(value: str) -> str:
    # Meta refuses parameters with new lines, tabs or more than four spaces in a row
    return " ".join(str(value).split())[:1000] or "-"


def as_template(
    call: TemplateCall, templates: list[MessageTemplate], *, lang: str, default_lang: str, to: dict[str, str]
) -> Delivery:
    """The template form of a message, or why there is none."""
    template = pick(templates, call.name, lang, default_lang)
    if template is None:
        return refused(
            "template_missing",
            f"No approved template '{call.name}': WhatsApp allows only approved templates 24 hours after the "
            "customer's last message.",
            template=call.name,
            language=lang,
        )
    if call.marketing != (template.category == "marketing"):
        wanted = "marketing" if call.marketing else "utility"
        return refused(
            "template_category",
            f"Template '{call.name}' is {template.category}; this message needs a {wanted} template.",
            template=call.name,
            language=template.language,
        )
    if template.parameter_count != len(call.parameters):
        return refused(
            "template_parameters",
            f"Template '{call.name}' takes {template.parameter_count} parameters; this message gives "
            f"{len(call.parameters)}.",
            template=call.name,
            language=template.language,
        )
    parameters = [_parameter(p) for p in call.parameters]
    return Delivery("template", [template_payload(template, parameters, to)], preview=template.filled(parameters))


def refused(code: str, message: str, **details: Any) -> Delivery:
    return Delivery("refused", refusal={"code": code, "message": message, **details})


def plan(
    *,
    last_inbound_at: datetime | None,
    now: datetime,
    free_form: list[dict[str, Any]],
    template: TemplateCall | None,
    templates: Callable[[], list[MessageTemplate]],
    lang: str,
    default_lang: str,
    to: dict[str, str],
) -> Delivery:
    """How to send a message now: free-form inside the window, else its template (the shop's
    templates are read only then)."""
    if window_open(last_inbound_at, now) and free_form:
        return Delivery("free_form", free_form)
    if template is None:
        return refused(
            "outside_window",
            "More than 24 hours since the customer's last message, and this message has no template form.",
        )
    return as_template(template, templates(), lang=lang, default_lang=default_lang, to=to)
