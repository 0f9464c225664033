"""Tenant profiles, and the route from a WhatsApp phone_number_id to its tenant."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tulia.domain.tenant import Tenant
from tulia.errors import InvalidInput, NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key
from tulia.store.staff import StaffMember
from tulia.store.tables import TENANTS

if TYPE_CHECKING:
    from tulia.credentials import TenantSecrets


@dataclass(frozen=True)
class ShopSummary:
    tenant_id: str
    name: str
    status: str
    status_since: str | None
    status_reason: str | None
    trade: str | None
    display_phone_number: str | None


def _summary(item: dict[str, Any]) -> ShopSummary:
    whatsapp = item.get("whatsapp") or {}
    return ShopSummary(
        tenant_id=str(item["tenant_id"]),
        name=str(item.get("name") or ""),
        status=str(item.get("status") or "live"),
        status_since=item.get("status_since"),
        status_reason=item.get("status_reason"),
        trade=item.get("trade"),
        display_phone_number=whatsapp.get("display_phone_number") if isinstance(whatsapp, dict) else None,
    )


class TenantRepo:
    """Tenant profiles. ``get`` keeps a profile for ``cache_seconds`` (every tool of a turn needs it);
    a save or version bump through this repository drops the cached copy at once, and other
    containers see a change within ``cache_seconds``.

    With ``secrets`` (AWS), a tenant's credentials live in its Secrets Manager secret: ``save`` takes
    them out of the stored profile, and every read puts them back."""

    def __init__(self, db: Dynamo, *, cache_seconds: float = 15.0, secrets: TenantSecrets | None = None) -> None:
        self.db = db
        self.cache_seconds = cache_seconds
        self.secrets = secrets
        self._cache: dict[str, tuple[float, Tenant]] = {}

    @staticmethod
    def key(tenant_id: str) -> Key:
        return Key(TENANTS, keys.tenant_pk(tenant_id), keys.PROFILE)

    def from_item(self, item: dict[str, Any]) -> Tenant:
        """The stored profile as a tenant, with its credentials when they live in a secret."""
        if self.secrets is None:
            return from_item(Tenant, item)
        tenant_id = str(item.get("tenant_id", ""))
        try:
            return from_item(Tenant, self.secrets.join(tenant_id, dict(item)))
        except ValidationError as exc:
            from tulia.errors import TuliaError

            raise TuliaError(
                f"Tenant '{tenant_id}' is incomplete ({exc.errors()[0]['loc']}): "
                f"are its credentials in secret '{self.secrets.name(tenant_id)}'?",
                field="tenant_id",
            ) from exc

    def get(self, tenant_id: str) -> Tenant:
        cached = self._cache.get(tenant_id)
        if cached is not None and time.monotonic() - cached[0] < self.cache_seconds:
            return cached[1]
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.PROFILE)
        if item is None:
            raise NotFound(f"Unknown tenant '{tenant_id}'.", field="tenant_id")
        tenant = self.from_item(item)
        self._cache[tenant_id] = (time.monotonic(), tenant)
        return tenant

    def find(self, tenant_id: str) -> Tenant | None:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.PROFILE)
        return self.from_item(item) if item else None

    def exists(self, tenant_id: str) -> bool:
        """Whether the tenant exists (its credentials are not read)."""
        return self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.PROFILE) is not None

    def tenant_for_phone_number_id(self, phone_number_id: str) -> str | None:
        item = self.db.get(TENANTS, keys.phone_number_route_pk(phone_number_id), keys.ROUTE)
        return item["tenant_id"] if item else None

    def save(
        self,
        tenant: Tenant,
        *,
        previous_phone_number_id: str | None = None,
        previous_c2b_shortcode: str | None = None,
    ) -> None:
        """Write the profile and claim its phone_number_id (refused when another tenant owns it)."""
        self._cache.pop(tenant.tenant_id, None)
        number = tenant.whatsapp.phone_number_id if tenant.whatsapp else None
        item = to_item(tenant, pk=keys.tenant_pk(tenant.tenant_id), sk=keys.PROFILE)
        if self.secrets is not None:  # the secret first: a stored profile never lacks its credentials
            item, credentials = self.secrets.split(item)
            self.secrets.save(tenant.tenant_id, credentials)
        ops: list[dict[str, Any]] = [{"Put": {"table": TENANTS, "item": item}}]
        if number is not None:  # the number's messages come to this shop
            ops.append(
                {
                    "Put": {
                        "table": TENANTS,
                        "item": {
                            "pk": keys.phone_number_route_pk(number),
                            "sk": keys.ROUTE,
                            "tenant_id": tenant.tenant_id,
                        },
                        "condition": "attribute_not_exists(pk) OR tenant_id = :t",
                        "values": {":t": tenant.tenant_id},
                    }
                }
            )
        code = tenant.c2b_shortcode
        if code is not None:  # who names which Paybill/Till: an owner may not take another shop's
            ops.append(
                {
                    "Put": {
                        "table": TENANTS,
                        "item": {
                            "pk": keys.c2b_shortcode_pk(code),
                            "sk": tenant.tenant_id,
                            "tenant_id": tenant.tenant_id,
                        },
                    }
                }
            )
        if previous_c2b_shortcode and previous_c2b_shortcode != code:
            ops.append(
                {
                    "Delete": {
                        "table": TENANTS,
                        "pk": keys.c2b_shortcode_pk(previous_c2b_shortcode),
                        "sk": tenant.tenant_id,
                    }
                }
            )
        if previous_phone_number_id and previous_phone_number_id != number:
            ops.append(
                {
                    "Delete": {
                        "table": TENANTS,
                        "pk": keys.phone_number_route_pk(previous_phone_number_id),
                        "sk": keys.ROUTE,
                        "condition": "tenant_id = :t",
                        "values": {":t": tenant.tenant_id},
                    }
                }
            )
        try:
            self.db.transact(ops, conflict_message="phone number already used")
        except StateConflict as exc:
            raise InvalidInput(
                f"WhatsApp phone_number_id {number} already belongs to another tenant.",
                field="whatsapp.phone_number_id",
            ) from exc

    def create(self, tenant: Tenant, *, owner: StaffMember, subject: str, at: datetime) -> None:
        """A shop made by the person who signed up (Cognito ``sub``): its profile, her place on its staff as
        owner, and the record that puts the shop into her token, in one transaction. Refused, changing nothing,
        when the shop id is taken or she already made a shop."""
        if self.exists(tenant.tenant_id):
            raise StateConflict(f"The shop id '{tenant.tenant_id}' is taken: choose another.", field="tenant_id")
        if self.shop_of_person(subject) is not None:
            raise StateConflict("You have already made a shop: sign in again to open it.", field="sub")
        item = to_item(tenant, pk=keys.tenant_pk(tenant.tenant_id), sk=keys.PROFILE)
        if self.secrets is not None:
            item, credentials = self.secrets.split(item)
            self.secrets.save(tenant.tenant_id, credentials)
        person = {
            "pk": keys.person_pk(subject),
            "sk": keys.SHOP,
            "tenant_id": tenant.tenant_id,
            "role": owner.role,
            "email": owner.email,
            "created_at": at.isoformat(),
        }
        staff = to_item(owner, pk=keys.tenant_pk(tenant.tenant_id), sk=keys.staff_sk(owner.email))
        self.db.transact(
            [
                {"Put": {"table": TENANTS, "item": item, "condition": "attribute_not_exists(pk)"}},
                {"Put": {"table": TENANTS, "item": person, "condition": "attribute_not_exists(pk)"}},
                {"Put": {"table": TENANTS, "item": staff}},
            ],
            conflict_message="The shop id was taken, or you made a shop, at the same moment: try again.",
        )
        self._cache.pop(tenant.tenant_id, None)

    def set_status(
        self, tenant_id: str, status: str, *, was: tuple[str, ...], at: datetime, reason: str | None = None
    ) -> None:
        """Move the shop to ``status`` if it is in one of ``was`` (a profile stored before shops had a status is
        live), in one conditional update: two people pausing and resuming at once cannot both win."""
        names = {"#s": "status"}
        values: dict[str, Any] = {":s": status, ":t": at.isoformat(), ":r": reason, ":live": "live"}
        allowed = []
        for n, old in enumerate(was):
            values[f":w{n}"] = old
            allowed.append(f"#s = :w{n}")
        if "live" in was:
            allowed.append("attribute_not_exists(#s)")
        self.db.update(
            TENANTS,
            keys.tenant_pk(tenant_id),
            keys.PROFILE,
            update="SET status_before = if_not_exists(#s, :live), #s = :s, status_since = :t, status_reason = :r",
            condition=f"attribute_exists(pk) AND ({' OR '.join(allowed)})",
            names=names,
            values=values,
            conflict_message=f"The shop is not {' or '.join(was)} any more.",
        )
        self._cache.pop(tenant_id, None)

    def summaries(self) -> list[ShopSummary]:
        """Every shop, as the platform operator lists them: read from the stored profiles as they are (their
        credentials, in secrets, are not needed and not read)."""
        found = (_summary(item) for item in self.db.scan_sk(TENANTS, keys.PROFILE) if "tenant_id" in item)
        return sorted(found, key=lambda s: s.tenant_id)

    def summary(self, tenant_id: str) -> ShopSummary | None:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.PROFILE)
        return _summary(item) if item else None

    def mark_tested(self, tenant_id: str, method: str, at: datetime) -> bool:
        """A payment method proven from the console: offered to customers from now on. Only a shop whose methods
        wait for a test (one made in the console) keeps the list; a shop from a pack offers all it has."""
        try:
            self.db.update(
                TENANTS,
                keys.tenant_pk(tenant_id),
                keys.PROFILE,
                update="SET payments_tested.#m = :t",
                condition="attribute_type(payments_tested, :map)",
                names={"#m": method},
                values={":t": at.isoformat(), ":map": "M"},
            )
        except StateConflict:
            return False
        self._cache.pop(tenant_id, None)
        return True

    def shop_of_person(self, subject: str) -> tuple[str, str] | None:
        """The shop a person made at sign-up and her role in it, by her Cognito ``sub`` (None: none)."""
        item = self.db.get(TENANTS, keys.person_pk(subject), keys.SHOP)
        return (str(item["tenant_id"]), str(item["role"])) if item else None

    def bump_version(self, tenant_id: str, which: str) -> int:
        """Increase ``catalog_version``, ``kb_version`` or ``reading_version`` so cached indexes (search, the shop's
        reading layer) are rebuilt."""
        if which not in ("catalog_version", "kb_version", "reading_version"):
            raise ValueError(which)
        self._cache.pop(tenant_id, None)
        attrs = self.db.update(
            TENANTS,
            keys.tenant_pk(tenant_id),
            keys.PROFILE,
            update="SET #v = if_not_exists(#v, :zero) + :one",
            condition="attribute_exists(pk)",
            names={"#v": which},
            values={":zero": 0, ":one": 1},
            conflict_message=f"Unknown tenant '{tenant_id}'.",
        )
        return int(attrs[which])

    def set_c2b_urls_for(self, tenant_id: str, shortcode: str) -> None:
        """Daraja accepted the tenant's C2B URLs for ``shortcode``."""
        self._cache.pop(tenant_id, None)
        self.db.update(
            TENANTS,
            keys.tenant_pk(tenant_id),
            keys.PROFILE,
            update="SET c2b_urls_for = :code",
            condition="attribute_exists(pk)",
            values={":code": shortcode},
        )

    def c2b_shortcode_users(self, shortcode: str) -> list[str]:
        """The tenants whose payment settings name this Paybill or Till."""
        return [str(i["tenant_id"]) for i in self.db.query_all(TENANTS, keys.c2b_shortcode_pk(shortcode))]

    def set_pesapal_ipn_id(self, tenant_id: str, ipn_id: str) -> None:
        self.db.update(
            TENANTS,
            keys.tenant_pk(tenant_id),
            keys.PROFILE,
            update="SET payments.pesapal.ipn_id = :id",
            condition="attribute_exists(payments.pesapal)",
            values={":id": ipn_id},
        )

    # C2B callback URLs carry a secret per-tenant token (Daraja callbacks are unsigned)
    def c2b_token(self, tenant_id: str) -> str:
        """The tenant's C2B URL token, created on first use."""
        import secrets

        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.C2B)
        if item:
            return str(item["token"])
        token = secrets.token_hex(16)
        try:
            self.db.transact(
                [
                    {
                        "Put": {
                            "table": TENANTS,
                            "item": {"pk": keys.tenant_pk(tenant_id), "sk": keys.C2B, "token": token},
                            "condition": "attribute_not_exists(pk)",
                        }
                    },
                    {
                        "Put": {
                            "table": TENANTS,
                            "item": {"pk": keys.c2b_token_route_pk(token), "sk": keys.ROUTE, "tenant_id": tenant_id},
                        }
                    },
                ],
                conflict_message="C2B token created concurrently",
            )
        except StateConflict:
            item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.C2B)
            return str(item["token"]) if item else token
        return token

    def tenant_for_c2b_token(self, token: str) -> str | None:
        item = self.db.get(TENANTS, keys.c2b_token_route_pk(token), keys.ROUTE)
        return str(item["tenant_id"]) if item else None
