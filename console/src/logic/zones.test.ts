import { describe, expect, it } from "vitest";

import { pointFromText, pointToText, radiusFromText } from "./zones";

describe("a zone's centre and radius as the owner types them", () => {
  it("reads the coordinates a map app copies", () => {
    expect(pointFromText("-1.2921, 36.8219")).toEqual({ lat: -1.2921, lon: 36.8219 });
    expect(pointFromText(" -1.2921;36.8219 ")).toEqual({ lat: -1.2921, lon: 36.8219 });
    expect(pointFromText("-1.2921 36.8219")).toEqual({ lat: -1.2921, lon: 36.8219 });
    expect(pointFromText("")).toBeNull();
  });
  it("refuses what is not a point on the globe", () => {
    expect(pointFromText("Westlands")).toBeUndefined();
    expect(pointFromText("91, 36")).toBeUndefined();
    expect(pointFromText("-1.29, 181")).toBeUndefined();
  });
  it("writes a point back as it reads it", () => {
    expect(pointFromText(pointToText({ lat: -1.2841, lon: 36.8233 }))).toEqual({ lat: -1.2841, lon: 36.8233 });
    expect(pointToText(null)).toBe("");
  });
  it("reads a radius in kilometres", () => {
    expect(radiusFromText("2.5")).toBe(2.5);
    expect(radiusFromText("2,5")).toBe(2.5);
    expect(radiusFromText("")).toBeNull();
    expect(radiusFromText("0")).toBeUndefined();
    expect(radiusFromText("far")).toBeUndefined();
  });
});
