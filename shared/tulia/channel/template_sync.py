"""Reading a shop's message templates from the WhatsApp Business Management API into its own list
(the admin API's sync, and the local stack after seeding a pack)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from tulia.channel.graph_api import TemplateManager
from tulia.domain.templates import MessageTemplate, TemplateStatus
from tulia.observability import logger as log
from tulia.store.templates import TemplateRepo

META_STATUS: dict[str, TemplateStatus] = {
    "APPROVED": "approved",
    "PENDING": "pending",
    "IN_APPEAL": "pending",
    "REJECTED": "rejected",
    "PAUSED": "paused",
    "DISABLED": "disabled",
    "PENDING_DELETION": "disabled",
    "DELETED": "disabled",
    "LIMIT_EXCEEDED": "disabled",
}


class SyncResult(BaseModel):
    templates: list[MessageTemplate]
    added: int
    changed: int
    removed: int
    skipped: list[str] = Field(default_factory=list, description="Templates of Meta's that Tulia cannot use, and why")


def _reason(value: Any) -> str | None:
    return str(value)[:300] if value not in (None, "", "NONE") else None


def from_meta(found: dict[str, Any], now: datetime) -> MessageTemplate:
    """One entry of Meta's listing as our template (ValueError when Tulia cannot use it)."""
    body = next(
        (str(c.get("text") or "") for c in found.get("components") or [] if str(c.get("type")).upper() == "BODY"), ""
    )
    try:
        return MessageTemplate(
            name=str(found.get("name") or ""),
            language=str(found.get("language") or ""),
            category=str(found.get("category") or "").lower(),
            status=META_STATUS.get(str(found.get("status") or "").upper(), "disabled"),
            body=body,
            meta_id=str(found["id"]) if found.get("id") else None,
            rejected_reason=_reason(found.get("rejected_reason")),
            updated_at=now,
        )
    except ValidationError as exc:
        raise ValueError(exc.errors()[0]["msg"]) from exc


def sync_templates(
    repo: TemplateRepo, manager: TemplateManager, tenant_id: str, waba_id: str, token: str, now: datetime
) -> SyncResult:
    """Make the shop's list what Meta says: new templates added, statuses and texts updated, the ones
    Meta no longer has removed; the ones Tulia cannot use are listed with the reason."""
    listed = manager.list(waba_id, token)
    current = {(t.name, t.language): t for t in repo.list(tenant_id)}
    seen: set[tuple[str, str]] = set()
    added = changed = 0
    skipped: list[str] = []
    for found in listed:
        try:
            template = from_meta(found, now)
        except ValueError as why:
            skipped.append(f"{found.get('name')}/{found.get('language')}: {why}")
            continue
        key = (template.name, template.language)
        seen.add(key)
        before = current.get(key)
        if before is None:
            added += 1
        elif before.model_copy(update={"updated_at": None}) == template.model_copy(update={"updated_at": None}):
            continue
        else:
            changed += 1
        repo.save(tenant_id, template)
    gone = [key for key in current if key not in seen]
    for name, language in gone:
        repo.delete(tenant_id, name, language)
    if skipped:
        log.warning("templates Tulia cannot use were skipped", extra={"skipped": len(skipped)})
    return SyncResult(templates=repo.list(tenant_id), added=added, changed=changed, removed=len(gone), skipped=skipped)
