import { describe, expect, it } from "vitest";

import { newId, slugOf } from "./ids";

describe("ids made from names", () => {
  it("reads like the name, in lower case, letters and digits only", () => {
    expect(slugOf("Console Week: 15% off chargers!")).toBe("console-week-15-off-chargers");
    expect(slugOf("Ofa ya Krismasi — Nairobi")).toBe("ofa-ya-krismasi-nairobi");
    expect(slugOf("Café Crème")).toBe("cafe-creme");
  });

  it("adds four random characters, and names something even from an empty name", () => {
    expect(newId("Console Week", () => 0)).toBe("console-week-aaaa");
    expect(newId("!!!", () => 0.999)).toBe("offer-9999");
    expect(newId("x".repeat(100), () => 0).length).toBeLessThanOrEqual(64); // the API's limit
  });
});
