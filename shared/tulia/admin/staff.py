"""Who runs the shop: the caller (``/admin/me``, staff) and the shop's staff (owner only): invite an
agent or an owner, list them, remove one.

An invitation creates the person in the staff user pool (Cognito) with the shop's immutable
``custom:tenant_id`` and a temporary password; Cognito also emails it where email is set up. The
owner sees the temporary password once (small shops often pass it on in person or on WhatsApp); at
first sign-in the person chooses their own. The shop's list is kept in its own partition, and a
removal checks the pool user's shop before deleting it, so no shop can touch another's staff."""

import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, Literal, cast
from urllib.parse import unquote

from pydantic import Field, StringConstraints

from tulia.admin.auth import TENANT_CLAIM
from tulia.admin.common import AdminDeps, Deleted, Deps, Owner, Staff, View, admin_router, audit
from tulia.errors import NotFound, ProviderUnavailable, StateConflict
from tulia.store.alerts import AlertRepo
from tulia.store.staff import StaffMember, StaffRepo, StaffRole

EMAIL_PATTERN = r"^[^@\s#]{1,64}@[^@\s#]{1,185}\.[A-Za-z]{2,63}$"
StaffStatus = Literal["invited", "active", "disabled", "unknown"]


class Me(View):
    tenant_id: str
    shop_name: str
    email: str | None
    name: str | None  # as the shop's staff list has it
    roles: list[str]
    languages: list[str]
    default_language: str
    takes_bookings: bool  # the shop sells services with a time (or has an appointment book): the Bookings screen
    status: str  # setup (made in the console, not answering yet), live, paused, suspended


PersonName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


class InviteBody(View):
    name: PersonName | None = Field(default=None, description="What the shop calls them, shown beside their work")
    email: str = Field(pattern=EMAIL_PATTERN, max_length=254, description="Their sign-in name")
    role: StaffRole = Field(description="agent: inbox, orders, catalog reading; owner: everything")


class StaffUser(View):
    email: str
    name: str | None
    role: StaffRole
    status: StaffStatus  # invited: has not chosen a password yet
    invited_at: str
    invited_by: str | None


class NameBody(View):
    name: PersonName


class StaffName(View):
    email: str
    name: str


class Invitation(View):
    member: StaffUser
    temporary_password: str  # shown once; the person chooses their own at first sign-in


def temporary_password() -> str:
    """Meets Cognito's default policy: 8+ characters with upper, lower, digit and symbol."""
    alphabet = string.ascii_letters + string.digits
    body = "".join(secrets.choice(alphabet) for _ in range(10))
    return f"Tu{body}7!"


@dataclass
class StaffDirectory:
    """The staff user pool: create a person of a shop in a role, read their status, delete them."""

    connect: Callable[[], Any]  # makes the boto3 cognito-idp client, on first use (not at cold start)
    user_pool_id: str
    send_email: bool = True  # Cognito sends the invitation (AWS); the local stand-in cannot

    @cached_property
    def idp(self) -> Any:
        return self.connect()

    def create(self, tenant_id: str, email: str, role: str, password: str, name: str | None = None) -> None:
        extra: dict[str, Any] = (
            {"DesiredDeliveryMediums": ["EMAIL"]} if self.send_email else {"MessageAction": "SUPPRESS"}
        )
        try:
            self.idp.admin_create_user(
                UserPoolId=self.user_pool_id,
                Username=email,
                TemporaryPassword=password,
                UserAttributes=[
                    {"Name": "email", "Value": email},
                    {"Name": "email_verified", "Value": "true"},
                    {"Name": TENANT_CLAIM, "Value": tenant_id},
                    *([{"Name": "name", "Value": name}] if name else []),
                ],
                **extra,
            )
        except self.idp.exceptions.UsernameExistsException as exc:
            raise StateConflict(f"{email} already has a Tulia account.", field="email") from exc
        self.idp.admin_add_user_to_group(UserPoolId=self.user_pool_id, Username=email, GroupName=role)

    def user(self, email: str) -> dict[str, Any] | None:
        try:
            return dict(self.idp.admin_get_user(UserPoolId=self.user_pool_id, Username=email))
        except self.idp.exceptions.UserNotFoundException:
            return None

    def delete(self, email: str) -> None:
        """Sign the person out everywhere (their refresh tokens revoked), then delete them."""
        try:
            self.idp.admin_user_global_sign_out(UserPoolId=self.user_pool_id, Username=email)
            self.idp.admin_delete_user(UserPoolId=self.user_pool_id, Username=email)
        except self.idp.exceptions.UserNotFoundException:
            return


def shop_of(user: dict[str, Any]) -> str | None:
    attributes = {a["Name"]: a["Value"] for a in user.get("UserAttributes", [])}
    return attributes.get(TENANT_CLAIM)


def status_of(user: dict[str, Any] | None) -> StaffStatus:
    if user is None:
        return "unknown"
    if not user.get("Enabled", True):
        return "disabled"
    return "invited" if user.get("UserStatus") == "FORCE_CHANGE_PASSWORD" else "active"


def view(member: StaffMember, status: StaffStatus) -> StaffUser:
    return StaffUser(
        email=member.email,
        name=member.name,
        role=member.role,
        status=status,
        invited_at=member.invited_at.isoformat(),
        invited_by=member.invited_by,
    )


router = admin_router()


def directory(
    deps: AdminDeps,
) -> StaffDirectory:
    if deps.staff is None:
        raise ProviderUnavailable("The staff user pool is not configured for the admin API.")
    return cast(StaffDirectory, deps.staff)


@router.get("/admin/me", tags=["shop"], summary="Who you are: your shop, roles and its languages")
def me(who: Staff, deps: Deps) -> Me:
    tenant = deps.services.tenants.get(who.tenant_id)
    member = StaffRepo(deps.services.db).get(who.tenant_id, who.email.lower()) if who.email else None
    return Me(
        tenant_id=tenant.tenant_id,
        shop_name=tenant.name,
        email=who.email,
        name=member.name if member else None,
        roles=sorted(who.roles),
        languages=list(tenant.languages.allowed),
        default_language=tenant.languages.default,
        status=tenant.status,
        takes_bookings=tenant.bookings is not None
        or bool(deps.services.catalog_indexes.get(tenant.tenant_id, tenant.catalog_version).service_terms),
    )


@router.put("/admin/me/name", tags=["shop"], summary="The name the shop's staff see beside your work")
def name_me(body: NameBody, who: Staff, deps: Deps) -> Me:
    repo = StaffRepo(deps.services.db)
    member = repo.get(who.tenant_id, who.email.lower()) if who.email else None
    if member is None:
        raise NotFound("You are not on this shop's staff list.", field="email")
    repo.save(who.tenant_id, member.model_copy(update={"name": body.name}))
    audit(deps, who, "staff.name", member.email, name=body.name)
    return me(who, deps)


@router.get("/admin/staff/names", tags=["staff"], summary="The names of the shop's staff, by email (for everyone)")
def staff_names(who: Staff, deps: Deps) -> list[StaffName]:
    return [StaffName(email=e, name=n) for e, n in StaffRepo(deps.services.db).names(who.tenant_id).items()]


@router.get("/admin/staff", tags=["staff"], summary="The shop's staff and whether they have signed in yet")
def list_staff(who: Owner, deps: Deps) -> list[StaffUser]:
    pool = directory(
        deps,
    )
    return [view(m, status_of(pool.user(m.email))) for m in StaffRepo(deps.services.db).list(who.tenant_id)]


@router.post("/admin/staff", tags=["staff"], summary="Invite an agent or an owner (a temporary password)")
def invite(body: InviteBody, who: Owner, deps: Deps) -> Invitation:
    email = body.email.strip().lower()
    pool = directory(
        deps,
    )
    password = temporary_password()
    pool.create(who.tenant_id, email, body.role, password, body.name)
    member = StaffMember(
        email=email, name=body.name, role=body.role, invited_at=deps.services.clock(), invited_by=who.actor
    )
    StaffRepo(deps.services.db).save(who.tenant_id, member)
    StaffRepo(deps.services.db).clear_removed(who.tenant_id, email)  # invited again after a removal
    if deps.standing is not None:
        deps.standing.forget(who.tenant_id, email)
    audit(deps, who, "staff.invite", email, role=body.role)
    return Invitation(member=view(member, "invited"), temporary_password=password)


@router.delete("/admin/staff/<email>", tags=["staff"], summary="Remove a person: they can no longer sign in")
def remove(email: str, who: Owner, deps: Deps) -> Deleted:
    email = unquote(email).strip().lower()  # the path carries it percent-encoded (@ as %40)
    member = StaffRepo(deps.services.db).get(who.tenant_id, email)
    if member is None:
        raise NotFound(f"{email} is not on this shop's staff.", field="email")
    if who.email and email == who.email.lower():
        raise StateConflict("You cannot remove yourself; another owner can.", field="email")
    if member.role == "owner" and sum(m.role == "owner" for m in StaffRepo(deps.services.db).list(who.tenant_id)) <= 1:
        raise StateConflict("The shop's last owner cannot be removed.", field="email")
    pool = directory(
        deps,
    )
    user = pool.user(email)
    if user is not None and shop_of(user) == who.tenant_id:
        pool.delete(email)
    StaffRepo(deps.services.db).mark_removed(
        who.tenant_id, email, at=deps.services.clock()
    )  # their unexpired tokens open nothing now
    StaffRepo(deps.services.db).delete(who.tenant_id, email)
    AlertRepo(deps.services.db).forget_person(who.tenant_id, email)  # no more alerts to their devices or number
    if deps.standing is not None:
        deps.standing.forget(who.tenant_id, email)
    audit(deps, who, "staff.remove", email, role=member.role)
    return Deleted(deleted=True, id=email)
