"""Offers and coupons: list, get, create or replace (PUT by offer id, idempotent), delete. Owner only.
The same model rules the tools apply (dates, percent at most 100, code format, limits), and every
category an offer names must exist in the catalog. Redemption counts are the store's, never the
client's."""

from tulia.admin.common import AdminDeps, Deleted, Deps, Owner, Page, admin_router, audit, input_model
from tulia.domain.common import NAIROBI
from tulia.domain.offer import OFFER_STATES, Offer, OfferState, offer_state
from tulia.errors import InvalidInput, NotFound

OfferInput = input_model(Offer, "OfferInput", exclude=("tenant_id", "offer_id", "redemptions"))


router = admin_router()


def find(deps: AdminDeps, tenant_id: str, offer_id: str) -> Offer:
    offer = deps.services.offers.find(tenant_id, offer_id)
    if offer is None:
        raise NotFound(f"No offer '{offer_id}'.", field="offer_id")
    return offer


class OfferView(Offer):
    """An offer as the console lists it: with where it stands today."""

    state: OfferState


@router.get("/admin/offers", tags=["offers"], summary="Every offer and coupon of the shop")
def list_offers(who: Owner, deps: Deps) -> Page[OfferView]:
    """Live offers first (ending soonest first), then those still to start (soonest first), then the ones that
    ended (most recent first) or were switched off; the console marks each by ``offer_state``."""
    today = deps.services.clock().astimezone(NAIROBI).date()

    def order(o: Offer) -> tuple[int, int, str]:
        state = offer_state(o, today)
        day = {"live": o.valid_to.toordinal(), "upcoming": o.valid_from.toordinal()}.get(state, -o.valid_to.toordinal())
        return (OFFER_STATES.index(state), day, o.offer_id)

    offers = sorted(deps.services.offers.all_for(who.tenant_id), key=order)
    return Page[OfferView](items=[OfferView(**o.model_dump(), state=offer_state(o, today)) for o in offers])


@router.get("/admin/offers/<offer_id>", tags=["offers"], summary="One offer")
def get_offer(offer_id: str, who: Owner, deps: Deps) -> Offer:
    return find(deps, who.tenant_id, offer_id)


@router.put("/admin/offers/<offer_id>", tags=["offers"], summary="Create or replace an offer")
def put_offer(
    offer_id: str,
    body: OfferInput,  # type: ignore[valid-type]
    who: Owner,
    deps: Deps,
) -> Offer:
    if not offer_id or len(offer_id) > 64 or "#" in offer_id:
        raise InvalidInput("The offer id must be 1 to 64 characters without '#'.", field="offer_id")
    existing = deps.services.offers.find(who.tenant_id, offer_id)
    redemptions = existing.redemptions if existing else 0
    offer = Offer.model_validate(
        {
            **body.model_dump(),  # type: ignore[attr-defined]
            "tenant_id": who.tenant_id,
            "offer_id": offer_id,
            "redemptions": redemptions,
        }
    )
    if offer.categories:
        known = {i.category.casefold() for i in deps.services.catalog.iter_all(who.tenant_id)}
        unknown = [c for c in offer.categories if c.casefold() not in known]
        if unknown:
            raise InvalidInput(
                f"Unknown categor{'y' if len(unknown) == 1 else 'ies'}: {', '.join(unknown)}.", field="categories"
            )
    if offer.code:
        clash = [
            o for o in deps.services.offers.all_for(who.tenant_id) if o.code == offer.code and o.offer_id != offer_id
        ]
        if clash:
            raise InvalidInput(f"Code {offer.code} is already used by offer '{clash[0].offer_id}'.", field="code")
    deps.services.offers.put_many([offer])
    audit(deps, who, "offer.replace" if existing else "offer.create", offer_id)
    return offer


@router.delete("/admin/offers/<offer_id>", tags=["offers"], summary="Delete an offer")
def delete_offer(offer_id: str, who: Owner, deps: Deps) -> Deleted:
    find(deps, who.tenant_id, offer_id)
    deps.services.offers.delete_many(who.tenant_id, [offer_id])
    audit(deps, who, "offer.delete", offer_id)
    return Deleted(deleted=True, id=offer_id)
