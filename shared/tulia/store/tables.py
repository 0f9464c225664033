"""The DynamoDB tables, defined once for the repositories, the local stack, tests and CDK.

Every table has string keys ``pk``/``sk``. Tenant-owned items put the tenant id first in ``pk``
(see :mod:`tulia.store.keys`), so no query can cross tenants by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Gsi:
    name: str
    pk: str
    sk: str


@dataclass(frozen=True)
class TableDef:
    logical_name: str
    purpose: str
    pk: str = "pk"
    sk: str = "sk"
    gsis: tuple[Gsi, ...] = field(default=())
    ttl_attribute: str | None = None

    def create_kwargs(self, table_name: str) -> dict[str, Any]:
        attrs = {self.pk, self.sk} | {g.pk for g in self.gsis} | {g.sk for g in self.gsis}
        kwargs: dict[str, Any] = {
            "TableName": table_name,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in sorted(attrs)],
            "KeySchema": [
                {"AttributeName": self.pk, "KeyType": "HASH"},
                {"AttributeName": self.sk, "KeyType": "RANGE"},
            ],
        }
        if self.gsis:
            kwargs["GlobalSecondaryIndexes"] = [
                {
                    "IndexName": g.name,
                    "KeySchema": [
                        {"AttributeName": g.pk, "KeyType": "HASH"},
                        {"AttributeName": g.sk, "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "ALL"},
                }
                for g in self.gsis
            ]
        return kwargs


TENANTS = TableDef("tenants", "Tenant profiles and the phone_number_id -> tenant routes.")
CUSTOMERS_BY_TENANT = Gsi("by_tenant", "gsi1pk", "gsi1sk")
CUSTOMERS = TableDef(
    "customers",
    "Customers, their phone/BSUID aliases, consent events, redemptions.",
    gsis=(CUSTOMERS_BY_TENANT,),
)
CATALOG = TableDef("catalog", "Catalog items, one partition per tenant.")
OFFERS = TableDef("offers", "Offers and coupons, one partition per tenant.")
ORDERS_BY_CUSTOMER = Gsi("by_customer", "gsi1pk", "gsi1sk")
ORDERS_BY_TENANT = Gsi("by_tenant", "gsi2pk", "gsi2sk")
ORDERS = TableDef(
    "orders",
    "Orders with their payments in the same partition, and provider reference aliases.",
    gsis=(ORDERS_BY_CUSTOMER, ORDERS_BY_TENANT),
)
HANDOFFS_BY_STATUS = Gsi("by_status", "gsi1pk", "gsi1sk")
HANDOFFS = TableDef("handoffs", "Human handoff tickets.", gsis=(HANDOFFS_BY_STATUS,))
KB = TableDef("kb", "Knowledge-base documents and chunks, one partition per tenant.")
AUDIT = TableDef("audit", "Who changed what in a shop and when: admin API writes, erasures. Append-only.")
STATS = TableDef(
    "stats",
    "Daily counters per shop (turns, orders, payments, searches without a match).",
    ttl_attribute="expires_at",
)

BOOKINGS_BY_CUSTOMER = Gsi("by_customer", "gsi1pk", "gsi1sk")
BOOKINGS_BY_TENANT = Gsi("by_tenant", "gsi2pk", "gsi2sk")
BOOKINGS = TableDef(
    "bookings",
    "Appointments, the staff time they hold (15-minute cells, one conditional item each) and blocked time.",
    gsis=(BOOKINGS_BY_CUSTOMER, BOOKINGS_BY_TENANT),
    ttl_attribute="expires_at",
)

MESSAGES_BY_ACTIVITY = Gsi("by_activity", "gsi1pk", "gsi1sk")
MESSAGES = TableDef(
    "messages",
    "WhatsApp message records: inbound de-duplication markers, delivery statuses, the agent's reply outbox, "
    "staff alerts, and each customer's conversation as the console shows it (listed newest first by_activity).",
    gsis=(MESSAGES_BY_ACTIVITY,),
    ttl_attribute="expires_at",
)

# LangGraph checkpoints, in the key schema langgraph-checkpoint-aws's DynamoDBSaver expects. Its thread
# ids are derived from tenant and customer (tulia.graph.nodes.conversation_id_for).
CHECKPOINTS = TableDef(
    "checkpoints", "LangGraph conversation checkpoints (DynamoDBSaver).", pk="PK", sk="SK", ttl_attribute="ttl"
)

ALL_TABLES: tuple[TableDef, ...] = (
    TENANTS,
    CUSTOMERS,
    CATALOG,
    OFFERS,
    ORDERS,
    BOOKINGS,
    HANDOFFS,
    KB,
    AUDIT,
    STATS,
    MESSAGES,
    CHECKPOINTS,
)


def create_tables(client: Any, prefix: str, tables: tuple[TableDef, ...] = ALL_TABLES) -> list[str]:
    """Create the tables that do not exist yet (moto, local stack). Returns the names created."""
    existing = set(client.list_tables().get("TableNames", []))
    created = []
    for table in tables:
        name = prefix + table.logical_name
        if name in existing:
            add_missing_indexes(client, name, table)
            continue
        client.create_table(**table.create_kwargs(name))
        if table.ttl_attribute:
            client.update_time_to_live(
                TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": table.ttl_attribute}
            )
        created.append(name)
    return created


def add_missing_indexes(client: Any, name: str, table: TableDef) -> list[str]:
    """Add the indexes a later release defined to a table made by an earlier one (one per call, as
    DynamoDB allows; a table still building an index is left for the next run). Returns those added."""
    described = client.describe_table(TableName=name)["Table"]
    have = {g["IndexName"] for g in described.get("GlobalSecondaryIndexes", [])}
    if any(g.get("IndexStatus") not in (None, "ACTIVE") for g in described.get("GlobalSecondaryIndexes", [])):
        return []
    wanted = [g for g in table.gsis if g.name not in have]
    if not wanted:
        return []
    gsi = wanted[0]
    attrs = {gsi.pk, gsi.sk}
    client.update_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in sorted(attrs)],
        GlobalSecondaryIndexUpdates=[
            {
                "Create": {
                    "IndexName": gsi.name,
                    "KeySchema": [
                        {"AttributeName": gsi.pk, "KeyType": "HASH"},
                        {"AttributeName": gsi.sk, "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "ALL"},
                }
            }
        ],
    )
    return [gsi.name]
