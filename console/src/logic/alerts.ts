// Staff alerts in the console: the unread badges and the device subscription's key (pure parts, tested by Vitest).

export type AlertScreen = "inbox" | "orders" | "money" | "bookings";
export const ALERT_SCREENS: readonly AlertScreen[] = ["inbox", "orders", "money", "bookings"];

/** What a badge shows: nothing for none, the count up to 9, then "9+". */
export function badgeText(count: number | undefined): string {
  if (!count || count < 0) return "";
  return count > 9 ? "9+" : String(count);
}

/** The screen a console path shows, when it is one that has a badge ("/console/inbox/HND-1" -> "inbox"). */
export function alertScreenOf(pathname: string): AlertScreen | null {
  const first = pathname.replace(/^\/console/, "").split("/").filter(Boolean)[0];
  return (ALERT_SCREENS as readonly string[]).includes(first ?? "") ? (first as AlertScreen) : null;
}

/** The tab's title with what is waiting: "(3) Tulia console". */
export function titleWithCount(base: string, unread: Partial<Record<AlertScreen, number>>): string {
  const total = ALERT_SCREENS.reduce((sum, s) => sum + (unread[s] ?? 0), 0);
  return total > 0 ? `(${total > 99 ? "99+" : total}) ${base}` : base;
}

/** The application server key as ``pushManager.subscribe`` takes it (base64url -> bytes). */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A name for this device in the list of devices ("Android phone, Chrome"), from its user agent. */
export function deviceLabel(userAgent: string): string {
  const system = /Android/.test(userAgent)
    ? "Android phone"
    : /iPhone|iPad/.test(userAgent)
      ? "iPhone"
      : /Windows/.test(userAgent)
        ? "Windows computer"
        : /Mac OS X/.test(userAgent)
          ? "Mac"
          : /Linux/.test(userAgent)
            ? "Linux computer"
            : "Device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "";
  return browser ? `${system}, ${browser}` : system;
}
