"""The node prompts of spec section 6 and Appendix B, kept as templates.

``SYSTEM_BASE`` (6.1) is the system message of every LLM call. Each node prompt is the human
message. The three classifier prompts are sent together in one call per turn
(``CLASSIFY_TURN``), each answering in its own object, so each classifier node still has its own
output. Placeholders are filled with :func:`render`; JSON values are serialised compactly.
"""

# ruff: noqa: E501  (the prompts are the spec's text, kept line for line)
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

SYSTEM_BASE = """\
- You are {bot_name}, {bot_intro}.
- You serve ONLY tenant: {tenant_name} (tenant_id={tenant_id}).
- Rules:
  1) Never invent prices/discounts/stock/delivery/order/payment facts. Use tools or ask clarifying questions.
  2) Tenant isolation is mandatory.
  3) Payments/orders require confirmations.
  4) Respect consent (opt-out immediately).
  5) Language: respond in {response_language}; if uncertain use {default_language}.
  6) Tone: {tone_style}. Keep messages concise and actionable. Avoid long casual chat.
  7) Escalate if unsafe/uncertain."""

INTENT_CLASSIFY = """\
Classify the user message into ONE primary intent from this list:
- sales_discovery
- product_question
- support_question
- order_status
- discounts_offers
- preferences_consent
- payment_help
- human_request
- spam_casual
- unknown

Return JSON only with fields:
{{ "intent": "...", "confidence": 0-1, "notes": "short", "suggested_journey": "sales|support|orders|offers|prefs|governance" }}

User message: {user_message}"""

LANGUAGE_POLICY = """\
Decide response language. Constraints:
- Allowed: {allowed_languages}
- Default: {default_language}
- Customer preference (if set): {customer_language_pref}
- If confidence < 0.75, choose default_language.

Return JSON only:
{{ "response_language": "en|sw|sheng|mixed", "confidence": 0-1, "should_ask_language_question": true|false }}

User message: {user_message}"""

GOVERNOR_SPAM_CASUAL = """\
Determine if this conversation is business-relevant or casual/spam.
Business-relevant means: buying, product/service enquiry, order, payment, support, offers, preferences.
Casual/spam means: greetings loops, jokes, flirting, time-wasting, repeated nonsense, abusive language.

Return JSON only:
{{ "classification": "business|casual|spam|abuse", "confidence": 0-1, "recommended_action": "proceed|redirect|limit|stop|handoff" }}

Recent messages summary: {recent_summary}
Current user message: {user_message}"""

SALES_NARROW_QUERY = """\
Build a catalog search request to find the most relevant products/services.
Constraints:
- Keep limit to 6.
- If user is vague, ask ONE clarifying question instead of searching.

Return JSON only in one of two forms:
1) Search:
{{ "action": "search", "query": "...", "filters": {{ "type":"product|service|any", "category":"...", "min_price":null, "max_price":null, "tags":[] }}, "limit": 6 }}
2) Clarify:
{{ "action": "clarify", "question": "single question to narrow down", "options": ["optional short options"] }}

User message: {user_message}"""

CATALOG_PRESENT_OPTIONS = """\
Create a WhatsApp-friendly shortlist from these results (max 6).
Include: numbered list, name, price, 1-line differentiator.
End with: "Reply with the number (1-6) or tell me your budget/use-case."
If total_matches_estimate is large and results uncertain, suggest the catalog link.

Catalog results JSON: {catalog_results_json}
Catalog link base: {catalog_link_base}"""

PRODUCT_DISAMBIGUATE = """\
We are confirming a selected item for an order.
Ask ONLY for missing fields needed to proceed (quantity, variant, delivery mode).
If user is ready, restate: item + qty + total estimate (from tool totals if available).

Current state: {state_json}
Selected item details: {item_json}"""

SUPPORT_RAG_ANSWER = """\
Answer the question using ONLY the provided snippets.
If the answer is not in the snippets, say you don't have that information and offer:
- ask a clarifying question OR
- escalate to human support.

Provide a short answer and (if helpful) 1-3 bullet steps.
Do not mention "snippets" or "RAG".

Question: {user_message}
Snippets: {snippets_json}"""

OFFERS_ANSWER = """\
Explain applicable offers clearly and briefly.
Never invent offers. Use only tool output.
If user asked for a coupon code, prompt them to share code or confirm applying the best eligible offer.

Offers JSON: {offers_json}
User message: {user_message}"""

PAYMENT_ROUTER_PROMPT = """\
Choose next payment step based on enabled methods and user preference.
Rules:
- Confirm amount and order before initiating any payment.
- If user wants STK, request phone confirmation if needed.
- If user wants C2B, provide exact instructions.
- If user wants card, provide hosted checkout link.

Return JSON only:
{{ "next_action": "stk|c2b|card|clarify", "confirmation_needed": ["..."], "message_to_user": "..." }}

Enabled methods: {methods_json}
Order totals: {order_totals_json}
User message: {user_message}"""

ORDER_STATUS_RESPONSE = """\
Summarize the order status in 3-6 lines.
Include: order ref, payment status, fulfillment status, ETA.
If multiple orders, ask which one (by ref + date).
Do not invent.

Orders JSON: {orders_json}
User message: {user_message}"""

PREFS_CONSENT_RESPONSE = """\
Confirm the customer's updated preferences clearly.
If opted out, reassure: no more offers.
If opted in, clarify what they will receive and how to opt out anytime.

Updated customer JSON: {customer_json}"""

HANDOFF_MESSAGE = """\
Inform the customer that you're escalating to a human agent.
Keep it short, polite, and include expected response time if available.
Do not blame the customer.

Ticket JSON: {ticket_json}"""

# The three classifier prompts and the sale's slots in one structured-output call per turn. Each
# classifier object is exactly its node's JSON output.
CLASSIFY_TURN = """\
Answer three classification tasks and one reading task about the same customer message. Return one object:
{{ "intent_classify": {{...}}, "language_policy": {{...}}, "governor_spam_casual": {{...}}, "sale": {{...}} }}
where each classifier value is exactly the JSON its task asks for.

### intent_classify
{intent_task}

### language_policy
{language_task}

### governor_spam_casual
{governor_task}

### sale
{sale_task}"""

SALE_READING = """\
Read what the message says about a purchase, in English, Swahili or Sheng. Fill only what the customer said; leave the rest null. Never invent items, prices, codes or places.
- product: the product or service words (no quantities, places, payment words or codes)
- quantity and quantity_change: how many ("a couple" is 2, "a dozen" 12, "mbili" 2); "add" for "one more" / "ongeza moja"
- options: variant options named (colour, size, storage)
- fulfilment: delivery or pickup; zone: one of the shop's zones {zones}, when the place named is in it; place: the area or landmark words
- payment_method: one of the shop's methods {payment_methods} (mpesa_stk is an M-Pesa prompt, mpesa_c2b is Paybill or Till, pesapal is card)
- coupon_code: a code exactly as typed; remove_item, add_item, wants_to_pay: edits and a wish to pay now

Current order (may be empty): {order_json}
User message: {user_message}"""

# A customer's photo (issue 35, part 4): the words a shop assistant would search the catalog with. The picture
# states no price, stock or offer: those come from the catalog's tools.
DESCRIBE_PHOTO = """\
A customer of the shop sent this photo, perhaps asking whether the shop has it.
Answer with the words you would search the shop's catalog with: the kind of product, and the brand, size, colour
or pack shown, in at most 12 words, in English. No prices, no sentences.
If the photo does not show a product (a person, a screenshot, a receipt, a place), answer NONE.

The customer's caption: {caption}"""

RETRY_JSON = "Your previous answer was not valid JSON for this task. Return valid JSON only."
RETRY_STRUCTURED = "Your previous answer did not fit the required structure. Answer again with valid fields only."

NODE_PROMPTS: dict[str, str] = {
    "intent_classify": INTENT_CLASSIFY,
    "language_policy": LANGUAGE_POLICY,
    "governor_spam_casual": GOVERNOR_SPAM_CASUAL,
    "sales_narrow_query": SALES_NARROW_QUERY,
    "catalog_present_options": CATALOG_PRESENT_OPTIONS,
    "product_disambiguate": PRODUCT_DISAMBIGUATE,
    "support_rag_answer": SUPPORT_RAG_ANSWER,
    "offers_answer": OFFERS_ANSWER,
    "payment_router_prompt": PAYMENT_ROUTER_PROMPT,
    "order_status_response": ORDER_STATUS_RESPONSE,
    "prefs_consent_response": PREFS_CONSENT_RESPONSE,
    "handoff_message": HANDOFF_MESSAGE,
    "classify_turn": CLASSIFY_TURN,
    "sale_reading": SALE_READING,
    "describe_photo": DESCRIBE_PHOTO,
}
TEXT_NODES = frozenset(
    {
        "catalog_present_options",
        "product_disambiguate",
        "support_rag_answer",
        "offers_answer",
        "order_status_response",
        "prefs_consent_response",
        "handoff_message",
    }
)


@dataclass(frozen=True)
class PromptContext:
    """What SYSTEM_BASE and the classifier prompts need to know about the shop and the customer."""

    tenant_id: str
    tenant_name: str
    bot_name: str = "Tulia"
    bot_intro: str = "the shop's WhatsApp assistant"
    tone_style: str = "friendly_concise"
    response_language: str = "en"
    default_language: str = "en"
    allowed_languages: tuple[str, ...] = ("en", "sw", "sheng")
    customer_language_pref: str | None = None
    recent_summary: str = ""
    zones: tuple[str, ...] = ()  # the shop's delivery zones, for reading a sale
    payment_methods: tuple[str, ...] = ()  # the shop's enabled payment methods
    order_summary: str = ""  # the sale in progress, in a line

    def system(self) -> str:
        return SYSTEM_BASE.format(
            bot_name=self.bot_name,
            bot_intro=self.bot_intro,
            tenant_name=self.tenant_name,
            tenant_id=self.tenant_id,
            response_language=self.response_language,
            default_language=self.default_language,
            tone_style=self.tone_style,
        )


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def render(node: str, **values: Any) -> str:
    """Fill a node prompt. Non-string values are serialised as JSON."""
    filled = {k: v if isinstance(v, str) else as_json(v) for k, v in values.items()}
    return NODE_PROMPTS[node].format(**filled)


def classify_turn_prompt(ctx: PromptContext, user_message: str) -> str:
    return render(
        "classify_turn",
        intent_task=render("intent_classify", user_message=user_message),
        language_task=render(
            "language_policy",
            allowed_languages=", ".join(ctx.allowed_languages),
            default_language=ctx.default_language,
            customer_language_pref=ctx.customer_language_pref or "not set",
            user_message=user_message,
        ),
        governor_task=render(
            "governor_spam_casual", recent_summary=ctx.recent_summary or "(none)", user_message=user_message
        ),
        sale_task=render(
            "sale_reading",
            zones=list(ctx.zones),
            payment_methods=list(ctx.payment_methods),
            order_json=ctx.order_summary or "(none)",
            user_message=user_message,
        ),
    )


_OPENINGS = {name: prompt.splitlines()[0] for name, prompt in NODE_PROMPTS.items()}


def node_of(prompt: str) -> str | None:
    """Which node prompt a human message was rendered from (for scripted models and accounting)."""
    first = prompt.splitlines()[0] if prompt else ""
    return next((name for name, opening in _OPENINGS.items() if first == opening), None)


def user_message_of(prompt: str) -> str:
    """The customer's message inside a rendered classifier prompt (it is always the last field)."""
    at = prompt.rfind("User message: ")  # also the end of "Current user message: "
    return prompt[at + len("User message: ") :] if at >= 0 else ""
