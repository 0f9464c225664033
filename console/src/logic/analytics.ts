import dayjs from "dayjs";

import type { Analytics } from "../types";
import { todayInNairobi } from "./bookings";

export type RangePreset = "7d" | "30d" | "90d";

/** The days of a preset range ending today in Nairobi (the shop's day, whatever the browser's time zone:
 * the counters are kept by Nairobi's days, so at 01:00 in Nairobi, 22:00 UTC, today is already the next day). */
export function rangeOf(preset: RangePreset, now: Date): { from: string; to: string } {
  const days = { "7d": 7, "30d": 30, "90d": 90 }[preset];
  const today = todayInNairobi(now);
  const end = dayjs(`${today}T12:00:00`);
  return { from: end.subtract(days - 1, "day").format("YYYY-MM-DD"), to: today };
}

export const METHODS = ["mpesa_stk", "mpesa_c2b", "pesapal"] as const;

/** The charts' series: x in Unix seconds (midday, so no time zone moves a day), one array per figure. */
export function dailySeries(a: Analytics) {
  const rows = dailyRows(a);
  const x = a.days.map((d) => dayjs(`${d.date}T12:00:00`).unix());
  const column = (key: keyof (typeof rows)[number]) => rows.map((r) => Number(r[key]));
  return {
    x,
    conversations: column("conversations"),
    mpesa_stk: column("mpesa_stk"),
    mpesa_c2b: column("mpesa_c2b"),
    pesapal: column("pesapal"),
    handover: column("handover"),
    cost: column("cost"),
  };
}

/** One row per day. */
export function dailyRows(a: Analytics) {
  return a.days.map((d) => ({
    day: dayjs(d.date).format("D MMM"),
    conversations: d.conversations,
    searches: d.funnel.searches,
    orders: d.funnel.orders_created,
    prompts: d.funnel.payment_prompts,
    paid: d.funnel.orders_paid,
    mpesa_stk: d.revenue_by_method.mpesa_stk ?? 0,
    mpesa_c2b: d.revenue_by_method.mpesa_c2b ?? 0,
    pesapal: d.revenue_by_method.pesapal ?? 0,
    handover: d.escalation_rate === null ? 0 : Math.round(d.escalation_rate * 1000) / 10,
    cost: d.llm_cost_kes,
  }));
}

/** The funnel as bars, each with its share of the first step. */
export function funnelRows(a: Analytics) {
  const f = a.funnel;
  const steps: [string, number][] = [
    ["searches", f.searches],
    ["orders", f.orders_created],
    ["prompts", f.payment_prompts],
    ["paid", f.orders_paid],
  ];
  const top = steps[0][1] || Math.max(...steps.map((s) => s[1]), 0);
  return steps.map(([step, count]) => ({ step, count, share: top ? Math.round((count / top) * 100) : 0 }));
}
