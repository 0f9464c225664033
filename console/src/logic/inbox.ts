import type { Priority, Ticket } from "../types";

const RANK: Record<Priority, number> = { urgent: 0, high: 1, normal: 2, low: 3 };
export const WINDOW_HOURS = 24;

/** The inbox order: open before claimed, then the most urgent, then the longest waiting. */
export function sortInbox(tickets: readonly Ticket[]): Ticket[] {
  const waiting = (t: Ticket) => (t.status === "open" ? 0 : 1);
  return [...tickets]
    .filter((t) => t.status !== "resolved")
    .sort(
      (a, b) =>
        waiting(a) - waiting(b) ||
        RANK[a.priority] - RANK[b.priority] ||
        Date.parse(a.created_at) - Date.parse(b.created_at) ||
        a.ticket_id.localeCompare(b.ticket_id),
    );
}

export interface ReplyWindow {
  open: boolean;
  /** When WhatsApp's 24-hour customer-service window closes (or closed); null: the customer never wrote. */
  closesAt: Date | null;
}

/** Inside 24 hours of the customer's last message a reply goes as typed; outside, as the shop's template. */
export function replyWindow(lastCustomerMessageAt: string | null, now: Date): ReplyWindow {
  if (!lastCustomerMessageAt) return { open: false, closesAt: null };
  const closesAt = new Date(Date.parse(lastCustomerMessageAt) + WINDOW_HOURS * 3600_000);
  return { open: closesAt.getTime() > now.getTime(), closesAt };
}

/** Who the customer is, in one line: name and number, or whichever is known. */
export function customerLabel(t: Pick<Ticket, "customer" | "customer_id">): string {
  const c = t.customer;
  if (!c) return t.customer_id;
  return [c.name, c.phone].filter(Boolean).join(" · ") || t.customer_id;
}

/** The customer's messages that arrived after the last one staff have seen (for the unread badge). */
export function unreadCount(t: Ticket, seenAt: string | undefined): number {
  const since = seenAt ? Date.parse(seenAt) : 0;
  return t.transcript.filter((e) => e.role === "customer" && Date.parse(e.at) > since).length;
}

/** A random key for an Idempotency-Key header (crypto.randomUUID needs HTTPS or localhost; the
 * local console may be opened over plain HTTP under another host name, from a phone). */
export function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
