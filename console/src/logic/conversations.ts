// Reading a conversation: events worded in the console's language from their facts, the hand-over's summary
// from the conversation's facts, and the list's one-line preview.

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface EntryLike {
  role: "customer" | "bot" | "staff" | "event";
  text: string;
  event?: string | null;
  facts?: Record<string, string | number>;
  by?: string | null;
}

/** Shillings as the shop writes them: "KES 2,610". */
export function kes(amount: string | number | undefined): string {
  const n = Number(amount);
  return Number.isFinite(n) ? `KES ${n.toLocaleString("en-KE")}` : "";
}

const ORDER_EVENTS = ["confirmed", "dispatched", "ready_for_pickup", "delivered", "cancelled", "refunded", "fulfilled"];

/** An event of the conversation, worded from its facts (an unknown event still reads as words). */
export function eventText(t: Translate, entry: EntryLike): string {
  const f = entry.facts ?? {};
  const event = entry.event ?? "";
  const who = entry.by ?? t("conv.someone");
  switch (event) {
    case "handoff":
      return t("conv.event.handoff");
    case "taken_over":
      return t("conv.event.taken_over", { who });
    case "handed_back":
      return t("conv.event.handed_back", { who });
    case "order_created":
      return t("conv.event.order_created", { order: f.order_id ?? "", total: f.total ? ` (${kes(f.total)})` : "" });
    case "payment_requested":
      return t("conv.event.payment_requested", { order: f.order_id ?? "" });
    case "payment":
      if (f.status === "paid" || f.status === "overpaid") {
        return t("conv.event.paid", {
          amount: kes(f.amount),
          order: f.order_id ?? "",
          receipt: f.receipt ? ` (${f.receipt})` : "",
        });
      }
      return t("conv.event.payment_other", { order: f.order_id ?? "", status: t(`conv.payment.${f.status}`, { defaultValue: String(f.status ?? "") }) });
    case "booking_made":
    case "booking_moved":
    case "booking_confirmed":
    case "booking_cancelled":
      return t(`conv.event.${event}`, { booking: f.booking_ref ?? f.booking_id ?? "" });
    default:
      if (event.startsWith("order_")) {
        const what = event.slice("order_".length);
        const words = ORDER_EVENTS.includes(what) ? t(`conv.order.${what}`) : what.replace(/_/g, " ");
        return t("conv.event.order_update", { order: f.order_id ?? "", what: words, amount: f.amount ? ` ${kes(f.amount)}` : "" });
      }
      return event.replace(/_/g, " ") || entry.text;
  }
}

export interface HandoffFacts {
  reason?: string;
  intent?: string;
  order_id?: string | null;
  basket?: string[];
  said?: string;
  by?: string;
}

/** What the bot says happened, in the console's language, from the hand-over's facts; the stored English
 * summary only for tickets written before facts were kept. */
export function handoffSummary(t: Translate, facts: HandoffFacts | undefined, fallback: string): string {
  if (!facts || !facts.reason) return fallback;
  if (facts.reason === "taken_over") return t("conv.summary.takenOver", { who: facts.by ?? t("conv.someone") });
  const parts = [t(`reasons.${facts.reason}`, { defaultValue: facts.reason.replace(/_/g, " ") }) + "."];
  if (facts.said) parts.push(t("conv.summary.said", { said: facts.said }));
  if (facts.basket && facts.basket.length > 0) parts.push(t("conv.summary.basket", { items: facts.basket.join(", ") }));
  if (facts.order_id) parts.push(t("conv.summary.order", { order: facts.order_id }));
  return parts.join(" ");
}

/** The list's line under a name: who spoke last and the start of what they said. */
export function preview(t: Translate, role: string | null | undefined, text: string): string {
  if (!role) return "";
  if (role === "event") return eventText(t, { role: "event", text, event: text });
  const who = role === "customer" ? "" : `${t(`conv.role.${role}`)}: `;
  return who + text.split("\n")[0];
}

/** Older entries put before the ones shown, none twice (a page may overlap what polling brought). */
export function withOlder<T extends { at: string; role: string; text: string }>(older: T[], shown: T[]): T[] {
  const key = (e: T) => `${e.at}|${e.role}|${e.text}`;
  const seen = new Set(shown.map(key));
  return [...older.filter((e) => !seen.has(key(e))), ...shown];
}
