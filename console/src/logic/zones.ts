/** A delivery zone on the map, as the owner types it: the centre as "latitude, longitude" (what a map app copies),
 * the radius in kilometres. The server checks the ranges and that a centre and a radius come together. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

/** "-1.2921, 36.8219" (or with a space, a semicolon, or "lat lon") -> the point; "" -> null; anything else -> undefined. */
export function pointFromText(text: string): GeoPoint | null | undefined {
  const s = text.trim();
  if (!s) return null;
  const m = s.match(/^(-?\d{1,2}(?:\.\d+)?)\s*[,; ]\s*(-?\d{1,3}(?:\.\d+)?)$/);
  if (!m) return undefined;
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  return { lat, lon };
}

export function pointToText(point: GeoPoint | null | undefined): string {
  return point ? `${point.lat}, ${point.lon}` : "";
}

/** The radius as typed: "" -> null, a positive number of km -> it, anything else -> undefined. */
export function radiusFromText(text: string): number | null | undefined {
  const s = text.trim().replace(",", ".");
  if (!s) return null;
  const km = Number(s);
  return Number.isFinite(km) && km > 0 ? km : undefined;
}
