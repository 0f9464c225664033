import type { Tenant } from "../types";

/** The Paybill/Till the shop lists while M-Pesa does not yet send its payments here (its C2B URLs are
 * being registered): customers are not offered it until then. */
export function registering(tenant: Tenant | undefined): string | null {
  const c2b = tenant?.payments.mpesa_c2b;
  const listed = c2b?.paybill || c2b?.till || null;
  if (!listed || tenant?.c2b_urls_for == null || tenant.c2b_urls_for === listed) return null;
  return listed;
}
