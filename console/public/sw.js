// The console's service worker: an app shell that opens without a network (the last console this phone loaded),
// and staff alerts pushed by the shop's Tulia (Web Push: the push service wakes this worker with the message,
// already decrypted by the browser).
const SHELL = "tulia-console-shell-v1";
const SCOPE = "/console/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll([SCOPE, `${SCOPE}manifest.webmanifest`, `${SCOPE}icons/icon-192.png`]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  if (url.pathname === `${SCOPE}config.json` || url.pathname.startsWith(`${SCOPE}cognito`)) return; // always live
  if (request.mode === "navigate") {
    // a screen: the network's page when there is one (and kept), else the last shell
    event.respondWith(
      fetch(request)
        .then((response) => {
          const copy = response.clone();
          if (response.ok) void caches.open(SHELL).then((cache) => cache.put(SCOPE, copy));
          return response;
        })
        .catch(() => caches.match(SCOPE).then((cached) => cached || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith(`${SCOPE}assets/`)) {
    // built files never change under their name: the cache first, kept when fetched
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            const copy = response.clone();
            if (response.ok) void caches.open(SHELL).then((cache) => cache.put(request, copy));
            return response;
          }),
      ),
    );
  }
});

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = { title: event.data ? event.data.text() : "Tulia" };
  }
  const title = alert.title || "Tulia";
  event.waitUntil(
    self.registration
      .showNotification(title, {
        body: alert.body || "",
        tag: alert.tag, // the same alert again replaces it
        icon: `${SCOPE}icons/icon-192.png`,
        badge: `${SCOPE}icons/icon-192.png`,
        data: { url: alert.url || `${SCOPE}inbox`, screen: alert.screen },
      })
      .then(() => self.clients.matchAll({ type: "window", includeUncontrolled: true }))
      .then((windows) => windows.forEach((w) => w.postMessage({ kind: "alert", screen: alert.screen }))),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || `${SCOPE}inbox`;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname.startsWith(SCOPE));
      if (open) return open.navigate(target).then((w) => (w || open).focus());
      return self.clients.openWindow(target);
    }),
  );
});
