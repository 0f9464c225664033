export type Role = "owner" | "agent";

/** Cognito groups as the ID token carries them: a list, or (as some gateways pass it) "[owner agent]". */
export function rolesOf(raw: unknown): Role[] {
  const names = Array.isArray(raw)
    ? raw.map(String)
    : typeof raw === "string"
      ? raw.split(/[\s,[\]"]+/).filter(Boolean)
      : [];
  return (["owner", "agent"] as const).filter((r) => names.includes(r));
}

export type Screen =
  | "inbox"
  | "conversations"
  | "customers"
  | "messages"
  | "orders"
  | "bookings"
  | "money"
  | "catalog"
  | "offers"
  | "knowledge"
  | "understanding"
  | "analytics"
  | "settings"
  | "setup"
  | "alerts";

/** What each role may open, as the admin API enforces it (agents: the inbox, orders and bookings). */
const OWNER_ONLY: ReadonlySet<Screen> = new Set(["money", "catalog", "offers", "messages", "knowledge", "understanding", "analytics", "settings", "setup"]);

export function mayOpen(roles: readonly Role[], screen: Screen): boolean {
  if (roles.includes("owner")) return true;
  return roles.includes("agent") && !OWNER_ONLY.has(screen);
}
