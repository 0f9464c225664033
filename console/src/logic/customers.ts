// Finding a customer the way the shop knows them: by a part of the name, or by the number as she types it
// (0712 345 678, +254 712..., 712345678).

import type { Customer } from "../types";
import { fold } from "./catalog";

export function findCustomers(customers: readonly Customer[], query: string): Customer[] {
  const q = query.trim();
  if (!q) return [...customers];
  const digits = q.replace(/\D/g, "");
  if (digits.length >= 3 && !/[a-z]/i.test(q)) {
    const local = digits.startsWith("0") ? digits.slice(1) : digits.startsWith("254") ? digits.slice(3) : digits;
    return customers.filter((c) => (c.phone_e164 ?? "").replace(/\D/g, "").includes(local));
  }
  const words = fold(q).split(" ").filter(Boolean);
  return customers.filter((c) => {
    const name = fold(c.display_name ?? "");
    return words.every((w) => name.includes(w));
  });
}
