// Starts reading the console's configuration while its scripts download: on a phone's network every round trip
// costs half a second, and the app needs the configuration before it can show anything (src/config.ts takes this
// promise when it is there). A file of its own: the console's content security policy allows no inline script.
window.tuliaConfig = fetch("/console/config.json", { cache: "no-store" }).then((response) => {
  if (!response.ok) throw new Error("config.json: HTTP " + response.status);
  return response.json();
});
window.tuliaConfig.catch(() => {}); // src/config.ts reports the failure when it reads it
