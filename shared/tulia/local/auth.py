"""Staff sign-in for the local stack, the way AWS does it: a Cognito user pool (moto's, in the
embedded store) with the same shape as the CDK app's (immutable ``custom:tenant_id``, groups owner
and agent, a public app client), and the JWT check API Gateway's authorizer makes (signature against
the pool's JWKS, issuer, audience, expiry, ID token) in front of the admin routes.

``tulia admin-token`` reads where the running stack keeps its pool from a small state file."""

from __future__ import annotations

import json
import os
import secrets
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from tulia.admin.auth import PLATFORM_GROUP, ROLES, TENANT_CLAIM

POOL_NAME = "tulia-local-staff"
CLIENT_NAME = "tulia-local-admin"
LEEWAY_SECONDS = 30


@dataclass(frozen=True)
class LocalPool:
    endpoint: str  # the embedded store (moto server)
    region: str
    user_pool_id: str
    client_id: str
    api_url: str  # the stack's own base URL
    table_prefix: str = "tulia-local-"

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.user_pool_id}"

    @property
    def jwks_url(self) -> str:
        return f"{self.endpoint}/{self.user_pool_id}/.well-known/jwks.json"


def cognito(endpoint: str, region: str) -> Any:
    import boto3

    return boto3.client(
        "cognito-idp",
        region_name=region,
        endpoint_url=endpoint,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def create_pool(endpoint: str, region: str, api_url: str, table_prefix: str) -> LocalPool:
    idp = cognito(endpoint, region)
    pool = idp.create_user_pool(
        PoolName=POOL_NAME,
        UsernameAttributes=["email"],
        Schema=[
            {"Name": "email", "AttributeDataType": "String", "Required": True, "Mutable": True},
            {"Name": "tenant_id", "AttributeDataType": "String", "Mutable": False},
        ],
        AdminCreateUserConfig={"AllowAdminCreateUserOnly": False},  # owners sign up from the console
        # the CDK app's policy (infra/auth.py): a password it would refuse is refused here too
        Policies={
            "PasswordPolicy": {
                "MinimumLength": 12,
                "RequireUppercase": True,
                "RequireLowercase": True,
                "RequireNumbers": True,
                "RequireSymbols": True,
            }
        },
    )["UserPool"]
    for role in (*ROLES, PLATFORM_GROUP):
        idp.create_group(GroupName=role, UserPoolId=pool["Id"])
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"],
        ClientName=CLIENT_NAME,
        GenerateSecret=False,
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
        WriteAttributes=["email", "name"],
        # as the deployed client (infra/auth.py): the ID token carries the person's email attribute. (Without it the
        # local Cognito puts whatever USERNAME the sign-in sent into the email claim: after the first-sign-in
        # password challenge that is the user's id, and an invited person's actions showed as a UUID.)
        ReadAttributes=["email", "email_verified", "name", "custom:tenant_id"],
    )["UserPoolClient"]
    return LocalPool(endpoint, region, pool["Id"], client["ClientId"], api_url, table_prefix)


def _db(pool: LocalPool) -> Any:
    import boto3

    from tulia.store.dynamo import Dynamo

    client = boto3.client(
        "dynamodb",
        region_name=pool.region,
        endpoint_url=pool.endpoint,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    return Dynamo(client, pool.table_prefix)


def tenant_known(pool: LocalPool, tenant_id: str) -> bool:
    from tulia.store.tenants import TenantRepo

    return TenantRepo(_db(pool)).exists(tenant_id)


# The demo shops' console users (local only): printed by `tulia dev`, the same on every start.
DEMO_PASSWORDS = {"owner": "Tulia-owner-2026!", "agent": "Tulia-agent-2026!"}


def demo_email(tenant_id: str, role: str) -> str:
    return f"{role}@{tenant_id}.local"


# The local platform operator (every shop's status and use): printed by `tulia dev`, no shop of its own.
OPERATOR = ("operator@tulia.local", "Tulia-operator-2026!")


def ensure_operator(pool: LocalPool) -> None:
    idp = cognito(pool.endpoint, pool.region)
    email, password = OPERATOR
    try:
        idp.admin_get_user(UserPoolId=pool.user_pool_id, Username=email)
    except idp.exceptions.UserNotFoundException:
        idp.admin_create_user(
            UserPoolId=pool.user_pool_id,
            Username=email,
            UserAttributes=[{"Name": "email", "Value": email}, {"Name": "email_verified", "Value": "true"}],
            MessageAction="SUPPRESS",
        )
        idp.admin_add_user_to_group(UserPoolId=pool.user_pool_id, Username=email, GroupName=PLATFORM_GROUP)
    idp.admin_set_user_password(UserPoolId=pool.user_pool_id, Username=email, Password=password, Permanent=True)


def ensure_user(pool: LocalPool, tenant_id: str, role: str, email: str, password: str) -> None:
    """A staff user of ``tenant_id`` in group ``role`` with this (permanent) password, on the shop's
    staff list as the console shows it."""
    from tulia.store.staff import StaffMember, StaffRepo

    idp = cognito(pool.endpoint, pool.region)
    try:
        idp.admin_get_user(UserPoolId=pool.user_pool_id, Username=email)
    except idp.exceptions.UserNotFoundException:
        idp.admin_create_user(
            UserPoolId=pool.user_pool_id,
            Username=email,
            UserAttributes=[
                {"Name": "email", "Value": email},
                {"Name": "email_verified", "Value": "true"},
                {"Name": TENANT_CLAIM, "Value": tenant_id},
            ],
            MessageAction="SUPPRESS",
        )
        idp.admin_add_user_to_group(UserPoolId=pool.user_pool_id, Username=email, GroupName=role)
    idp.admin_set_user_password(UserPoolId=pool.user_pool_id, Username=email, Password=password, Permanent=True)
    staff = StaffRepo(_db(pool))
    if staff.get(tenant_id, email) is None:
        staff.save(tenant_id, StaffMember(email=email, role=role, invited_at=datetime.now(UTC), invited_by=None))


def issue_token(pool: LocalPool, tenant_id: str, role: str, email: str | None = None) -> str:
    """A real ID token from the pool for a staff user of ``tenant_id`` in group ``role`` (the user is
    created the first time and reused afterwards; the demo users keep their printed passwords)."""
    email = email or demo_email(tenant_id, role)
    if email == demo_email(tenant_id, role):
        password = DEMO_PASSWORDS[role]
    else:
        password = "Tulia-" + secrets.token_urlsafe(12) + "9!"
    ensure_user(pool, tenant_id, role, email, password)
    auth = cognito(pool.endpoint, pool.region).admin_initiate_auth(
        UserPoolId=pool.user_pool_id,
        ClientId=pool.client_id,
        AuthFlow="ADMIN_USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": password},
    )
    return str(auth["AuthenticationResult"]["IdToken"])


class JwtVerifier:
    """API Gateway's JWT authorizer, locally: a valid token's claims, or None (the API answers 401)."""

    def __init__(self, pool: LocalPool, http: httpx.Client | None = None) -> None:
        self.pool = pool
        self.http = http or httpx.Client(timeout=5)
        self._keys: Any = None

    def keys(self) -> Any:
        if self._keys is None:
            from joserfc.jwk import KeySet

            self._keys = KeySet.import_key_set(self.http.get(self.pool.jwks_url).raise_for_status().json())
        return self._keys

    def claims(self, authorization: str | None) -> dict[str, Any] | None:
        from joserfc import jwt
        from joserfc.errors import JoseError

        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        token = authorization[7:].strip()
        try:
            decoded = jwt.decode(token, self.keys(), algorithms=["RS256"])
        except (JoseError, ValueError):
            return None
        c = decoded.claims
        now = time.time()
        audience = c.get("aud") if c.get("token_use") == "id" else c.get("client_id")
        if (
            c.get("iss") != self.pool.issuer
            or audience != self.pool.client_id
            or not isinstance(c.get("exp"), int | float)
            or c["exp"] < now - LEEWAY_SECONDS
            or c.get("iat", 0) > now + LEEWAY_SECONDS
        ):
            return None
        return dict(c)


def api_gateway_claims(claims: dict[str, Any]) -> dict[str, Any]:
    """Claims as the HTTP API's authorizer hands them to Lambda: every value a string, lists written
    ``[a b]``."""
    out = {}
    for key, value in claims.items():
        out[key] = "[" + " ".join(str(v) for v in value) + "]" if isinstance(value, list) else str(value)
    return out


def state_dir() -> Path:
    return Path(os.environ.get("TULIA_STATE_DIR") or Path(tempfile.gettempdir()) / "tulia")


def save_pool(pool: LocalPool, port: int) -> Path:
    """Where ``tulia admin-token`` finds this stack: its own file, keyed by its port."""
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"dev-{port}.json"
    path.write_text(json.dumps(asdict(pool)))
    return path


def load_pool(port: int | None) -> LocalPool:
    """The pool of the stack on ``port``; without a port, of the one stack running (several: name one)."""
    directory = state_dir()
    if port is None:
        running = sorted(directory.glob("dev-*.json"))
        if len(running) > 1:
            ports = ", ".join(p.stem.removeprefix("dev-") for p in running)
            raise FileNotFoundError(f"Several local stacks are running (ports {ports}): name one with --port.")
        if not running:
            raise FileNotFoundError("No running local stack found: start it with `tulia dev`.")
        path = running[0]
    else:
        path = directory / f"dev-{port}.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"No local stack runs on port {port} ({path} is missing): start it with `tulia dev --port {port}`."
        )
    return LocalPool(**json.loads(path.read_text()))


def forget_pool(port: int) -> None:
    """The stack stopped: its state file goes (only its own: other stacks keep theirs)."""
    (state_dir() / f"dev-{port}.json").unlink(missing_ok=True)
