// Meta's Embedded Signup in the browser: what the signup popup tells the console. With the Facebook SDK the session's
// ids come by a WA_EMBEDDED_SIGNUP message from facebook.com and the code as FB.login's answer; the local stack's
// stand-in popup sends both as messages.

export type SignupEvent =
  | { kind: "finish"; wabaId: string; phoneNumberId: string }
  | { kind: "cancel"; step: string | null }
  | { kind: "error"; message: string }
  | { kind: "code"; code: string };

const FACEBOOK_ORIGINS = ["https://www.facebook.com", "https://web.facebook.com"];

/** The origins a signup message may come from: Facebook's, or the stand-in popup's own. */
export function trustedOrigins(mode: "facebook" | "simulator", dialogUrl: string | null | undefined): string[] {
  if (mode === "facebook") return FACEBOOK_ORIGINS;
  return dialogUrl ? [new URL(dialogUrl).origin] : [];
}

/** A message event's data as a signup event (null: not one of the popup's). */
export function readSignupMessage(data: unknown): SignupEvent | null {
  let message: unknown = data;
  if (typeof data === "string") {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!message || typeof message !== "object") return null;
  const m = message as Record<string, unknown>;
  if (m.type === "TULIA_SIMULATED_LOGIN") {
    const code = (m.authResponse as Record<string, unknown> | undefined)?.code;
    return typeof code === "string" && code ? { kind: "code", code } : null;
  }
  if (m.type !== "WA_EMBEDDED_SIGNUP") return null;
  const payload = (m.data ?? {}) as Record<string, unknown>;
  if (m.event === "FINISH" || m.event === "FINISH_ONLY_WABA") {
    const wabaId = payload.waba_id;
    const phoneNumberId = payload.phone_number_id;
    if (typeof wabaId === "string" && typeof phoneNumberId === "string" && wabaId && phoneNumberId) {
      return { kind: "finish", wabaId, phoneNumberId };
    }
    return { kind: "error", message: "The signup finished without a phone number." };
  }
  if (m.event === "CANCEL") return { kind: "cancel", step: typeof payload.current_step === "string" ? payload.current_step : null };
  if (m.event === "ERROR") return { kind: "error", message: String(payload.error_message ?? "Meta reported an error.") };
  return null;
}
