import { describe, expect, it } from "vitest";

import { INTENTS, isPurchase } from "./understanding";

describe("what a message meant", () => {
  it("offers every intent once, a purchase first", () => {
    expect(new Set(INTENTS).size).toBe(INTENTS.length);
    expect(INTENTS[0]).toBe("sales_discovery");
    expect(INTENTS).toContain("order_status");
  });
  it("asks for an item and a count only for a purchase or a question about an item", () => {
    expect(isPurchase("sales_discovery")).toBe(true);
    expect(isPurchase("product_question")).toBe(true);
    expect(isPurchase("order_status")).toBe(false);
    expect(isPurchase("")).toBe(false);
  });
});
