"""A shop starts on its own: a person who signed up in the console (Cognito self sign-up, email verified)
makes her shop here. Its id (a slug) is checked unique and becomes the tenant id; it reaches her token only
through the server: this route writes the record that the token trigger (:mod:`tulia.pipeline.token_trigger`)
reads to put the shop into her next token, never anything the browser sends as a claim.

These routes take a token that names no shop yet (every other admin route refuses one), and answer only about
the caller herself: whether a shop id is free, the trades to start from, and her own shop once made."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Depends
from aws_lambda_powertools.event_handler.request import Request
from pydantic import Field, StringConstraints, model_validator

from tulia.admin.auth import SIGNUP_PREFIX, Newcomer, newcomer_of
from tulia.admin.common import Deps, View, admin_router
from tulia.domain.booking import BookingSettings
from tulia.domain.common import TENANT_ID_PATTERN, Lang
from tulia.domain.tenant import ALL_LANGUAGES, DEFAULT_BOOKING_HOURS, LanguagePolicy, Persona, Tenant
from tulia.errors import InvalidInput, StateConflict
from tulia.packs.starters import STARTERS, starter
from tulia.rag.ingest import read_document, store_document
from tulia.store.staff import StaffMember

PREFIX = SIGNUP_PREFIX
# ids a shop may not take: the product's own words and what people would mistake for it
RESERVED_IDS = frozenset(
    {"admin", "api", "app", "console", "dev", "help", "local", "platform", "support", "test", "tulia", "www"}
)
Tone = Literal["friendly_concise", "warm_chatty", "formal_polite"]


def newcomer(request: Request) -> Newcomer:
    return newcomer_of(request.resolved_event.raw_event)


Caller = Annotated[Newcomer, Depends(newcomer)]
ShopName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=80)]
BotName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class Trade(View):
    trade: str
    name: dict[str, str]
    books: bool  # a shop of this trade takes appointments


class ShopIdCheck(View):
    tenant_id: str
    available: bool
    problem: str | None = None  # why not: "malformed", "reserved", "taken"


class NewShop(View):
    name: ShopName = Field(description="The shop's name as customers know it")
    tenant_id: str = Field(description="The shop's id: lower-case letters, digits and dashes (it cannot change)")
    trade: str = Field(description="What the shop sells: picks the starter words and example FAQ")
    default_language: Lang = "en"
    languages: list[Lang] = Field(default_factory=lambda: list(ALL_LANGUAGES), min_length=1)
    bot_name: BotName = "Tulia"
    tone: Tone = "friendly_concise"
    example_items: bool = Field(
        default=True, description="Add the trade's example items, hidden from customers until she shows them"
    )

    @model_validator(mode="after")
    def _default_among_languages(self) -> NewShop:
        if self.default_language not in self.languages:
            raise ValueError("the default language must be one of the shop's languages")
        return self


class MyShop(View):
    email: str
    name: str | None
    tenant_id: str | None  # None: no shop made yet
    token_names_shop: bool  # False after making it: sign in again (refresh) for a token that names it


class ShopMade(View):
    tenant_id: str
    name: str
    status: str
    trade: str
    documents: list[str]  # the example documents added, by id
    example_items: int  # example items added (hidden until she shows them)


def problem_with(tenant_id: str) -> str | None:
    if not TENANT_ID_PATTERN.fullmatch(tenant_id) or tenant_id.endswith("-") or "--" in tenant_id:
        return "malformed"
    if tenant_id in RESERVED_IDS or tenant_id.startswith("demo-"):
        return "reserved"
    return None


router = admin_router()


@router.get(f"{PREFIX}/trades", tags=["sign-up"], summary="The trades a new shop can start from")
def trades(who: Caller) -> list[Trade]:
    return [Trade(trade=s.trade, name=s.name, books=s.books) for s in STARTERS]


@router.get(f"{PREFIX}/shop-ids/<tenant_id>", tags=["sign-up"], summary="Whether a shop id is free")
def check_shop_id(tenant_id: str, who: Caller, deps: Deps) -> ShopIdCheck:
    problem = problem_with(tenant_id)
    if problem is None and deps.services.tenants.exists(tenant_id):
        problem = "taken"
    return ShopIdCheck(tenant_id=tenant_id, available=problem is None, problem=problem)


@router.get(f"{PREFIX}/me", tags=["sign-up"], summary="You, and the shop you made (if any)")
def my_shop(who: Caller, deps: Deps) -> MyShop:
    made = deps.services.tenants.shop_of_person(who.subject)
    tenant_id = who.tenant_id or (made[0] if made else None)
    return MyShop(email=who.email, name=who.name, tenant_id=tenant_id, token_names_shop=who.tenant_id is not None)


@router.post(f"{PREFIX}/shop", tags=["sign-up"], summary="Make your shop (once): it starts in setup")
def make_shop(body: NewShop, who: Caller, deps: Deps) -> ShopMade:
    if who.tenant_id is not None:
        raise StateConflict("You already belong to a shop: sign in to it.", field="tenant_id")
    problem = problem_with(body.tenant_id)
    if problem is not None:
        raise InvalidInput(
            "Choose another shop id: lower-case letters, digits and single dashes, 2 to 48 of them"
            if problem == "malformed"
            else "That shop id is kept for Tulia itself: choose another.",
            field="tenant_id",
            code=f"shop_id_{problem}",
        )
    start = starter(body.trade)
    if start is None:
        raise InvalidInput(f"Unknown trade '{body.trade}'.", field="trade")
    now = deps.services.clock()
    tenant = Tenant(
        tenant_id=body.tenant_id,
        name=body.name,
        status="setup",
        status_since=now,
        payments_tested={},  # its methods are offered once proven (Get started)
        trade=start.trade,
        persona=Persona(bot_name=body.bot_name, tone_style=body.tone),
        languages=LanguagePolicy(default=body.default_language, allowed=list(dict.fromkeys(body.languages))),
        vocabulary=start.vocabulary,
        bookings=BookingSettings(hours=DEFAULT_BOOKING_HOURS) if start.books else None,
    )
    owner = StaffMember(email=who.email, name=who.name, role="owner", invited_at=now, invited_by=None)
    deps.services.tenants.create(tenant, owner=owner, subject=who.subject, at=now)
    faq = read_document("faq/questions-customers-ask.md", start.faq(body.name).encode("utf-8"))
    store_document(deps.services, tenant.tenant_id, faq, now=now)
    deps.services.tenants.bump_version(tenant.tenant_id, "kb_version")
    examples = start.catalog(tenant.tenant_id) if body.example_items else []
    if examples:
        deps.services.catalog.put_many(examples)
        deps.services.tenants.bump_version(tenant.tenant_id, "catalog_version")
    deps.audit.record(
        tenant.tenant_id,
        actor=who.email,
        role="owner",
        action="shop.created",
        target=tenant.tenant_id,
        at=now,
        details={
            "name": body.name,
            "trade": start.trade,
            "languages": tenant.languages.allowed,
            "example_items": len(examples),
        },
    )
    return ShopMade(
        tenant_id=tenant.tenant_id,
        name=tenant.name,
        status=tenant.status,
        trade=start.trade,
        documents=[faq.doc_id],
        example_items=len(examples),
    )
