"""Typed errors with a stable ``code``. Each edge maps them once (HTTP, tool registry, graph)."""

from __future__ import annotations

from typing import Any

INVALID_INPUT = "invalid_input"
TENANT_MISMATCH = "tenant_mismatch"
NOT_FOUND = "not_found"
STATE_CONFLICT = "state_conflict"
PROVIDER_UNAVAILABLE = "provider_unavailable"
PROVIDER_ERROR = "provider_error"
OUT_OF_STOCK = "out_of_stock"
COUPON_REJECTED = "coupon_rejected"
AMOUNT_MISMATCH = "amount_mismatch"
PAYMENT_IN_PROGRESS = "payment_in_progress"
METHOD_UNAVAILABLE = "method_unavailable"
INTERNAL = "internal_error"


class TuliaError(Exception):
    """A failure the caller can act on. ``code`` is stable; ``message`` is for humans."""

    code: str = INTERNAL

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        reason: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.field = field
        self.reason = reason
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.reason is not None:
            out["reason"] = self.reason
        if self.details:
            out["details"] = self.details
        return out


class InvalidInput(TuliaError):
    code = INVALID_INPUT


class TenantMismatch(TuliaError):
    code = TENANT_MISMATCH


class NotFound(TuliaError):
    code = NOT_FOUND


class StateConflict(TuliaError):
    code = STATE_CONFLICT


class ProviderUnavailable(TuliaError):
    """The provider could not be reached, timed out or answered 5xx after retries."""

    code = PROVIDER_UNAVAILABLE


class ProviderError(TuliaError):
    """The provider answered, but refused the request (4xx or a non-success result)."""

    code = PROVIDER_ERROR


class BusinessRuleViolation(TuliaError):
    """A request that is well formed but that the shop's rules refuse (stock, coupon, amount...)."""
