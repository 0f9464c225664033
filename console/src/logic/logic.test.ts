import { describe, expect, it } from "vitest";

import { dailyRows, funnelRows, rangeOf } from "./analytics";
import { bookingActions, columns, eatClock, eatDay, eatIso, shiftDay, todayInNairobi } from "./bookings";
import { fold, searchItems, textToVariants, VariantSyntaxError, variantsToText } from "./catalog";
import { customerLabel, newKey, replyWindow, sortInbox, unreadCount } from "./inbox";
import { fromFields, toFields } from "./localText";
import { actionsFor, kes } from "./orders";
import { registering } from "./payments";
import { mayOpen, rolesOf } from "./roles";
import type { Analytics, Booking, Calendar, CatalogItem, Order, Tenant, Ticket, TranscriptEntry } from "../types";

function ticket(id: string, priority: Ticket["priority"], created: string, status: Ticket["status"] = "open"): Ticket {
  return {
    tenant_id: "shop",
    conversation_id: `conv-${id}`,
    resolution_note: null,
    resolved_at: null,
    ticket_id: id,
    customer_id: `c-${id}`,
    reason: "human_requested",
    priority,
    status,
    context_snapshot: {},
    assigned_to: null,
    transcript: [],
    last_customer_message_at: null,
    created_at: created,
    updated_at: created,
    customer: null,
  };
}

function said(role: TranscriptEntry["role"], text: string, at: string): TranscriptEntry {
  return { role, text, at, by: null, client_key: null, message_id: null };
}

describe("the inbox", () => {
  it("puts waiting tickets first, then the most urgent, then the longest waiting, and drops resolved ones", () => {
    const sorted = sortInbox([
      ticket("normal-old", "normal", "2026-11-26T08:00:00Z"),
      ticket("high-new", "high", "2026-11-26T09:30:00Z"),
      ticket("claimed-urgent", "urgent", "2026-11-26T07:00:00Z", "claimed"),
      ticket("urgent", "urgent", "2026-11-26T09:45:00Z"),
      ticket("high-old", "high", "2026-11-26T09:00:00Z"),
      ticket("done", "urgent", "2026-11-26T06:00:00Z", "resolved"),
    ]);
    expect(sorted.map((t) => t.ticket_id)).toEqual(["urgent", "high-old", "high-new", "normal-old", "claimed-urgent"]);
  });

  it("knows whether WhatsApp's 24-hour window is open", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(replyWindow("2026-11-25T12:30:00Z", now)).toEqual({ open: true, closesAt: new Date("2026-11-26T12:30:00Z") });
    expect(replyWindow("2026-11-25T11:59:00Z", now).open).toBe(false);
    expect(replyWindow(null, now)).toEqual({ open: false, closesAt: null });
  });

  it("names the customer by name and number, or by id when their data was erased", () => {
    const t = ticket("a", "normal", "2026-11-26T08:00:00Z");
    expect(customerLabel(t)).toBe("c-a");
    expect(customerLabel({ ...t, customer: { customer_id: "c-a", name: "Wanjiru", phone: "+254711600001" } })).toBe(
      "Wanjiru · +254711600001",
    );
    expect(customerLabel({ ...t, customer: { customer_id: "c-a", name: null, phone: "+254711600001" } })).toBe("+254711600001");
  });

  it("makes a new 32-hex-digit key each time (no secure context needed)", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it("counts the customer's messages since staff last looked", () => {
    const t = {
      ...ticket("a", "normal", "2026-11-26T08:00:00Z"),
      transcript: [
        said("customer", "hello", "2026-11-26T08:01:00Z"),
        said("agent", "hi", "2026-11-26T08:02:00Z"),
        said("customer", "are you there?", "2026-11-26T08:05:00Z"),
      ],
    };
    expect(unreadCount(t, "2026-11-26T08:02:00Z")).toBe(1);
    expect(unreadCount(t, undefined)).toBe(2);
  });
});

function delivery(mode: Order["delivery"]["mode"]): Order["delivery"] {
  return { mode, address_text: null, location_hint: null, zone: null, fee: 0, eta: null };
}

function order(change: Partial<Order>): Order {
  return {
    order_id: "ORD-1",
    customer_id: "c1",
    status: "paid",
    payment_status: "paid",
    fulfilment_status: "not_started",
    lines: [],
    delivery: delivery("delivery"),
    totals: { subtotal: 100, delivery_fee: 0, discount: 0, total: 100, currency: "KES" },
    paid_amount: 100,
    tenant_id: "shop",
    conversation_id: null,
    offer: null,
    notes: null,
    pending_payment_id: null,
    pesapal_checkout: null,
    missing_fields: [],
    marks: [],
    booking_id: null,
    created_at: "2026-11-26T08:00:00Z",
    updated_at: "2026-11-26T08:00:00Z",
    paid_at: "2026-11-26T08:00:00Z",
    ...change,
  };
}

describe("order actions", () => {
  it("offers staff the next steps of a paid order as the API allows them", () => {
    expect(actionsFor(order({}), ["agent"])).toEqual(["confirm", "dispatch", "deliver"]);
    expect(actionsFor(order({ delivery: delivery("pickup") }), ["agent"])).toEqual(["confirm", "ready", "deliver"]);
    expect(actionsFor(order({ fulfilment_status: "processing" }), ["agent"])).toEqual(["dispatch", "deliver"]);
    expect(actionsFor(order({ fulfilment_status: "dispatched" }), ["owner"])).toEqual(["deliver"]);
    expect(actionsFor(order({ status: "fulfilled", fulfilment_status: "delivered" }), ["owner"])).toEqual([]);
  });

  it("lets only the owner cancel, and only an unpaid order", () => {
    const unpaid = order({ status: "pending_payment", payment_status: "pending", paid_amount: 0 });
    expect(actionsFor(unpaid, ["owner"])).toEqual(["cancel"]);
    expect(actionsFor(unpaid, ["agent"])).toEqual([]);
    expect(actionsFor(order({}), ["owner"])).not.toContain("cancel");
  });

  it("writes shillings as Kenyans do", () => {
    expect(kes(21500)).toBe("KES 21,500");
    expect(kes("1710.00")).toBe("KES 1,710");
  });
});

describe("roles", () => {
  it("reads Cognito groups in either shape", () => {
    expect(rolesOf(["agent"])).toEqual(["agent"]);
    expect(rolesOf("[owner agent]")).toEqual(["owner", "agent"]);
    expect(rolesOf(undefined)).toEqual([]);
    expect(rolesOf(["admin"])).toEqual([]);
  });

  it("keeps owner-only screens from agents", () => {
    expect(mayOpen(["agent"], "inbox")).toBe(true);
    expect(mayOpen(["agent"], "orders")).toBe(true);
    for (const screen of ["settings", "catalog", "money", "analytics", "knowledge", "offers"] as const) {
      expect(mayOpen(["agent"], screen)).toBe(false);
      expect(mayOpen(["owner"], screen)).toBe(true);
    }
    expect(mayOpen([], "inbox")).toBe(false);
  });
});

function item(id: string, name: string, extra: Partial<CatalogItem> = {}): CatalogItem {
  return {
    tenant_id: "shop", item_id: id, type: "product", name, category: "phones", price: 1, currency: "KES", stock: 1,
    variants: [], tags: [], brand: null, description: "", duration_minutes: null, deposit: null, staff: [],
    place: "shop", zones: [], max_per_order: null, image_url: null, active: true, ...extra,
  };
}

describe("catalog", () => {
  it("finds items by every word, whatever the case and accents", () => {
    const items = [item("SM-A15", "Samsung Galaxy A15", { brand: "Samsung" }), item("CH-002", "Oraimo Charger 20W", { category: "accessories" })];
    expect(fold("Écran  TV-55")).toBe("ecran tv 55");
    expect(searchItems(items, "galaxy samsung").map((i) => i.item_id)).toEqual(["SM-A15"]);
    expect(searchItems(items, "ch-002").map((i) => i.item_id)).toEqual(["CH-002"]);
    const similar = [...items, item("CB-002", "USB-C cable"), item("CH-0021", "Charger 65W")];
    expect(searchItems(similar, " ch-002 ").map((i) => i.item_id)).toEqual(["CH-002"]); // an exact sku: that item
    expect(searchItems(similar, "002").map((i) => i.item_id)).toEqual(["CH-002", "CB-002", "CH-0021"]);
    expect(searchItems(items, "accessories").map((i) => i.item_id)).toEqual(["CH-002"]);
    expect(searchItems(items, "  ")).toHaveLength(2);
    expect(searchItems(items, "iphone")).toEqual([]);
  });

  it("writes variants as one line and reads them back", () => {
    const dims = [
      { name: "colour", options: [{ value: "black", price_delta: 0 }, { value: "blue", price_delta: 500 }] },
      { name: "storage", options: [{ value: "128GB", price_delta: 0 }, { value: "64GB", price_delta: -2000 }] },
    ];
    const line = variantsToText(dims);
    expect(line).toBe("colour: black, blue +500; storage: 128GB, 64GB -2000");
    expect(textToVariants(line)).toEqual(dims);
    expect(textToVariants("")).toEqual([]);
    expect(() => textToVariants("colour black")).toThrow(VariantSyntaxError);
    expect(() => textToVariants("colour: ")).toThrow(VariantSyntaxError);
  });
});

describe("texts in two languages", () => {
  it("edits English and Swahili and keeps the rest", () => {
    expect(toFields("next day")).toEqual({ en: "next day", sw: "" });
    expect(toFields({ en: "next day", sw: "kesho" })).toEqual({ en: "next day", sw: "kesho" });
    expect(fromFields({ en: " next day ", sw: "" })).toBe("next day");
    expect(fromFields({ en: "next day", sw: "kesho" })).toEqual({ en: "next day", sw: "kesho" });
    expect(fromFields({ en: "", sw: "" })).toBeNull();
    expect(fromFields({ en: "next day", sw: "kesho" }, { en: "x", sheng: "kesho bana" })).toEqual({ en: "next day", sw: "kesho", sheng: "kesho bana" });
  });
});

describe("analytics", () => {
  it("turns a preset into the days it covers", () => {
    expect(rangeOf("7d", new Date("2026-11-26T10:00:00"))).toEqual({ from: "2026-11-20", to: "2026-11-26" });
    expect(rangeOf("30d", new Date("2026-03-01T10:00:00"))).toEqual({ from: "2026-01-31", to: "2026-03-01" });
    // 22:30 UTC is 01:30 the next day in Nairobi: the shop's today, whatever the browser's time zone
    expect(rangeOf("7d", new Date("2026-11-26T22:30:00Z"))).toEqual({ from: "2026-11-21", to: "2026-11-27" });
  });

  it("draws the funnel as shares of the searches and a row per day", () => {
    const funnel = { searches: 40, orders_created: 10, payment_prompts: 8, orders_paid: 5 };
    const a: Analytics = {
      date_from: "2026-11-25",
      date_to: "2026-11-26",
      conversations: 12,
      turns: 40,
      messages: 50,
      orders_created: 10,
      orders_paid: 5,
      conversion_rate: 0.4,
      revenue_kes: 10000,
      refunds_kes: 0,
      bookings: { booked: 0, completed: 0, no_shows: 0, cancelled: 0, deposits_paid_kes: 0 },
      payments: {},
      escalations: 3,
      escalation_rate: 0.1,
      escalation_reasons: {},
      top_unmatched_searches: [],
      llm_calls: 4,
      llm_input_tokens: 1000,
      llm_output_tokens: 100,
      llm_estimated_cost_usd: 0.02,
      tool_errors: 0,
      llm_estimated_cost_kes: 3.2,
      funnel,
      revenue_by_method: { mpesa_stk: 10000 },
      days: [
        { date: "2026-11-25", conversations: 0, messages: 0, funnel: { searches: 0, orders_created: 0, payment_prompts: 0, orders_paid: 0 }, revenue_kes: 0, refunds_kes: 0, revenue_by_method: {}, escalations: 0, escalation_rate: null, llm_cost_kes: 0, bookings: { booked: 0, completed: 0, no_shows: 0, cancelled: 0, deposits_paid_kes: 0 } },
        { date: "2026-11-26", conversations: 12, messages: 50, funnel, revenue_kes: 10000, refunds_kes: 0, revenue_by_method: { mpesa_stk: 8000, pesapal: 2000 }, escalations: 3, escalation_rate: 0.25, llm_cost_kes: 3.2, bookings: { booked: 0, completed: 0, no_shows: 0, cancelled: 0, deposits_paid_kes: 0 } },
      ],
    };
    expect(funnelRows(a)).toEqual([
      { step: "searches", count: 40, share: 100 },
      { step: "orders", count: 10, share: 25 },
      { step: "prompts", count: 8, share: 20 },
      { step: "paid", count: 5, share: 13 },
    ]);
    const rows = dailyRows(a);
    expect(rows[0]).toMatchObject({ day: "25 Nov", conversations: 0, handover: 0, mpesa_stk: 0 });
    expect(rows[1]).toMatchObject({ day: "26 Nov", paid: 5, mpesa_stk: 8000, pesapal: 2000, mpesa_c2b: 0, handover: 25, cost: 3.2 });
  });
});

function booking(id: string, staff: string, start: string, status: Booking["status"] = "confirmed"): Booking {
  return {
    booking_id: id, customer_id: "c", item_id: "SV", service_name: "Pedicure", staff_id: staff, staff_name: staff,
    start, end: start, place: "shop", zone: null, address: null, price: 1500, travel_fee: 0, deposit: 450,
    order_id: null, status, status_now: status, deposit_outcome: null, to_pay_there: 1050, marks: [], customer: null,
    tenant_id: "salon", variant_selection: {}, cells_minutes: 60, hold_until: null, moves: 0, language: null,
    created_at: start, updated_at: start,
  };
}

describe("the appointment book", () => {
  it("shows times in Nairobi whatever the browser's zone and the API's offset", () => {
    expect(eatClock("2026-11-28T10:00:00+03:00")).toBe("10:00");
    expect(eatClock("2026-11-28T05:00:00Z")).toBe("08:00");
    expect(eatDay("2026-11-27T22:30:00Z")).toBe("2026-11-28"); // 01:30 on the 28th in Nairobi
    expect(todayInNairobi(new Date("2026-11-26T21:30:00Z"))).toBe("2026-11-27");
    expect(eatIso("2026-11-28", "13:00")).toBe("2026-11-28T13:00:00+03:00");
    expect(shiftDay("2026-11-30", 1)).toBe("2026-12-01");
    expect(shiftDay("2027-01-01", -1)).toBe("2026-12-31");
  });

  it("puts each staff member's bookings and blocked time in start order, cancelled ones after live ones", () => {
    const calendar: Calendar = {
      first_day: "2026-11-28",
      days: 1,
      services: [],
      working: [],
      staff: [
        { staff_id: "wanjiru", name: "Wanjiru" },
        { staff_id: "akinyi", name: "Akinyi" },
      ],
      bookings: [
        booking("BK-LATE", "wanjiru", "2026-11-28T15:00:00+03:00"),
        booking("BK-GONE", "wanjiru", "2026-11-28T10:00:00+03:00", "cancelled"),
        booking("BK-EARLY", "wanjiru", "2026-11-28T10:00:00+03:00"),
        booking("BK-NAILS", "akinyi", "2026-11-28T09:00:00+03:00"),
      ],
      blocks: [{ block_id: "b1", staff_id: "wanjiru", start: "2026-11-28T10:00:00Z", end: "2026-11-28T11:00:00Z", reason: "lunch", by: null }],
    };
    const [wanjiru, akinyi] = columns(calendar);
    expect(wanjiru.entries.map((e) => (e.kind === "booking" ? e.booking.booking_id : e.block.block_id))).toEqual([
      "BK-EARLY", "BK-GONE", "b1", "BK-LATE",
    ]);
    expect(akinyi.entries).toHaveLength(1);
  });

  it("lets staff mark a booking only after its start, and cancel only an open one", () => {
    const before = new Date("2026-11-28T06:00:00Z");
    const after = new Date("2026-11-28T07:30:00Z");
    const b = booking("BK-1", "akinyi", "2026-11-28T10:00:00+03:00");
    expect(bookingActions(b, before)).toEqual(["move", "cancel"]);
    expect(bookingActions(b, after)).toEqual(["completed", "no_show", "cancel"]);
    expect(bookingActions(booking("BK-2", "akinyi", "2026-11-28T10:00:00+03:00", "held"), after)).toEqual(["cancel"]);
    expect(bookingActions(booking("BK-3", "akinyi", "2026-11-28T10:00:00+03:00", "cancelled"), after)).toEqual([]);
  });
});

describe("a changed Paybill or Till", () => {
  const shop = (c2b: Tenant["payments"]["mpesa_c2b"], urlsFor: string | null | undefined) =>
    ({ payments: { mpesa_stk: null, mpesa_c2b: c2b, pesapal: null }, c2b_urls_for: urlsFor }) as unknown as Tenant;

  it("is registering until M-Pesa sends its payments here, then it is not", () => {
    expect(registering(shop({ paybill: "600111" }, "600984"))).toBe("600111");
    expect(registering(shop({ till: "5123456" }, "600984"))).toBe("5123456");
    expect(registering(shop({ paybill: "600111" }, "600111"))).toBeNull();
  });

  it("says nothing for a shop whose number was never changed or that takes no Paybill", () => {
    expect(registering(shop({ paybill: "600111" }, null))).toBeNull();
    expect(registering(shop(null, "600984"))).toBeNull();
    expect(registering(undefined)).toBeNull();
  });
});

describe("a service's deposit and variants as the owner edits them", () => {
  it("reads a deposit written as the CSV writes it", async () => {
    const { depositFromText, depositToText } = await import("./catalog");
    expect(depositFromText("30%")).toEqual({ percent: 30 });
    expect(depositFromText("KES 1,000")).toEqual({ amount: 1000 });
    expect(depositFromText("none")).toEqual({ amount: 0 });
    expect(depositFromText("  ")).toBeNull();
    expect(() => depositFromText("half")).toThrow(/percent/);
    expect(() => depositFromText("150%")).toThrow();
    expect(["30%", "1000", "none", ""].map((x) => depositToText(depositFromText(x)))).toEqual(["30%", "1000", "none", ""]);
  });

  it("writes variant rows as the API keeps them, refusing what cannot be sold", async () => {
    const { rowsToVariants } = await import("./catalog");
    expect(
      rowsToVariants([
        { name: " colour ", options: [{ value: "Black", price_delta: 0 }, { value: " Blue ", price_delta: 500 }, { value: "", price_delta: 9 }] },
        { name: "", options: [] },
      ]),
    ).toEqual([{ name: "colour", options: [{ value: "Black", price_delta: 0 }, { value: "Blue", price_delta: 500 }] }]);
    expect(() => rowsToVariants([{ name: "size", options: [] }])).toThrow(/no options/);
    expect(() => rowsToVariants([{ name: "", options: [{ value: "XL", price_delta: 0 }] }])).toThrow(/need a name/);
    expect(() => rowsToVariants([{ name: "Size", options: [{ value: "S", price_delta: 0 }] }, { name: "size", options: [{ value: "M", price_delta: 0 }] }])).toThrow(/twice/);
  });
});

describe("the appointment book's timeline", () => {
  it("spans the working day, widened to what is booked", async () => {
    const { timelineSpan } = await import("./bookings");
    expect(timelineSpan([], [])).toEqual({ from: 480, to: 1140 });
    expect(timelineSpan(["2026-11-28T04:30:00Z"], ["2026-11-28T17:10:00Z"])).toEqual({ from: 420, to: 1260 }); // 07:30-20:10 EAT
  });

  it("lands a dragged booking on the slot grid, inside the day", async () => {
    const { droppedAt, clockOf } = await import("./bookings");
    const span = { from: 480, to: 1140 };
    expect(clockOf(droppedAt(240, span, 1, 30))).toBe("12:00"); // 4 hours below 08:00
    expect(clockOf(droppedAt(254, span, 1, 30))).toBe("12:15"); // 12:14 to the nearest quarter hour
    expect(clockOf(droppedAt(247, span, 1, 30))).toBe("12:00"); // 12:07
    expect(clockOf(droppedAt(-80, span, 1, 30))).toBe("08:00");
    expect(clockOf(droppedAt(5000, span, 1, 30))).toBe("18:30"); // it still ends by 19:00
    expect(clockOf(droppedAt(300, span, 2, 60))).toBe("10:30");
  });

  it("knows the week of a day, Monday first", async () => {
    const { weekOf } = await import("./bookings");
    expect(weekOf("2026-11-28")).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]);
    expect(weekOf("2026-11-23")[0]).toBe("2026-11-23");
  });
});
