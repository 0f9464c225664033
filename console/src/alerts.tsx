// Staff alerts in the console: the unread badge of each screen (polled, and at once when this device's service
// worker receives a push), the screen the person opens marked seen, and this device's Web Push subscription.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLocation } from "react-router";

import { api } from "./api";
import { alertScreenOf, keyBytes, titleWithCount } from "./logic/alerts";
import type { AlertFeed } from "./types";

const POLL_MS = 5000;
const TITLE = "Tulia console";

/** The console's service worker (app shell offline, alerts shown when pushed): registered once the page has loaded
 * and the browser is idle, so that on a slow network its own downloads never compete with the first screen's. */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL }).catch(() => {
      // no worker (a private window, an old browser): the console works, without alerts on this device
    });
  const later = () => ("requestIdleCallback" in window ? window.requestIdleCallback(() => void register(), { timeout: 5000 }) : setTimeout(register, 2000));
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

/** Unread counts per screen for the person signed in; opening a screen with unread alerts marks it seen. */
export function useUnread(enabled: boolean): AlertFeed["unread"] {
  const queries = useQueryClient();
  const location = useLocation();
  const feed = useQuery({
    queryKey: ["alerts"],
    queryFn: () => api<AlertFeed>("/admin/alerts", { query: { limit: 10 } }),
    refetchInterval: POLL_MS,
    // on in a background tab too: the tab's title and the app badge are how a waiting customer is noticed there
    refetchIntervalInBackground: true,
    enabled,
  });
  const unread = feed.data?.unread ?? {};
  const open = alertScreenOf(location.pathname);
  const waitingHere = open ? (unread[open] ?? 0) : 0;
  // seen up to the newest alert this screen shows: one raised while the mark is on its way stays unread
  const newestHere = open ? feed.data?.newest[open] : undefined;

  useEffect(() => {
    if (!open || waitingHere === 0) return;
    void api<AlertFeed>("/admin/alerts/seen", { body: { screen: open, until: newestHere } }).then((fresh) =>
      queries.setQueryData(["alerts"], fresh),
    );
  }, [open, waitingHere, newestHere, queries]);

  useEffect(() => {
    document.title = titleWithCount(TITLE, unread);
    const total = Object.values(unread).reduce((a, b) => a + b, 0);
    const app = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    if (total > 0) void app.setAppBadge?.(total).catch(() => undefined);
    else void app.clearAppBadge?.().catch(() => undefined);
  }, [unread]);

  useEffect(() => {
    // a push reached this device: the badges now, not at the next poll
    if (!("serviceWorker" in navigator)) return;
    const listen = (event: MessageEvent) => {
      if (event.data?.kind === "alert") void queries.invalidateQueries({ queryKey: ["alerts"] });
    };
    navigator.serviceWorker.addEventListener("message", listen);
    return () => navigator.serviceWorker.removeEventListener("message", listen);
  }, [queries]);

  return unread;
}

/** Whether this browser can get alerts at all (a service worker and the Push API). */
export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Ask this device for a push subscription with the shop's key (the browser asks the person first). */
export async function subscribeThisDevice(pushKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error("notifications-refused");
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushKey) }));
  return subscription.toJSON();
}

/** Stop this device's subscription (the server forgets it too, by its id). */
export async function unsubscribeThisDevice(): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  await existing?.unsubscribe();
}
