// Money owed back as the owner closes it out: what remains of each record, how much is still owed in all and for
// how long, and which of the customer's orders it can pay (the server decides; these only choose what to offer).

export interface OwedLike {
  order_id: string;
  customer_id: string;
  amount: number;
  applied_amount?: number;
  status: string;
  received_at: string;
}

export interface OrderLike {
  order_id: string;
  customer_id: string;
  status: string;
  totals: { total: number };
  paid_amount: number;
  missing_fields?: string[];
  pending_payment_id?: string | null;
}

const PAYABLE = new Set(["draft", "pending_payment", "payment_failed"]);

export const remainingOf = (owed: OwedLike): number => Math.max(0, owed.amount - (owed.applied_amount ?? 0));
export const dueOf = (order: OrderLike): number => Math.max(0, order.totals.total - order.paid_amount);

/** What is still owed back: the sum of what remains of the open records, how many, and the oldest one's age in
 * whole days (0: today). */
export function stillOwed(items: readonly OwedLike[], now: Date): { total: number; count: number; oldestDays: number | null } {
  const open = items.filter((o) => o.status === "open" && remainingOf(o) > 0);
  const oldest = open.reduce<number | null>((min, o) => {
    const at = Date.parse(o.received_at);
    return min === null || at < min ? at : min;
  }, null);
  return {
    total: open.reduce((sum, o) => sum + remainingOf(o), 0),
    count: open.length,
    oldestDays: oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest) / 86_400_000)),
  };
}

/** The customer's orders this money can go to: unpaid, complete, nothing in flight, not the order it came from;
 * each with the part that would be applied (as much as the order needs, at most what remains). */
export function ordersItCanPay<T extends OrderLike>(owed: OwedLike, orders: readonly T[]): { order: T; applies: number }[] {
  const left = remainingOf(owed);
  return orders
    .filter(
      (o) =>
        o.customer_id === owed.customer_id &&
        o.order_id !== owed.order_id &&
        PAYABLE.has(o.status) &&
        dueOf(o) > 0 &&
        !(o.missing_fields ?? []).length &&
        !o.pending_payment_id,
    )
    .map((order) => ({ order, applies: Math.min(left, dueOf(order)) }));
}
