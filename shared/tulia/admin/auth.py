"""Who is calling the admin API, from the claims of a verified Cognito ID token.

In AWS, API Gateway's JWT authorizer verifies the token (issuer, audience, expiry, signature) and
passes its claims in ``requestContext.authorizer.jwt.claims``; locally the stack's front door does the
same verification (:mod:`tulia.local.auth`). The tenant comes only from the immutable
``custom:tenant_id`` attribute, never from a path or a body. Cognito puts custom attributes in ID
tokens, so staff send their ID token.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tulia.domain.common import TENANT_ID_PATTERN
from tulia.errors import TuliaError

Role = Literal["owner", "agent"]
ROLES: tuple[Role, ...] = ("owner", "agent")
TENANT_CLAIM = "custom:tenant_id"
SIGNUP_PREFIX = "/admin/signup"  # the routes a token that names no shop yet may call (tulia.admin.signup)
PLATFORM_PREFIX = "/admin/platform"  # the platform operator's routes (tulia.admin.platform): no shop in the token
PLATFORM_GROUP = "platform"  # the Cognito group of the deployer's operators
GROUPS_CLAIM = "cognito:groups"


class Unauthorized(TuliaError):
    """No usable identity: 401."""

    code = "unauthorized"


class Forbidden(TuliaError):
    """A known identity whose role may not do this: 403."""

    code = "forbidden"


@dataclass(frozen=True)
class Principal:
    tenant_id: str
    subject: str
    email: str | None
    roles: frozenset[str]

    @property
    def actor(self) -> str:
        """How the audit trail names this person."""
        return self.email or self.subject

    def require(self, *allowed: Role) -> Principal:
        if not self.roles & set(allowed):
            raise Forbidden(
                f"Your role may not do this (needs {' or '.join(allowed)}).", details={"roles": sorted(self.roles)}
            )
        return self


def groups_of(raw: Any) -> frozenset[str]:
    """``cognito:groups`` as API Gateway passes it (``"[owner agent]"``) or as a JSON list."""
    if isinstance(raw, list | tuple):
        return frozenset(str(g) for g in raw)
    if isinstance(raw, str):
        return frozenset(g for g in re.split(r"[\s,\[\]\"]+", raw) if g)
    return frozenset()


def principal_of(event: Mapping[str, Any]) -> Principal:
    """The caller of an API Gateway (HTTP API, payload 2.0) event whose token was verified upstream."""
    context = event.get("requestContext") or {}
    claims = ((context.get("authorizer") or {}).get("jwt") or {}).get("claims") or {}
    tenant_id = str(claims.get(TENANT_CLAIM) or "")
    if not tenant_id:
        raise Unauthorized("The token names no shop (custom:tenant_id).")
    if not TENANT_ID_PATTERN.fullmatch(tenant_id):
        raise Unauthorized("The token's shop id is malformed.")
    if claims.get("token_use") not in (None, "id"):
        raise Unauthorized("Send the ID token (it carries the shop id), not the access token.")
    subject = str(claims.get("sub") or "")
    if not subject:
        raise Unauthorized("The token names no user (sub).")
    roles = groups_of(claims.get(GROUPS_CLAIM)) & set(ROLES)
    return Principal(tenant_id=tenant_id, subject=subject, email=claims.get("email"), roles=roles)


@dataclass(frozen=True)
class Newcomer:
    """A person who signed up (email verified) and may make a shop; ``tenant_id`` is set once her token names
    the shop she made."""

    subject: str
    email: str
    name: str | None
    tenant_id: str | None


def newcomer_of(event: Mapping[str, Any]) -> Newcomer:
    """The caller of a sign-up route: a verified ID token of the staff pool with a verified email."""
    context = event.get("requestContext") or {}
    claims = ((context.get("authorizer") or {}).get("jwt") or {}).get("claims") or {}
    if claims.get("token_use") not in (None, "id"):
        raise Unauthorized("Send the ID token, not the access token.")
    subject, email = str(claims.get("sub") or ""), str(claims.get("email") or "").strip().lower()
    if not subject or not email:
        raise Unauthorized("The token names no person (sub, email).")
    if str(claims.get("email_verified", "")).lower() != "true":
        raise Forbidden("Verify your email first (the code we sent you).", code="email_not_verified")
    tenant_id = str(claims.get(TENANT_CLAIM) or "") or None
    return Newcomer(subject=subject, email=email, name=claims.get("name") or None, tenant_id=tenant_id)


STANDING_SECONDS = 5.0  # a membership read is reused this long by one function instance, never minutes


class StaffStanding:
    """Whether a verified token's person is still staff of its shop in its role: every admin request
    reads the membership (cached for seconds). A removed person gets 401 at once, whatever their token
    says; a person whose record names another role than the token's groups gets that role only. People
    who predate the staff list (no record, never removed) keep the token's roles."""

    def __init__(self, repo: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.repo, self.clock = repo, clock
        self._seen: dict[tuple[str, str], tuple[float, Any, bool]] = {}

    def forget(self, tenant_id: str, email: str) -> None:
        self._seen.pop((tenant_id, email.strip().lower()), None)

    def check(self, who: Principal) -> Principal:
        if not who.email:
            return who
        key = (who.tenant_id, who.email.strip().lower())
        now = self.clock()
        cached = self._seen.get(key)
        if cached is None or now - cached[0] > STANDING_SECONDS:
            member, removed = self.repo.standing(*key)
            cached = (now, member, removed)
            self._seen[key] = cached
        _at, member, removed = cached
        if removed and member is None:
            raise Unauthorized("You are no longer on this shop's staff.")
        if member is not None and member.role not in who.roles:
            return Principal(who.tenant_id, who.subject, who.email, frozenset({member.role}) & who.roles)
        return who
