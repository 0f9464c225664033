import type { Order } from "../types";
import type { Role } from "./roles";

export type OrderAction = "confirm" | "dispatch" | "ready" | "deliver" | "cancel";

const UNPAID = new Set(["draft", "pending_payment", "payment_failed"]);

/** The moves the admin API allows on this order for this person (staff mark paid orders; only the
 * owner cancels, and only an unpaid order). */
export function actionsFor(order: Order, roles: readonly Role[]): OrderAction[] {
  const actions: OrderAction[] = [];
  const f = order.fulfilment_status;
  const staff = roles.includes("owner") || roles.includes("agent");
  if (staff && order.status === "paid") {
    if (f === "not_started") actions.push("confirm");
    if (order.delivery.mode !== "pickup" && (f === "not_started" || f === "processing")) actions.push("dispatch");
    if (order.delivery.mode === "pickup" && (f === "not_started" || f === "processing")) actions.push("ready");
    if (f !== "delivered") actions.push("deliver");
  }
  if (roles.includes("owner") && UNPAID.has(order.status)) actions.push("cancel");
  return actions;
}

/** Whole shillings as Kenyans write them: "KES 1,250". */
export function kes(amount: number | string): string {
  const n = typeof amount === "string" ? Number(amount) : amount;
  return `KES ${Math.round(n).toLocaleString("en-KE")}`;
}
