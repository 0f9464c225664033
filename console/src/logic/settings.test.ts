import { describe, expect, it } from "vitest";

import { changedSections } from "./settings";

describe("changedSections", () => {
  const loaded = { name: "Duka Bora", persona: { bot_name: "Bora" }, messaging: { marketing_hours: "daily 08:00-20:00" } };

  it("sends only the section she edited", () => {
    const typed = { ...loaded, persona: { bot_name: "Zawadi" } };
    expect(changedSections(loaded, typed)).toEqual({ persona: { bot_name: "Zawadi" } });
  });

  it("compares whole sections, deeply", () => {
    const typed = { ...loaded, messaging: { marketing_hours: "daily 00:00-23:59" }, persona: { bot_name: "Bora" } };
    expect(changedSections(loaded, typed)).toEqual({ messaging: { marketing_hours: "daily 00:00-23:59" } });
  });

  it("a section that appears for the first time is sent", () => {
    expect(changedSections(loaded, { ...loaded, bookings: { hours: "Tue-Sat 09:00-18:00" } })).toEqual({
      bookings: { hours: "Tue-Sat 09:00-18:00" },
    });
  });

  it("saving an unchanged form still sends something the API accepts", () => {
    expect(changedSections(loaded, { ...loaded })).toEqual({ name: "Duka Bora" });
  });
});
