"""The admin API's resolver: Powertools' HTTP API event handler with pydantic validation, the caller
from the verified token, one error shape, and the OpenAPI document.

Every route takes the tenant from the caller (:mod:`tulia.admin.auth`); an id of another shop is
simply not found in this shop's partition.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer
from pydantic import ValidationError

from tulia.admin.auth import (
    PLATFORM_PREFIX,
    SIGNUP_PREFIX,
    TENANT_CLAIM,
    Forbidden,
    StaffStanding,
    Unauthorized,
    principal_of,
)
from tulia.admin.common import DEPS_KEY, AdminDeps
from tulia.errors import (
    BusinessRuleViolation,
    InvalidInput,
    NotFound,
    ProviderError,
    ProviderUnavailable,
    StateConflict,
    TenantMismatch,
    TuliaError,
)
from tulia.observability import logger as log
from tulia.store.staff import StaffRepo

PREFIX = "/admin"
OPENAPI_PATH = f"{PREFIX}/openapi.json"
SWAGGER_PATH = f"{PREFIX}/docs"
TITLE = "Tulia admin API"
VERSION = "1.0"
DESCRIPTION = (
    "Run a shop on Tulia: profile and bot settings, catalog, offers, knowledge-base documents, orders and "
    "payments, the handoff inbox, customers and analytics. Authenticate with the Cognito **ID token** of a "
    "staff user (`Authorization: Bearer <token>`); the shop is the token's `custom:tenant_id`. Roles (Cognito "
    "groups): `owner` may do everything; `agent` may read orders and customers and work the handoff inbox. "
    "Lists return `{items, cursor}`; pass `cursor` back for the next page."
)

STATUS_OF: dict[type[TuliaError], int] = {
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    StateConflict: 409,
    InvalidInput: 422,
    TenantMismatch: 422,
    BusinessRuleViolation: 422,
    ProviderError: 502,
    ProviderUnavailable: 503,
}


class AdminResolver(APIGatewayHttpResolver):
    """The admin routes, with whoever is no longer staff of the token's shop refused before anything of
    the request is read: 401 on every route at once, even where the body would not validate (route
    validation runs before any dependency, so the role checks alone would answer 422 first)."""

    deps: AdminDeps | None = None

    def resolve(self, event: Any, context: Any) -> dict[str, Any]:
        self.context[DEPS_KEY] = self.deps  # for the routes' dependencies (Powertools clears it after each request)
        standing = self.deps.standing if self.deps is not None else None
        path = str(event.get("rawPath") or "")
        # the sign-up routes also take a token that names no shop yet, and check it themselves (admin/signup.py); a
        # token that names a shop is checked here on them too (a removed person gets 401 everywhere)
        claims = ((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt", {}).get("claims") or {}
        newcomer = path.startswith((SIGNUP_PREFIX, PLATFORM_PREFIX)) and not claims.get(TENANT_CLAIM)
        if standing is not None and path not in (OPENAPI_PATH, SWAGGER_PATH) and not newcomer:
            try:
                standing.check(principal_of(event))
            except Unauthorized as exc:
                return {
                    "statusCode": 401,
                    "headers": {"Content-Type": "application/json"},
                    "body": json.dumps(exc.to_dict()),
                    "isBase64Encoded": False,
                }
        return super().resolve(event, context)


def error_response(status: int, body: dict[str, Any]) -> Response[str]:
    return Response(status_code=status, content_type="application/json", body=json.dumps(body, default=str))


def _status(exc: TuliaError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return 500


def _field_errors(errors: Any) -> list[dict[str, Any]]:
    out = []
    for e in errors:
        loc = [str(p) for p in e.get("loc", ()) if p != "__root__"]
        out.append({"field": ".".join(loc), "message": e.get("msg", "invalid")})
    return out


OPENAPI_KWARGS: dict[str, Any] = {
    "title": TITLE,
    "version": VERSION,
    "description": DESCRIPTION,
    "security_schemes": {"cognitoIdToken": HTTPBearer(bearerFormat="JWT")},
    "security": [{"cognitoIdToken": []}],
}


def openapi_document() -> dict[str, Any]:
    """The API's OpenAPI document, as ``GET /admin/openapi.json`` serves it, without a store behind it (routes
    are only described, never called): the console's types are generated from it (``make console-types``)."""
    from typing import cast

    from tulia.services import Services

    app = build_admin_api(AdminDeps(services=cast(Services, _NoServices()), audit=cast(Any, None)))
    document: dict[str, Any] = _enums_sorted(json.loads(app.get_openapi_json_schema(**OPENAPI_KWARGS)))
    return document


def _enums_sorted(node: Any) -> Any:
    """The document with every enum's values in one order: typing caches equal Literals, so a Literal's order in
    the schema is that of whichever equal Literal was made first in the process."""
    if isinstance(node, dict):
        return {k: sorted(v, key=str) if k == "enum" else _enums_sorted(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_enums_sorted(v) for v in node]
    return node


class _NoServices:
    """Stands for the services while routes are only described: no route is called."""

    db = None


def build_admin_api(deps: AdminDeps, *, swagger: bool = False) -> APIGatewayHttpResolver:
    """The resolver with every route. ``swagger``: also serve the Swagger UI page (the local stack)."""
    from tulia.admin import (
        alerts,
        analytics,
        bookings,
        broadcasts,
        catalog,
        conversations,
        customers,
        golive,
        handoffs,
        kb,
        offers,
        orders,
        payment_tests,
        platform,
        shop_pack,
        signup,
        templates,
        tenant,
        try_bot,
        understanding,
        whatsapp_connect,
    )
    from tulia.admin import (
        staff as staff_routes,
    )

    app = AdminResolver(enable_validation=True)
    app.deps = deps
    deps.standing = StaffStanding(StaffRepo(deps.services.db))
    for module in (
        tenant,
        staff_routes,
        catalog,
        offers,
        kb,
        orders,
        bookings,
        handoffs,
        conversations,
        customers,
        analytics,
        templates,
        broadcasts,
        alerts,
        signup,
        whatsapp_connect,
        golive,
        platform,
        payment_tests,
        shop_pack,
        try_bot,
        understanding,
    ):
        app.include_router(module.router)

    @app.get(OPENAPI_PATH, include_in_schema=False)
    def openapi() -> Response[str]:
        document = _enums_sorted(json.loads(app.get_openapi_json_schema(**OPENAPI_KWARGS)))
        return Response(200, "application/json", json.dumps(document))

    if swagger:
        app.enable_swagger(path=SWAGGER_PATH, persist_authorization=True, **OPENAPI_KWARGS)

    @app.exception_handler(RequestValidationError)  # type: ignore[untyped-decorator]  # Powertools: untyped
    def invalid_request(exc: RequestValidationError) -> Response[str]:
        errors = _field_errors(exc.errors())
        return error_response(422, {"code": "invalid_input", "message": "The request is not valid.", "errors": errors})

    @app.exception_handler(ValidationError)  # type: ignore[untyped-decorator]
    def invalid_model(exc: ValidationError) -> Response[str]:
        errors = _field_errors(exc.errors(include_url=False))
        return error_response(422, {"code": "invalid_input", "message": "The request is not valid.", "errors": errors})

    @app.exception_handler(TuliaError)  # type: ignore[untyped-decorator]
    def tulia_error(exc: TuliaError) -> Response[str]:
        status = _status(exc)
        if status >= 500:
            log.warning("admin request failed", extra={"code": exc.code, "why": exc.message})
        return error_response(status, exc.to_dict())

    @app.not_found
    def not_found(_exc: Exception) -> Response[str]:
        return error_response(404, {"code": "not_found", "message": "No such route."})

    return app
