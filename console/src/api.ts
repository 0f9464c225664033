import { signOut } from "aws-amplify/auth";

import { idToken } from "./auth";
import { config } from "./config";

/** The admin API's error shape: {code, message, errors?: [{field, message}], details?}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: { field: string; message: string }[] = [],
    readonly details: Record<string, unknown> = {},
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

export interface Page<T> {
  items: T[];
  cursor?: string | null;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; raw?: BodyInit; contentType?: string; query?: Query; headers?: Record<string, string> } = {},
): Promise<T> {
  const token = await idToken();
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    headers["Content-Type"] = init.contentType ?? "text/plain";
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(config().apiBase + withQuery(path, init.query), {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null; // not JSON (a gateway's error page): the status says what happened
  }
  if (response.status === 401) {
    // the session is over (expired, or the person was removed): sign in again
    await signOut().catch(() => undefined);
    window.location.assign(`${import.meta.env.BASE_URL}sign-in`);
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      String(data?.code ?? response.status),
      String(data?.message ?? response.statusText),
      Array.isArray(data?.errors) ? data.errors : [],
      data?.details ?? {},
      data,
    );
  }
  return data as T;
}

/** Every page of a listing (small shops: a few hundred items at most). */
export async function all<T>(path: string, query: Query = {}, maxPages = 20): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null | undefined;
  for (let n = 0; n < maxPages; n++) {
    const page = await api<Page<T>>(path, { query: { ...query, limit: 100, cursor } });
    items.push(...page.items);
    cursor = page.cursor;
    if (!cursor) break;
  }
  return items;
}

/** A readable line for an error (field errors included). */
export function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors.map((e) => `${e.field}: ${e.message}`).join("; ");
    return fields ? `${error.message} (${fields})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Save what a route answers as a file (a CSV download), with the signed-in person's token. */
export async function download(path: string, query: Query, filename: string): Promise<void> {
  const token = await idToken();
  const response = await fetch(config().apiBase + withQuery(path, query), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new ApiError(response.status, String(response.status), response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
