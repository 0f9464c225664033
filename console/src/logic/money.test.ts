import { describe, expect, it } from "vitest";

import { ordersItCanPay, remainingOf, stillOwed, type OrderLike, type OwedLike } from "./money";

const owed = (over: Partial<OwedLike> = {}): OwedLike => ({
  order_id: "ORD-A",
  customer_id: "c1",
  amount: 2610,
  applied_amount: 0,
  status: "open",
  received_at: "2026-11-20T10:00:00Z",
  ...over,
});
const order = (over: Partial<OrderLike> = {}): OrderLike => ({
  order_id: "ORD-B",
  customer_id: "c1",
  status: "draft",
  totals: { total: 1710 },
  paid_amount: 0,
  missing_fields: [],
  pending_payment_id: null,
  ...over,
});

describe("money owed back", () => {
  it("what remains is the amount less what was applied (older records have no applied amount)", () => {
    expect(remainingOf(owed({ applied_amount: 1710 }))).toBe(900);
    expect(remainingOf({ ...owed(), applied_amount: undefined })).toBe(2610);
  });

  it("sums what is still owed over open records, and says for how long the oldest has waited", () => {
    const items = [
      owed({ received_at: "2026-11-20T10:00:00Z" }),
      owed({ applied_amount: 1710, received_at: "2026-11-25T10:00:00Z" }),
      owed({ status: "refunded", received_at: "2026-11-01T10:00:00Z" }),
      owed({ status: "applied", applied_amount: 2610 }),
    ];
    expect(stillOwed(items, new Date("2026-11-28T09:00:00Z"))).toEqual({ total: 3510, count: 2, oldestDays: 7 });
    expect(stillOwed([], new Date())).toEqual({ total: 0, count: 0, oldestDays: null });
  });

  it("offers only the same customer's unpaid, complete orders with nothing in flight, with the part applied", () => {
    const orders = [
      order(),
      order({ order_id: "ORD-C", totals: { total: 3420 } }),
      order({ order_id: "ORD-D", customer_id: "c2" }),
      order({ order_id: "ORD-E", status: "paid", paid_amount: 1710 }),
      order({ order_id: "ORD-F", pending_payment_id: "pay_1" }),
      order({ order_id: "ORD-G", missing_fields: ["delivery.address_text"] }),
      order({ order_id: "ORD-A" }),
      order({ order_id: "ORD-H", totals: { total: 1000 }, paid_amount: 1000, status: "pending_payment" }),
    ];
    expect(ordersItCanPay(owed(), orders).map((x) => [x.order.order_id, x.applies])).toEqual([
      ["ORD-B", 1710],
      ["ORD-C", 2610],
    ]);
  });
});
