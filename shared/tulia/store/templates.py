"""A shop's WhatsApp message templates, one item per name and language in its tenant partition."""

from __future__ import annotations

from tulia.domain.templates import MessageTemplate
from tulia.errors import NotFound
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import TENANTS


class TemplateRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def list(self, tenant_id: str) -> list[MessageTemplate]:
        items = self.db.query_all(TENANTS, keys.tenant_pk(tenant_id), sk_prefix=keys.TEMPLATE_PREFIX)
        return sorted((from_item(MessageTemplate, i) for i in items), key=lambda t: (t.name, t.language))

    def get(self, tenant_id: str, name: str, language: str) -> MessageTemplate:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.template_sk(name, language))
        if item is None:
            raise NotFound(f"No template '{name}' in '{language}'.", field="name")
        return from_item(MessageTemplate, item)

    def save(self, tenant_id: str, template: MessageTemplate) -> None:
        self.db.put(
            TENANTS,
            to_item(template, pk=keys.tenant_pk(tenant_id), sk=keys.template_sk(template.name, template.language)),
        )

    def delete(self, tenant_id: str, name: str, language: str) -> None:
        self.db.delete(TENANTS, keys.tenant_pk(tenant_id), keys.template_sk(name, language))
