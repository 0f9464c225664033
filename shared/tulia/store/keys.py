"""The only code that spells DynamoDB keys. Every tenant-owned key takes ``tenant_id`` first."""

from __future__ import annotations

import hashlib

from tulia.errors import InvalidInput

PROFILE = "PROFILE"
ALIAS = "ALIAS"
ROUTE = "ROUTE"
ORDER = "ORDER"


MAX_PART_BYTES = 512  # DynamoDB keys hold 1,024 bytes (sort) and 2,048 (partition): no part of ours is longer


def _tid(tenant_id: str) -> str:
    if not tenant_id or "#" in tenant_id or len(tenant_id.encode("utf-8", "replace")) > MAX_PART_BYTES:
        raise InvalidInput("tenant_id is missing or malformed.", field="tenant_id")
    return tenant_id


def _part(value: str, field: str) -> str:
    if not value or "#" in value or len(value.encode("utf-8", "replace")) > MAX_PART_BYTES:
        raise InvalidInput(f"{field} is missing or malformed.", field=field)
    return value


# tenants
def tenant_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#TENANT"


TEMPLATE_PREFIX = "TEMPLATE#"


def template_sk(name: str, language: str) -> str:
    """A WhatsApp message template of the tenant, one item per name and language."""
    return f"{TEMPLATE_PREFIX}{_part(name, 'name')}#{_part(language, 'language')}"


STAFF_PREFIX = "STAFF#"


def staff_sk(email: str) -> str:
    """A person who may sign in to the shop's console (emails are compared in lower case)."""
    return f"{STAFF_PREFIX}{_part(email.strip().lower(), 'email')}"


STAFF_REMOVED_PREFIX = "STAFFGONE#"


def staff_removed_sk(email: str) -> str:
    """A person removed from the shop's staff: their tokens, still unexpired, open nothing."""
    return f"{STAFF_REMOVED_PREFIX}{_part(email.strip().lower(), 'email')}"


STAFF_ALERTS_PREFIX = "STAFFALERTS#"


def staff_alerts_sk(email: str) -> str:
    """What a person wants to be told and where (alert kinds, WhatsApp number, quiet hours, language)."""
    return f"{STAFF_ALERTS_PREFIX}{_part(email.strip().lower(), 'email')}"


STAFF_SEEN_PREFIX = "STAFFSEEN#"


def staff_seen_sk(email: str) -> str:
    """When a person last looked at each console screen (its unread badge counts what came after)."""
    return f"{STAFF_SEEN_PREFIX}{_part(email.strip().lower(), 'email')}"


PUSH_PREFIX = "PUSH#"


def push_subscription_sk(email: str, subscription_id: str) -> str:
    """One device where a person turned alerts on (a Web Push subscription)."""
    return f"{PUSH_PREFIX}{_part(email.strip().lower(), 'email')}#{_part(subscription_id, 'subscription_id')}"


def push_subscription_id(endpoint: str) -> str:
    """A device's id: its push endpoint hashed (the endpoint is a capability; it is not spelled in a key)."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


def c2b_shortcode_pk(shortcode: str) -> str:
    """Routing item, not tenant data: the tenants whose settings name a Paybill or Till (one item each)."""
    return f"C2BCODE#{_part(shortcode, 'shortcode')}"


def person_pk(subject: str) -> str:
    """Routing item, not tenant data: the shop a person who signed up made (their Cognito ``sub``), read by
    the token trigger to put the shop into their token."""
    return f"PERSON#{_part(subject, 'sub')}"


SHOP = "SHOP"


def phone_number_route_pk(phone_number_id: str) -> str:
    """Routing item, not tenant data: which tenant owns a WhatsApp phone_number_id."""
    return f"WAPHONE#{_part(phone_number_id, 'phone_number_id')}"


# customers
def customer_pk(tenant_id: str, customer_id: str) -> str:
    return f"{_tid(tenant_id)}#CUST#{_part(customer_id, 'customer_id')}"


def tenant_customers_gsi_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#CUSTOMERS"


def customer_phone_alias_pk(tenant_id: str, phone_e164: str) -> str:
    return f"{_tid(tenant_id)}#PHONE#{_part(phone_e164, 'phone_e164')}"


def customer_wa_user_alias_pk(tenant_id: str, wa_user_id: str) -> str:
    return f"{_tid(tenant_id)}#WAUSER#{_part(wa_user_id, 'wa_user_id')}"


def consent_event_sk(at_iso: str, event_id: str) -> str:
    return f"CONSENT#{at_iso}#{event_id}"


CONSENT_PREFIX = "CONSENT#"


REDEMPTION_PREFIX = "REDEMPTION#"


def redemption_sk(offer_id: str) -> str:
    return f"{REDEMPTION_PREFIX}{_part(offer_id, 'offer_id')}"


# catalog
def catalog_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#CATALOG"


def catalog_item_sk(item_id: str) -> str:
    return f"ITEM#{_part(item_id, 'item_id')}"


ITEM_PREFIX = "ITEM#"


# offers
def offers_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#OFFERS"


def offer_sk(offer_id: str) -> str:
    return f"OFFER#{_part(offer_id, 'offer_id')}"


OFFER_PREFIX = "OFFER#"


# orders and payments
def order_pk(tenant_id: str, order_id: str) -> str:
    return f"{_tid(tenant_id)}#ORDER#{_part(order_id, 'order_id')}"


def payment_sk(payment_id: str) -> str:
    return f"PAYMENT#{_part(payment_id, 'payment_id')}"


PAYMENT_PREFIX = "PAYMENT#"


def customer_orders_gsi_pk(tenant_id: str, customer_id: str) -> str:
    return f"{_tid(tenant_id)}#CUST#{_part(customer_id, 'customer_id')}"


def tenant_orders_gsi_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#ORDERS"


def payment_ref_pk(tenant_id: str, kind: str, ref: str) -> str:
    """Alias from a provider reference (CheckoutRequestID, OrderTrackingId, callback token)."""
    return f"{_tid(tenant_id)}#PAYREF#{_part(kind, 'kind')}#{_part(ref, 'ref')}"


def unmatched_payments_pk(tenant_id: str) -> str:
    """Money received that pays no order (a person reconciles it), one partition per tenant."""
    return f"{_tid(tenant_id)}#UNMATCHED"


def unmatched_payment_sk(method: str, trans_id: str) -> str:
    return f"{_part(method, 'method')}#{_part(trans_id, 'trans_id')}"


def overpayments_pk(tenant_id: str) -> str:
    """Confirmed money its order could not take (already paid, cancelled): to refund or apply."""
    return f"{_tid(tenant_id)}#OVERPAID"


def overpayment_sk(method: str, provider_ref: str) -> str:
    return f"{_part(method, 'method')}#{_part(provider_ref, 'provider_ref')}"


# signed webhook bodies that could not be used, kept for inspection (no tenant could be read from them)
MALFORMED_WEBHOOKS = "WEBHOOK#MALFORMED"


def payment_token_route_pk(token: str) -> str:
    """Routing item, not tenant data: the secret token in an STK callback URL -> tenant and payment.
    (The URL cannot carry the tenant id: Daraja refuses URLs with words such as 'exe' or 'sql'.)"""
    return f"PAYTOKEN#{_part(token, 'token')}"


# handoffs
def handoff_pk(tenant_id: str, ticket_id: str) -> str:
    return f"{_tid(tenant_id)}#HANDOFF#{_part(ticket_id, 'ticket_id')}"


def handoff_status_gsi_pk(tenant_id: str, status: str) -> str:
    return f"{_tid(tenant_id)}#HANDOFF#{status}"


TICKET = "TICKET"


# knowledge base
def kb_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#KB"


def kb_doc_sk(doc_id: str) -> str:
    return f"DOC#{_part(doc_id, 'doc_id')}"


def kb_chunk_sk(doc_id: str, version: int, position: int) -> str:
    return f"CHUNK#{_part(doc_id, 'doc_id')}#{version:06d}#{position:05d}"


KB_DOC_PREFIX = "DOC#"
KB_CHUNK_PREFIX = "CHUNK#"


# WhatsApp messages (inbound markers, statuses, outbox)
INBOUND = "INBOUND"
OUTBOX = "OUTBOX"
STATUS_PREFIX = "STATUS#"


def wa_message_pk(tenant_id: str, message_id: str) -> str:
    return f"{_tid(tenant_id)}#WAMSG#{_part(message_id, 'message_id')}"


def customer_window_pk(tenant_id: str, customer_key: str) -> str:
    """When the customer last wrote (WhatsApp's 24-hour window). The number is hashed, as in queue
    message groups, so it is not spelled in a key."""
    digest = hashlib.sha256(_part(customer_key, "customer_key").encode()).hexdigest()[:32]
    return f"{_tid(tenant_id)}#WINDOW#{digest}"


WINDOW = "WINDOW"


# staff alerts (in the messages table: they expire): the alert by its id, and its place in the shop's feed
def misreads_pk(tenant_id: str) -> str:
    """The messages a shop's bot did not understand, one item each (messages table)."""
    return f"{_tid(tenant_id)}#MISREADS"


MISREAD_PREFIX = "MISREAD#"


def misread_sk(misread_id: str) -> str:
    return f"{MISREAD_PREFIX}{_part(misread_id, 'misread_id')}"


def alerts_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#ALERTS"


ALERT_ID_PREFIX = "ID#"
ALERT_AT_PREFIX = "AT#"


def alert_id_sk(alert_id: str) -> str:
    return f"{ALERT_ID_PREFIX}{_part(alert_id, 'alert_id')}"


def alert_at_sk(at_iso: str, alert_id: str) -> str:
    return f"{ALERT_AT_PREFIX}{_part(at_iso, 'at')}#{_part(alert_id, 'alert_id')}"


# a customer's conversation as the console shows it (in the messages table: entries expire), its head
# (the newest, listed through the by_activity index) and the staff's private notes about the customer
def thread_pk(tenant_id: str, customer_id: str) -> str:
    return f"{_tid(tenant_id)}#THREAD#{_part(customer_id, 'customer_id')}"


def threads_gsi_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#THREADS"


THREAD_HEAD = "HEAD"
THREAD_ENTRY_PREFIX = "AT#"
THREAD_NOTE_PREFIX = "NOTE#"


def thread_entry_sk(at_iso: str, ref: str) -> str:
    return f"{THREAD_ENTRY_PREFIX}{_part(at_iso, 'at')}#{_part(ref, 'ref')}"


def thread_note_sk(note_id: str) -> str:
    return f"{THREAD_NOTE_PREFIX}{_part(note_id, 'note_id')}"


QUICK_REPLIES = "QUICKREPLIES"  # in the shop's partition of the tenants table


# broadcasts (in the messages table: the webhook records their delivery statuses)
def broadcasts_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#BROADCASTS"


def broadcast_recipients_pk(tenant_id: str, broadcast_id: str) -> str:
    return f"{_tid(tenant_id)}#BCAST#{_part(broadcast_id, 'broadcast_id')}"


def recipient_sk(customer_id: str) -> str:
    return f"R#{_part(customer_id, 'customer_id')}"


RECIPIENT_PREFIX = "R#"
BROADCAST_OF_MESSAGE = "BCAST"  # on a sent message's record: which broadcast and customer it was


def last_broadcast_pk(tenant_id: str, customer_id: str) -> str:
    """The broadcast a customer last got (a STOP soon after it is counted against it)."""
    return f"{_tid(tenant_id)}#BCASTLAST#{_part(customer_id, 'customer_id')}"


def reminder_pk(tenant_id: str, order_id: str) -> str:
    """The one reminder of an unpaid order: written once, so it is never sent twice."""
    return f"{_tid(tenant_id)}#REMINDER#{_part(order_id, 'order_id')}"


C2B = "C2B"


def c2b_token_route_pk(token: str) -> str:
    """Routing item: the secret token in a tenant's C2B confirmation/validation URLs -> the tenant."""
    return f"C2BTOKEN#{_part(token, 'token')}"


# audit trail and daily counters
def audit_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#AUDIT"


def audit_sk(at_sortable: str, entry_id: str) -> str:
    return f"{at_sortable}#{_part(entry_id, 'entry_id')}"


def stats_pk(tenant_id: str) -> str:
    return f"{_tid(tenant_id)}#STATS"


def stats_day_sk(day_iso: str) -> str:
    return f"DAY#{day_iso}"


def stats_nomatch_sk(day_iso: str, query: str) -> str:
    return f"NOMATCH#{day_iso}#{query}"


STATS_DAY_PREFIX = "DAY#"
STATS_NOMATCH_PREFIX = "NOMATCH#"


# bookings (appointments) and the time they hold
BOOKING = "BOOKING"


def booking_pk(tenant_id: str, booking_id: str) -> str:
    return f"{_tid(tenant_id)}#BOOKING#{_part(booking_id, 'booking_id')}"


def customer_bookings_gsi_pk(tenant_id: str, customer_id: str) -> str:
    return f"{_tid(tenant_id)}#BOOKCUST#{_part(customer_id, 'customer_id')}"


def tenant_bookings_gsi_pk(tenant_id: str) -> str:
    """The shop's bookings by start time (a day's or a week's calendar is one range of it)."""
    return f"{_tid(tenant_id)}#BOOKINGS"


def cells_pk(tenant_id: str) -> str:
    """The shop's 15-minute cells of staff time, one item each while a booking or a block holds it;
    sort keys ``{date}#{staff}#{HHMM}`` (:func:`tulia.domain.booking.cell_key`)."""
    return f"{_tid(tenant_id)}#CELLS"


def blocks_pk(tenant_id: str) -> str:
    """Time the shop blocked (staff away, a private event), by start."""
    return f"{_tid(tenant_id)}#BLOCKS"


def block_sk(start_sortable: str, block_id: str) -> str:
    return f"{start_sortable}#{_part(block_id, 'block_id')}"
