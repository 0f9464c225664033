import { describe, expect, it } from "vitest";

import { offTimes } from "./bookings";

const at = (clock: string) => `2026-11-28T${clock}:00+03:00`;

describe("offTimes", () => {
  const span = { from: 8 * 60, to: 19 * 60 };

  it("is before, between and after the working times (a lunch break shows)", () => {
    const working = [
      { start: at("09:00"), end: at("13:00") },
      { start: at("14:00"), end: at("19:00") },
    ];
    expect(offTimes(working, span)).toEqual([
      { from: 480, to: 540 },
      { from: 780, to: 840 },
    ]);
  });

  it("is the whole span on a day off", () => {
    expect(offTimes([], span)).toEqual([{ from: 480, to: 1140 }]);
  });

  it("is nothing when the person works the whole span, in whatever order the times come", () => {
    const working = [
      { start: at("12:00"), end: at("19:00") },
      { start: at("08:00"), end: at("12:00") },
    ];
    expect(offTimes(working, span)).toEqual([]);
  });
});
