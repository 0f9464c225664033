import { describe, expect, it } from "vitest";

import { eventText, handoffSummary, kes, preview, withOlder, type Translate } from "./conversations";

// a stand-in for i18next's t: the key and its values, so each test sees what was asked for
const t: Translate = (key, options = {}) => {
  const values = Object.entries(options)
    .filter(([k]) => k !== "defaultValue")
    .map(([k, v]) => `${k}=${String(v)}`);
  return values.length ? `${key}{${values.join(";")}}` : key;
};

describe("a conversation in the console", () => {
  it("words a payment from its facts, with the receipt when there is one", () => {
    const paid = { role: "event" as const, text: "payment", event: "payment", facts: { status: "paid", amount: 2610, order_id: "ORD-1", receipt: "TX1" } };
    expect(eventText(t, paid)).toBe("conv.event.paid{amount=KES 2,610;order=ORD-1;receipt= (TX1)}");
    const failed = { ...paid, facts: { status: "failed", order_id: "ORD-1" } };
    expect(eventText(t, failed)).toBe("conv.event.payment_other{order=ORD-1;status=conv.payment.failed}");
  });

  it("says who took a conversation over and handed it back", () => {
    expect(eventText(t, { role: "event", text: "", event: "taken_over", by: "amina@shop.example" })).toBe(
      "conv.event.taken_over{who=amina@shop.example}",
    );
    expect(eventText(t, { role: "event", text: "", event: "handed_back" })).toBe("conv.event.handed_back{who=conv.someone}");
  });

  it("words an order update by its step, and an event it does not know as words", () => {
    expect(eventText(t, { role: "event", text: "", event: "order_dispatched", facts: { order_id: "ORD-2" } })).toBe(
      "conv.event.order_update{order=ORD-2;what=conv.order.dispatched;amount=}",
    );
    expect(eventText(t, { role: "event", text: "", event: "something_new" })).toBe("something new");
  });

  it("writes the hand-over's summary from its facts, else keeps the stored one", () => {
    const facts = { reason: "payment_dispute", said: "I paid twice", basket: ["1 x Power bank"], order_id: "ORD-3" };
    expect(handoffSummary(t, facts, "old")).toBe(
      "reasons.payment_dispute. conv.summary.said{said=I paid twice} conv.summary.basket{items=1 x Power bank} " +
        "conv.summary.order{order=ORD-3}",
    );
    expect(handoffSummary(t, undefined, "payment dispute; last intent x")).toBe("payment dispute; last intent x");
    expect(handoffSummary(t, { reason: "taken_over", by: "owner@shop.example" }, "")).toBe(
      "conv.summary.takenOver{who=owner@shop.example}",
    );
  });

  it("previews the last line with who said it", () => {
    expect(preview(t, "bot", "Here's what I found:\n1. A")).toBe("conv.role.bot: Here's what I found:");
    expect(preview(t, "customer", "Habari")).toBe("Habari");
    expect(preview(t, "event", "handed_back")).toBe("conv.event.handed_back{who=conv.someone}");
    expect(preview(t, null, "")).toBe("");
  });

  it("puts older messages first and none twice", () => {
    const a = { at: "1", role: "customer", text: "a" };
    const b = { at: "2", role: "bot", text: "b" };
    const c = { at: "3", role: "customer", text: "c" };
    expect(withOlder([a, b], [b, c])).toEqual([a, b, c]);
  });

  it("writes shillings with thousands", () => {
    expect(kes(1500)).toBe("KES 1,500");
    expect(kes("x")).toBe("");
  });
});
