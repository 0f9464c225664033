"""What the shop states in its settings, answered from those fields in the customer's language (issue 53).

A shop's opening hours, where it is, where it delivers and for how much, and how customers pay are facts of its
settings (``tenant.yaml``, the console's Settings), not of its documents: a question about them is answered from
them, before any document, in the language the customer writes (a document may hold the same fact in English only,
or an older, contradicting one). Each fact is a short text said in her language; a question is matched to what
each is about by the same search as the documents (BM25 over the shop words, Swahili and Sheng folded to English:
"saa ngapi mnafungua" finds the opening hours, "duka liko wapi" the location). Nothing here is invented: a shop that
states no hours (and takes no appointments) has no hours fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import time
from typing import TYPE_CHECKING, Literal

from tulia.domain.hours import OpeningHours
from tulia.domain.kb import KbChunk
from tulia.nlg.templates import clock_words, render, weekday_name
from tulia.rag.embedded import KbIndex, coverage_of, kinds_asked, kinds_held
from tulia.search.text import terms

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tulia.domain.booking import BookingSettings
    from tulia.domain.tenant import DeliveryZone, Tenant

FACT_COVERAGE = 0.5  # the share of a question's shop words a fact must hold to answer it
FactKind = Literal["hours", "location", "delivery", "payment", "booking"]
# what each fact is about, in the shop words its questions fold to (the heading of its passage)
ABOUT: dict[FactKind, str] = {
    "hours": "Opening hours: open, close, time",
    "location": "Location: where the shop is, address, directions",
    "delivery": "Delivery: we deliver to areas, fee",
    "payment": "Payment: how to pay, methods, card",
    "booking": "Appointments: book, deposit payment, balance, when, cancel, change, move, notice, refund",
}


@dataclass(frozen=True)
class ShopFact:
    kind: FactKind
    text: str  # in the customer's language
    names: str = ""  # what else a question about it may name: the zones and their areas, the shop's own words
    coverage: float = 0.0  # the share of the question's shop words it holds (once matched to a question)


def shop_facts(tenant: Tenant, lang: str) -> list[ShopFact]:
    """The shop's stated facts, each in ``lang`` (Sheng as the shop answers Sheng)."""
    sheng = tenant.languages.sheng_reply_language
    out: list[ShopFact] = []
    hours = tenant.opening_hours()
    if hours is None and tenant.bookings is not None:  # a shop that books: open when it takes appointments
        hours = OpeningHours.parse(tenant.bookings.hours)
    if hours is not None:
        days = "monday tuesday wednesday thursday friday saturday sunday weekend today tomorrow " + " ".join(
            weekday_name(d, "sw") for d in range(7)
        )
        out.append(ShopFact("hours", render("fact_hours", lang, sheng, hours=hours_words(hours, lang, sheng)), days))
    place = tenant.text(tenant.location, lang) or (
        tenant.text(tenant.pickup.address, lang) if tenant.pickup.enabled else None
    )
    if place:
        out.append(ShopFact("location", render("fact_location", lang, sheng, place=place)))
    if tenant.delivery_zones:
        out.append(delivery_fact(tenant, lang, tenant.delivery_zones))
    methods = payment_words(tenant, lang, sheng)
    if methods:
        out.append(ShopFact("payment", render("fact_payment", lang, sheng, methods=methods)))
    if tenant.bookings is not None:
        out.append(ShopFact("booking", booking_words(tenant.bookings, lang, sheng)))
    return out


def delivery_fact(tenant: Tenant, lang: str, zones: Sequence[DeliveryZone]) -> ShopFact:
    """Where the shop delivers (these of its zones), for how much and how soon, and where to pick up instead."""
    sheng = tenant.languages.sheng_reply_language
    listed = "\n".join(
        render(
            "fact_zone",
            lang,
            sheng,
            zone=z.name,
            areas=f" ({', '.join(z.areas)})" if z.areas else "",
            fee=render("fact_free", lang, sheng) if z.fee == 0 else f"KES {z.fee:,}",
            eta=tenant.text(z.eta, lang),
        )
        for z in zones
    )
    pickup = ""
    if tenant.pickup.enabled and tenant.pickup.address is not None:
        pickup = "\n" + render("fact_pickup", lang, sheng, place=tenant.text(tenant.pickup.address, lang))
    names = " ".join(f"{z.name} {' '.join(z.areas)}" for z in tenant.delivery_zones)
    return ShopFact("delivery", render("fact_delivery", lang, sheng, zones=listed) + pickup, names)


def zones_named(tenant: Tenant, question: str) -> list[DeliveryZone]:
    """The shop's zones a question names, by their names or their areas ("mnaleta mpaka Kitengela?")."""
    plain = f" {' '.join(terms(question, drop_stopwords=False))} "
    return [
        z
        for z in tenant.delivery_zones
        if any(f" {' '.join(terms(p, drop_stopwords=False))} " in plain for p in (z.name, *z.areas) if terms(p))
    ]


def booking_words(settings: BookingSettings, lang: str, sheng: str = "sw") -> str:
    """The shop's deposit and its rule for changing or cancelling an appointment (a service may set its own deposit:
    the shop's is said as what applies unless the service says otherwise)."""
    d = settings.deposit
    deposit = (
        render("fact_no_deposit", lang, sheng)
        if d is None
        else render(
            "fact_deposit",
            lang,
            sheng,
            deposit=render("fact_share_of_price", lang, sheng, percent=d.percent) if d.percent else f"KES {d.amount:,}",
        )
    )
    p = settings.policy
    keep = {"refund": render("fact_refunded", lang, sheng), "keep": render("fact_kept", lang, sheng)}
    rule = render(
        "fact_change_rule", lang, sheng, hours=p.notice_hours, early=keep[p.early_cancel], late=keep[p.late_cancel]
    )
    return f"{deposit} {rule}"


def answer_from_facts(tenant: Tenant, question: str, lang: str) -> ShopFact | None:
    """The stated fact that answers ``question``, in ``lang``; None when no fact holds enough of its words (then
    the documents are asked): matched by what each is about, in the shop words both languages fold to. A message
    that says more than its question ("duka lenu liko wapi? niko town kesho") is answered for its question."""
    fact = _fact_for(tenant, question, lang)
    asked = " ".join(part for part in re.split(r"(?<=\?)", question) if part.rstrip().endswith("?"))
    if fact is None and asked and asked.strip() != question.strip():
        return _fact_for(tenant, asked, lang)
    return fact


def _fact_for(tenant: Tenant, question: str, lang: str) -> ShopFact | None:
    facts = {f.kind: f for f in shop_facts(tenant, lang)}
    if not facts:
        return None
    # matched on what each fact is about and the names it holds, never on the words of its answer (a zone's "within
    # 2 hours" does not answer "what time do you open")
    chunks = [
        KbChunk(
            tenant_id=tenant.tenant_id,
            doc_id=f"fact:{kind}",
            version=0,
            position=n,
            title=ABOUT[kind],
            section=None,
            source_type="faq",
            text=fact.names,
        )
        for n, (kind, fact) in enumerate(facts.items())
    ]
    # the kind of answer each holds is read from its answer; the zones' times are how long delivery takes ("ndani ya
    # saa 2", "siku hiyo hiyo")
    timed = any(zone.eta for zone in tenant.delivery_zones)
    holds = [
        kinds_held(fact.text) | ({"duration"} if kind == "delivery" and timed else set())
        for kind, fact in facts.items()
    ]
    found = KbIndex(chunks, holds).search(question, top_k=1, min_coverage=FACT_COVERAGE)
    if not found:
        return None
    # a question that also names what another fact is about asks something neither answers alone: "until what time
    # do you deliver?" is neither the opening hours nor the zones and fees, and goes to the documents
    kind_found: FactKind = found[0].chunk.doc_id.split(":", 1)[1]  # type: ignore[assignment]
    own = set(terms(f"{ABOUT[kind_found]} {facts[kind_found].names}"))
    if kind_found == "delivery" and "duration" in kinds_asked(question):
        own |= set(terms("time"))  # "inachukua muda gani kufika?": how long delivery takes is each zone's time
    others = {t for kind, about in ABOUT.items() if kind != kind_found for t in terms(about)}
    if any(t in others and t not in own for t in terms(question)):
        return None
    fact = facts[kind_found]
    if kind_found == "delivery" and len(named := zones_named(tenant, question)) == 1:
        fact = delivery_fact(tenant, lang, named)  # the zone she asked about, not all of them
    return replace(fact, coverage=found[0].coverage)


def covered_by(passage: str, question: str) -> float:
    """The share of a question's shop words a document's passage holds (to weigh a fact against it)."""
    asked, held = terms(question), set(terms(passage))
    return coverage_of(sum(t in held for t in asked), asked)


def hours_words(hours: OpeningHours, lang: str, sheng: str = "sw") -> str:
    """ "Monday to Saturday 8:00 am to 7:00 pm, Sunday 10:00 am to 4:00 pm" / "Jumatatu hadi Jumamosi saa 2
    asubuhi hadi saa 1 jioni, ...": consecutive days with the same times said once; days not named are closed."""
    by_day: dict[int, tuple[tuple[time, time], ...]] = {}
    for w in hours.windows:
        by_day[w.day] = (*by_day.get(w.day, ()), (w.opens, w.closes))
    runs: list[tuple[int, int, tuple[tuple[time, time], ...]]] = []
    for day in range(7):
        spans = by_day.get(day)
        if spans is None:
            continue
        if runs and runs[-1][1] == day - 1 and runs[-1][2] == spans:
            runs[-1] = (runs[-1][0], day, spans)
        else:
            runs.append((day, day, spans))
    parts = []
    for first, last, spans in runs:
        days = weekday_name(first, lang, sheng)
        if last != first:
            days = render("fact_day_range", lang, sheng, first=days, last=weekday_name(last, lang, sheng))
        said = render("fact_and", lang, sheng).join(
            render("fact_span", lang, sheng, opens=clock_words(a, lang, sheng), closes=clock_words(b, lang, sheng))
            for a, b in spans
        )
        parts.append(f"{days} {said}")
    closed = [weekday_name(d, lang, sheng) for d in range(7) if d not in by_day]
    text = ", ".join(parts)
    if closed:
        text += render("fact_closed", lang, sheng, days=", ".join(closed))
    return text


def payment_words(tenant: Tenant, lang: str, sheng: str = "sw") -> str:
    """The ways customers may pay this shop, with the shop's own numbers: only methods it offers."""
    p = tenant.payments
    ways = []
    if p.mpesa_stk is not None and tenant.proven("mpesa_stk"):
        ways.append(render("fact_pay_stk", lang, sheng))
    c2b = tenant.c2b_offered()
    if c2b is not None and tenant.proven("mpesa_c2b"):
        if c2b.till:
            ways.append(render("fact_pay_till", lang, sheng, till=c2b.till))
        else:
            ways.append(render("fact_pay_paybill", lang, sheng, paybill=c2b.paybill))
    if p.pesapal is not None and p.pesapal.enabled and tenant.proven("pesapal"):
        ways.append(render("fact_pay_card", lang, sheng))
    return "; ".join(ways)
