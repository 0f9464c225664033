"""The staff pool's token trigger (Cognito "pre token generation", event version 1): a person who made her
shop at sign-up gets it into her ID token as ``custom:tenant_id``, with her role as her group, from the record
the admin API's sign-up route wrote (:meth:`tulia.store.tenants.TenantRepo.create`). The shop comes from the
server's record only: the browser cannot write the attribute, and invited staff, whose attribute was set when
they were created, are left as they are.

The local stack runs the same function on the tokens its Cognito stand-in issues (:mod:`tulia.local.console`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tulia.admin.auth import TENANT_CLAIM
from tulia.store.tenants import TenantRepo


@lru_cache(maxsize=1)
def people() -> TenantRepo:
    import boto3

    from tulia.config import get_settings
    from tulia.store.dynamo import Dynamo

    settings = get_settings()
    client = boto3.client("dynamodb", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
    return TenantRepo(Dynamo(client, settings.table_prefix), cache_seconds=0)


def add_shop(event: dict[str, Any], tenants: TenantRepo | None = None) -> dict[str, Any]:
    """The trigger's event, with the claims to add when the person made a shop (Cognito reads ``response``)."""
    request = event.get("request") or {}
    attributes = request.get("userAttributes") or {}
    if attributes.get(TENANT_CLAIM) or not attributes.get("sub"):
        return event  # staff created in a shop (the attribute is theirs for good), or nobody to look up
    made = (tenants or people()).shop_of_person(str(attributes["sub"]))
    if made is None:
        return event  # signed up, no shop yet: only the sign-up routes take this token
    tenant_id, role = made
    groups = list((request.get("groupConfiguration") or {}).get("groupsToOverride") or [])
    event.setdefault("response", {})["claimsOverrideDetails"] = {
        "claimsToAddOrOverride": {TENANT_CLAIM: tenant_id},
        "groupOverrideDetails": {"groupsToOverride": sorted({*groups, role})},
    }
    return event
