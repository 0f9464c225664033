"""The tenant (a shop): persona, languages, payments, delivery and policies."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Literal, overload

from pydantic import AfterValidator, Field, RootModel, field_validator, model_validator

from tulia.domain.booking import BookingSettings
from tulia.domain.common import Lang, LocalText, Model, Slug
from tulia.domain.geo import GeoPoint, distance_km, in_polygon, polygon_area_km2
from tulia.domain.hours import OpeningHours
from tulia.domain.shop_words import GENERIC_WORDS, STOPWORDS, fold
from tulia.domain.templates import NAME_PATTERN as TEMPLATE_NAME_PATTERN
from tulia.errors import StateConflict

ALL_LANGUAGES: tuple[Lang, ...] = ("en", "sw", "sheng")
DEFAULT_BOOKING_HOURS = "Mon-Sat 08:00-18:00"

PaymentMethod = Literal["mpesa_stk", "mpesa_c2b", "pesapal"]
# setup: made in the console, not yet answering customers; live: answering; paused by its owner; suspended by
# the platform's operator
ShopStatus = Literal["setup", "live", "paused", "suspended"]


def _readable_hours(hours: str) -> str:
    OpeningHours.parse(hours)  # raises ValueError naming what is wrong
    return hours


# hours as an owner writes them ("Mon-Sat 08:00-19:00; Sun 10:00-16:00"), refused when they cannot be read
HoursText = Annotated[str, Field(max_length=200), AfterValidator(_readable_hours)]


class WhatsAppConfig(Model):
    phone_number_id: str = Field(min_length=1, max_length=64, pattern=r"^[0-9A-Za-z_-]+$")
    display_phone_number: str = Field(min_length=5, max_length=20)
    access_token: str | None = Field(default=None, repr=False)  # else TULIA_WHATSAPP_ACCESS_TOKEN
    # the number's two-step verification PIN, chosen when it was registered in the console (a secret)
    registration_pin: str | None = Field(default=None, repr=False, pattern=r"^\d{6}$")
    # the WhatsApp Business Account id: where the shop's message templates live (synchronised from it)
    business_account_id: str | None = Field(default=None, max_length=64, pattern=r"^[0-9A-Za-z_-]+$")


class Persona(Model):
    bot_name: str = Field(default="Tulia", min_length=1, max_length=40)
    bot_intro: str = Field(default="the shop's WhatsApp assistant", max_length=200)
    tone_style: str = Field(default="friendly_concise", max_length=40)
    # Let the model word the text nodes of spec 6.2 (with TULIA_LLM=bedrock); every fact in its
    # wording must pass the fact guard, or the template is sent.
    llm_wording: bool = False


class LanguagePolicy(Model):
    default: Lang = "en"
    allowed: list[Lang] = Field(default_factory=lambda: list(ALL_LANGUAGES), min_length=1)
    sheng_fallback: Literal["sw", "en"] = "sw"  # older packs: how Sheng speakers were answered
    # how Sheng speakers are answered: in Sheng (the main journeys have Sheng templates; the rest are
    # Swahili), in Swahili or in English. Unset: as sheng_fallback says.
    sheng_replies: Literal["sheng", "sw", "en"] | None = None

    @property
    def sheng_reply_language(self) -> Literal["sheng", "sw", "en"]:
        return self.sheng_replies or self.sheng_fallback

    @model_validator(mode="after")
    def _default_is_allowed(self) -> LanguagePolicy:
        if self.default not in self.allowed:
            raise ValueError(f"default language '{self.default}' must be one of allowed {self.allowed}")
        if len(set(self.allowed)) != len(self.allowed):
            raise ValueError("allowed languages must not repeat")
        return self


class MpesaStkConfig(Model):
    shortcode: str = Field(pattern=r"^\d{5,7}$")
    passkey: str = Field(min_length=8)
    transaction_type: Literal["CustomerPayBillOnline", "CustomerBuyGoodsOnline"] = "CustomerPayBillOnline"
    party_b: str | None = Field(default=None, pattern=r"^\d{5,7}$")  # till number for Buy Goods
    consumer_key: str | None = None
    consumer_secret: str | None = None

    @property
    def receiving_shortcode(self) -> str:
        return self.party_b or self.shortcode


class MpesaC2BConfig(Model):
    paybill: str | None = Field(default=None, pattern=r"^\d{5,7}$")
    till: str | None = Field(default=None, pattern=r"^\d{5,7}$")

    @model_validator(mode="after")
    def _one_of(self) -> MpesaC2BConfig:
        if bool(self.paybill) == bool(self.till):
            raise ValueError("give exactly one of 'paybill' or 'till'")
        return self

    @property
    def shortcode(self) -> str:
        """The Paybill or Till number customers pay (Daraja's BusinessShortCode)."""
        return str(self.paybill or self.till)


class PesapalConfig(Model):
    enabled: bool = True
    consumer_key: str | None = None
    consumer_secret: str | None = None
    ipn_id: str | None = None  # learned when the IPN URL is registered


class PaymentsConfig(Model):
    mpesa_stk: MpesaStkConfig | None = None
    mpesa_c2b: MpesaC2BConfig | None = None
    pesapal: PesapalConfig | None = None

    def enabled_methods(self) -> list[PaymentMethod]:
        methods: list[PaymentMethod] = []
        if self.mpesa_stk is not None:
            methods.append("mpesa_stk")
        if self.mpesa_c2b is not None:
            methods.append("mpesa_c2b")
        if self.pesapal is not None and self.pesapal.enabled:
            methods.append("pesapal")
        return methods


class DeliveryZone(Model):
    name: str = Field(min_length=1, max_length=60)
    fee: int = Field(ge=0, le=100_000)
    eta: LocalText
    areas: list[str] = Field(default_factory=list)  # neighbourhoods that belong to this zone
    # where a customer's location pin falls in this zone: within radius_km of the centre, or inside the polygon
    centre: GeoPoint | None = None
    radius_km: float | None = Field(default=None, gt=0, le=2000)
    polygon: list[GeoPoint] | None = Field(default=None, min_length=3, max_length=200)

    @model_validator(mode="after")
    def _one_area(self) -> DeliveryZone:
        if (self.radius_km is None) != (self.centre is None) and self.polygon is None:
            raise ValueError("a zone on the map needs its centre and radius_km together (or a polygon)")
        if self.radius_km is not None and self.polygon is not None:
            raise ValueError("give a zone a centre and radius_km, or a polygon, not both")
        return self

    @property
    def on_the_map(self) -> bool:
        return self.polygon is not None or (self.centre is not None and self.radius_km is not None)

    @property
    def area_km2(self) -> float:
        """How much of the map the zone covers (a zone not drawn on it: none)."""
        if self.polygon is not None:
            return polygon_area_km2(self.polygon)
        return math.pi * self.radius_km**2 if self.radius_km is not None else 0.0

    def covers(self, point: GeoPoint) -> bool:
        """Whether a location pin falls in this zone (a zone not drawn on the map covers no pin)."""
        if self.polygon is not None:
            return in_polygon(point, self.polygon)
        if self.centre is not None and self.radius_km is not None:
            return distance_km(self.centre, point) <= self.radius_km
        return False


def zone_at(zones: Sequence[DeliveryZone], point: GeoPoint) -> DeliveryZone | None:
    """The zone a location pin falls in. Where zones overlap, the smallest wins (the CBD's circle inside the city's,
    a neighbourhood drawn inside "rest of Kenya")."""
    covering = [z for z in zones if z.covers(point)]
    return min(covering, key=lambda z: z.area_km2) if covering else None


class PickupConfig(Model):
    enabled: bool = True
    address: LocalText | None = None
    eta: LocalText = LocalText({"en": "ready in 2 hours", "sw": "tayari baada ya saa 2"})


class CompliancePolicy(Model):
    marketing_requires_opt_in: bool = True
    escalate_sensitive_topics: bool = True
    abuse_action: Literal["refuse_and_end", "escalate"] = "refuse_and_end"


class HandoffPolicy(Model):
    """Whether a person can take over a conversation, and when. Disabled: no ticket is opened and the
    customer is told how to reach the shop (``contact``). ``hours`` (the shop's time, EAT), e.g.
    ``"Mon-Fri 08:00-18:00; Sat 09:00-13:00"``: the response time is promised only inside them;
    outside them the customer is told when the team is back."""

    enabled: bool = True
    response_time: LocalText = LocalText({"en": "within 2 hours", "sw": "ndani ya saa 2"})
    hours: HoursText | None = None
    contact: LocalText | None = None  # how to reach the shop without the bot ("call 0712 345 678")

    def opening_hours(self) -> OpeningHours | None:
        return OpeningHours.parse(self.hours) if self.hours else None


class TemplateNames(Model):
    """Which of the shop's approved templates carries each kind of message outside WhatsApp's 24-hour
    window. Body parameters, in order: order_update (customer's name, order reference, what happened),
    payment_receipt (name, amount, order reference, M-Pesa or card receipt), staff_reply (name, the
    person's name, their reply), unpaid_reminder (name, order reference, amount due; marketing),
    booking_reminder (name, service, day and time, staff member; utility, with the quick replies "I'll be
    there", "Change time", "Cancel booking"), staff_alert (to the shop's own staff: what happened, the
    console's link; utility)."""

    order_update: str = Field(default="order_update", pattern=TEMPLATE_NAME_PATTERN)
    payment_receipt: str = Field(default="payment_receipt", pattern=TEMPLATE_NAME_PATTERN)
    staff_reply: str = Field(default="staff_reply", pattern=TEMPLATE_NAME_PATTERN)
    unpaid_reminder: str = Field(default="unpaid_reminder", pattern=TEMPLATE_NAME_PATTERN)
    booking_reminder: str = Field(default="booking_reminder", pattern=TEMPLATE_NAME_PATTERN)
    staff_alert: str = Field(default="staff_alert", pattern=TEMPLATE_NAME_PATTERN)


class MessagingPolicy(Model):
    """Messages the shop sends first: templates, when marketing may go out, how fast, and the
    reminder of an order left unpaid (opted-in customers only, once; ``None``: never)."""

    templates: TemplateNames = Field(default_factory=TemplateNames)
    marketing_hours: str = Field(default="daily 08:00-20:00", max_length=200)
    broadcast_per_minute: int = Field(default=60, ge=1, le=6000)
    unpaid_reminder_after_minutes: int | None = Field(default=360, ge=5, le=7 * 24 * 60)

    @field_validator("marketing_hours")
    @classmethod
    def _readable_hours(cls, hours: str) -> str:
        OpeningHours.parse(hours)  # raises ValueError naming what is wrong
        return hours

    def marketing_allowed(self) -> OpeningHours:
        return OpeningHours.parse(self.marketing_hours)


class LimitsPolicy(Model):
    """Fair use (spec 8.4): a customer's messages per minute (past it: one slow-down message, the rest
    acknowledged but not answered), the shop's messages per minute, and its model spend per day (past
    it: the rules engine answers and an alarm fires; ``None``: no budget)."""

    customer_messages_per_minute: int = Field(default=20, ge=5, le=600)
    tenant_messages_per_minute: int = Field(default=600, ge=10, le=100_000)
    model_budget_kes_per_day: float | None = Field(default=500.0, ge=0, le=1_000_000)


_VOCAB_TERM = re.compile(r"^[a-z0-9]{2,30}$")
_VOCAB_ENTRY = re.compile(r"^[a-z0-9]+( [a-z0-9]+){0,2}$")
MAX_VOCAB_TERMS, MAX_VOCAB_ENTRIES, MAX_VOCAB_WORDS = 500, 60, 2000  # keeps the profile item small


class Vocabulary(RootModel[dict[str, list[str]]]):
    """The words a shop's customers use for what it sells: ``{term: [word or phrase, ...]}``, each
    word (or phrase of two or three words) folded to the term in search and understanding. The
    words of buying, paying, delivery and support are the same in every shop and are not allowed
    here; neither is a word given to two terms."""

    root: dict[str, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _well_formed(self) -> Vocabulary:
        shared_words = GENERIC_WORDS.keys() | STOPWORDS
        problems: list[str] = []
        if len(self.root) > MAX_VOCAB_TERMS:
            problems.append(f"at most {MAX_VOCAB_TERMS} terms")
        owner: dict[str, str] = {}
        cleaned: dict[str, list[str]] = {}
        for term, entries in self.root.items():
            if not _VOCAB_TERM.match(term):
                problems.append(f"term '{term}': one word of 2-30 lower-case letters or digits")
            elif term in shared_words:
                problems.append(f"term '{term}' is a word every shop shares; choose another term")
            if len(entries) > MAX_VOCAB_ENTRIES:
                problems.append(f"term '{term}': at most {MAX_VOCAB_ENTRIES} words")
            words: list[str] = []
            for entry in entries:
                folded = " ".join(fold(str(entry)).split())
                if not _VOCAB_ENTRY.match(folded):
                    problems.append(f"term '{term}': '{entry}' must be one to three words of letters or digits")
                elif folded in shared_words:
                    problems.append(
                        f"term '{term}': '{entry}' is a word every shop shares (buying, paying, delivery, support)"
                    )
                elif owner.get(folded, term) != term:
                    problems.append(f"'{entry}' is given to two terms: '{owner[folded]}' and '{term}'")
                else:
                    owner[folded] = term
                    words.append(folded)
            cleaned[term] = words
        problems += [
            f"'{t}' is a term and also a word of the term '{owner[t]}'" for t in cleaned if owner.get(t, t) != t
        ]
        if sum(len(words) for words in cleaned.values()) > MAX_VOCAB_WORDS:
            problems.append(f"at most {MAX_VOCAB_WORDS} words in all")
        if problems:
            raise ValueError("; ".join(problems))
        self.root = cleaned
        return self


# what belongs to the running shop rather than to its definition (a pack): never in a pack's export, and kept when a
# pack is read into a shop (tulia.packs.transfer)
RUNNING_SHOP_FIELDS = (
    "whatsapp", "status", "status_since", "status_reason", "status_before", "payments_tested",
    "catalog_version", "kb_version", "reading_version", "c2b_urls_for",
)  # fmt: skip


class Tenant(Model):
    tenant_id: Slug
    name: str = Field(min_length=1, max_length=80)
    # None: a shop made in the console that has not connected its WhatsApp number yet
    whatsapp: WhatsAppConfig | None = None
    status: ShopStatus = "live"  # a pack's shop is live when seeded; one made in the console starts in setup
    status_since: datetime | None = None  # when it last changed (a customer is told a shop is closed once per change)
    status_reason: str | None = Field(default=None, max_length=300)  # why it was paused or suspended
    status_before: ShopStatus | None = None  # what it was before (a suspended shop is resumed to it)
    # the payment methods proven end to end from the console (a test prompt approved, ...), and when; None: a shop
    # from a pack, whose methods were set up by the deployer and are all offered
    payments_tested: dict[PaymentMethod, datetime] | None = None
    trade: str | None = Field(default=None, max_length=40)  # the starter it was made from (console sign-up)
    persona: Persona = Field(default_factory=Persona)
    languages: LanguagePolicy = Field(default_factory=LanguagePolicy)
    max_chattiness_level: int = Field(default=2, ge=0, le=3)
    catalog_link_base: str | None = None
    payments: PaymentsConfig = Field(default_factory=PaymentsConfig)
    delivery_zones: list[DeliveryZone] = Field(default_factory=list)
    pickup: PickupConfig = Field(default_factory=PickupConfig)
    compliance: CompliancePolicy = Field(default_factory=CompliancePolicy)
    handoff: HandoffPolicy = Field(default_factory=HandoffPolicy)
    # when the shop is open to customers, as an owner writes it ("Mon-Sat 08:00-19:00; Sun 10:00-16:00"), and where
    # it is (one text, or one per language): answered from these, in the customer's language, before any document
    hours: HoursText | None = None
    location: LocalText | None = None
    # the words of the shop's trade (vocabulary.yaml in a pack); a change rebuilds the search index
    vocabulary: Vocabulary = Field(default_factory=Vocabulary)
    messaging: MessagingPolicy = Field(default_factory=MessagingPolicy)
    limits: LimitsPolicy = Field(default_factory=LimitsPolicy)
    # appointments for services with a duration (tenant.yaml ``bookings``); unset: the defaults below
    bookings: BookingSettings | None = None
    currency: Literal["KES"] = "KES"
    catalog_version: int = 0
    reading_version: int = 0  # raised when the owner labels a message: her shop's reading layer is read again
    kb_version: int = 0
    # the Paybill or Till whose C2B URLs Daraja last accepted for this shop (server-owned; None: set before
    # this was kept, taken as registered): a shortcode is told to customers only once its money reaches us
    c2b_urls_for: str | None = None

    def opening_hours(self) -> OpeningHours | None:
        return OpeningHours.parse(self.hours) if self.hours else None

    @field_validator("delivery_zones")
    @classmethod
    def _unique_zones(cls, zones: list[DeliveryZone]) -> list[DeliveryZone]:
        names = [z.name.casefold() for z in zones]
        if len(set(names)) != len(names):
            raise ValueError("delivery zone names must be unique")
        return zones

    @property
    def wa(self) -> WhatsAppConfig:
        """The shop's WhatsApp number, for sending: a shop that has not connected one sends nothing."""
        if self.whatsapp is None:
            raise StateConflict(f"Shop '{self.tenant_id}' has not connected a WhatsApp number yet.", field="whatsapp")
        return self.whatsapp

    @overload
    def text(self, value: LocalText, lang: str | None) -> str: ...
    @overload
    def text(self, value: None, lang: str | None) -> None: ...
    def text(self, value: LocalText | None, lang: str | None) -> str | None:
        """One of the shop's texts (an ETA, a note) in ``lang``, falling back to its default language."""
        return value.in_language(lang, self.languages.default) if value is not None else None

    def proven(self, method: PaymentMethod) -> bool:
        """Whether a configured method may be offered to customers: a shop made in the console offers a method
        once its test passed (Get started); a shop from a pack offers what the deployer set up."""
        return self.payments_tested is None or method in self.payments_tested

    def c2b_offered(self) -> MpesaC2BConfig | None:
        """The Paybill or Till customers may be told to pay: the configured one, once its C2B URLs are
        registered (after a change, Daraja would confirm its money to nobody)."""
        c2b = self.payments.mpesa_c2b
        if c2b is None or (self.c2b_urls_for is not None and self.c2b_urls_for != c2b.shortcode):
            return None
        return c2b

    @property
    def c2b_shortcode(self) -> str | None:
        """The Paybill or Till the shop lists, if it takes them."""
        return self.payments.mpesa_c2b.shortcode if self.payments.mpesa_c2b is not None else None

    def payment_methods(self) -> list[PaymentMethod]:
        """The ways customers may pay now: the enabled methods, Paybill/Till only once registered."""
        return [m for m in self.payments.enabled_methods() if m != "mpesa_c2b" or self.c2b_offered() is not None]

    def booking_settings(self) -> BookingSettings:
        """How the shop takes appointments: its ``bookings`` section, or, for a pack that sells services
        with durations and says nothing more, its team's hours (else Mon-Sat 08:00-18:00), one chair,
        no deposit."""
        if self.bookings is not None:
            return self.bookings
        return BookingSettings(hours=self.handoff.hours or DEFAULT_BOOKING_HOURS)

    def delivery_places(self) -> tuple[str, ...]:
        """Every place the shop delivers to by name: each zone and its areas."""
        return tuple(p for zone in self.delivery_zones for p in (zone.name, *zone.areas))

    def zone_named(self, name: str) -> DeliveryZone | None:
        wanted = name.strip().casefold()
        return next((z for z in self.delivery_zones if z.name.casefold() == wanted), None)
