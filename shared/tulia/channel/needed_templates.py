"""The message templates Tulia sends outside WhatsApp's 24-hour window (the default names of
:class:`tulia.domain.tenant.TemplateNames`), in English and Swahili: submitted for a shop's WhatsApp Business
Account when it connects its number and they are missing there. Body parameters as TemplateNames says."""

from __future__ import annotations

from typing import Any

from tulia.channel.graph_api import TemplateManager


def template(
    name: str, language: str, category: str, body: str, *, quick_replies: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A template as the Business Management API lists it (approved) and, less its status, takes it."""
    components: list[dict[str, Any]] = [{"type": "BODY", "text": body}]
    if quick_replies:  # tapped, Meta sends a "button" message whose text and payload are the button's text
        components.append({"type": "BUTTONS", "buttons": [{"type": "QUICK_REPLY", "text": q} for q in quick_replies]})
    return {"name": name, "language": language, "category": category, "status": "APPROVED", "components": components}


NEEDED_TEMPLATES: tuple[dict[str, Any], ...] = (
    template(
        "order_update", "en", "UTILITY", "Hello {{1}}, your order {{2}} {{3}}. Reply here if you have a question."
    ),
    template("order_update", "sw", "UTILITY", "Habari {{1}}, oda yako {{2}} {{3}}. Jibu hapa kama una swali."),
    template(
        "payment_receipt",
        "en",
        "UTILITY",
        "Hello {{1}}, we received KES {{2}} for order {{3}}. Thank you! Receipt: {{4}}.",
    ),
    template(
        "payment_receipt", "sw", "UTILITY", "Habari {{1}}, tumepokea KES {{2}} kwa oda {{3}}. Asante! Risiti: {{4}}."
    ),
    template("staff_reply", "en", "UTILITY", "Hello {{1}}, {{2}} has replied to your request: {{3}}"),
    template("staff_reply", "sw", "UTILITY", "Habari {{1}}, {{2}} amejibu ombi lako: {{3}}"),
    template("staff_alert", "en", "UTILITY", "Tulia: {{1}} Open: {{2}}"),
    template("staff_alert", "sw", "UTILITY", "Tulia: {{1}} Fungua: {{2}}"),
    template(
        "unpaid_reminder",
        "en",
        "MARKETING",
        "Hello {{1}}, your order {{2}} of KES {{3}} is waiting for payment. Reply PAY to pay now, or STOP to "
        "stop these messages.",
    ),
    template(
        "unpaid_reminder",
        "sw",
        "MARKETING",
        "Habari {{1}}, oda yako {{2}} ya KES {{3}} inasubiri malipo. Jibu LIPA kulipa sasa, au STOP kusimamisha "
        "ujumbe huu.",
    ),
    template(
        "booking_reminder",
        "en",
        "UTILITY",
        "Hello {{1}}, a reminder of your appointment: {{2}}, {{3}} with {{4}}. Tap a button if you need to change it.",
        quick_replies=("I'll be there", "Change time", "Cancel booking"),
    ),
    template(
        "booking_reminder",
        "sw",
        "UTILITY",
        "Habari {{1}}, kumbukumbu ya miadi yako: {{2}}, {{3}} na {{4}}. Bonyeza kitufe kama unahitaji kuibadilisha.",
        quick_replies=("Nitafika", "Badilisha saa", "Ghairi booking"),
    ),
)
EXAMPLE_VALUES = ("Wanjiku", "ORD-7K2PQ", "is on its way", "QK12AB34CD")


def submission(found: dict[str, Any]) -> dict[str, Any]:
    """What is posted to submit a needed template: its components with an example for each parameter."""
    components = []
    for component in found["components"]:
        component = dict(component)
        if component["type"] == "BODY":
            count = component["text"].count("{{")
            if count:
                component["example"] = {"body_text": [[EXAMPLE_VALUES[n % len(EXAMPLE_VALUES)] for n in range(count)]]}
        components.append(component)
    return {k: v for k, v in found.items() if k != "status"} | {"components": components}


def submit_missing(manager: TemplateManager, waba_id: str, token: str, languages: list[str]) -> list[str]:
    """Submit the needed templates the account lacks, in the shop's languages (Sheng speakers get Swahili's);
    returns them as ``name/language``."""
    wanted = {"sw" if lang == "sheng" else lang for lang in languages}
    have = {(str(t.get("name")), str(t.get("language"))) for t in manager.list(waba_id, token)}
    submitted = []
    for needed in NEEDED_TEMPLATES:
        key = (needed["name"], needed["language"])
        if needed["language"] in wanted and key not in have:
            manager.create(waba_id, token, submission(needed))
            submitted.append("/".join(key))
    return submitted
