import { describe, expect, it } from "vitest";

import type { Customer } from "../types";
import { findCustomers } from "./customers";

const made = (name: string | null, phone: string | null): Customer =>
  ({ customer_id: `c-${phone}`, display_name: name, phone_e164: phone }) as Customer;

describe("finding a customer", () => {
  const people = [made("Wanjiku Kamau", "+254712345678"), made("Otieno", "+254733111222"), made(null, "+254700000001")];

  it("finds by the number however it is typed", () => {
    for (const typed of ["0712 345 678", "+254 712 345678", "712345", "254712"]) {
      expect(findCustomers(people, typed).map((c) => c.display_name)).toEqual(["Wanjiku Kamau"]);
    }
  });

  it("finds by part of the name, without minding case or accents", () => {
    expect(findCustomers(people, "kamau").map((c) => c.display_name)).toEqual(["Wanjiku Kamau"]);
    expect(findCustomers(people, "OTIÉNO").map((c) => c.display_name)).toEqual(["Otieno"]);
    expect(findCustomers(people, "kamau otieno")).toEqual([]);
    expect(findCustomers(people, "  ")).toHaveLength(3);
  });
});
