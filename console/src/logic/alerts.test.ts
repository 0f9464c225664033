import { describe, expect, it } from "vitest";

import { alertScreenOf, badgeText, deviceLabel, keyBytes, titleWithCount } from "./alerts";

describe("staff alerts in the console", () => {
  it("shows a badge's count up to 9, then 9+, and nothing for none", () => {
    expect([0, 1, 9, 10, 250, undefined].map(badgeText)).toEqual(["", "1", "9", "9+", "9+", ""]);
  });

  it("knows which badge's screen a path shows", () => {
    expect(alertScreenOf("/console/inbox/HND-ABCDE")).toBe("inbox");
    expect(alertScreenOf("/console/orders")).toBe("orders");
    expect(alertScreenOf("/bookings")).toBe("bookings");
    expect(alertScreenOf("/console/catalog")).toBeNull();
    expect(alertScreenOf("/console/")).toBeNull();
  });

  it("puts what is waiting in the tab's title", () => {
    expect(titleWithCount("Tulia console", { inbox: 2, money: 1 })).toBe("(3) Tulia console");
    expect(titleWithCount("Tulia console", {})).toBe("Tulia console");
  });

  it("reads the application server key from base64url", () => {
    expect(Array.from(keyBytes("BP8"))).toEqual([4, 255]);
    expect(keyBytes("AAAA").length).toBe(3);
  });

  it("names a device from its browser", () => {
    const android = "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36";
    expect(deviceLabel(android)).toBe("Android phone, Chrome");
    expect(deviceLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1 Mobile Safari/604.1")).toBe(
      "iPhone, Safari",
    );
  });
});
