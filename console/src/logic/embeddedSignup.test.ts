import { describe, expect, it } from "vitest";

import { readSignupMessage, trustedOrigins } from "./embeddedSignup";

describe("the WhatsApp signup popup's messages", () => {
  it("reads the number chosen, as Meta sends it (a JSON string)", () => {
    const data = JSON.stringify({ type: "WA_EMBEDDED_SIGNUP", event: "FINISH", version: 3, data: { phone_number_id: "106", waba_id: "901" } });
    expect(readSignupMessage(data)).toEqual({ kind: "finish", wabaId: "901", phoneNumberId: "106" });
  });

  it("reads a cancel, an error and the stand-in's code", () => {
    expect(readSignupMessage({ type: "WA_EMBEDDED_SIGNUP", event: "CANCEL", data: { current_step: "PHONE_NUMBER_SETUP" } })).toEqual({
      kind: "cancel",
      step: "PHONE_NUMBER_SETUP",
    });
    expect(readSignupMessage({ type: "WA_EMBEDDED_SIGNUP", event: "ERROR", data: { error_message: "Number in use" } })).toEqual({
      kind: "error",
      message: "Number in use",
    });
    expect(readSignupMessage(JSON.stringify({ type: "TULIA_SIMULATED_LOGIN", authResponse: { code: "abc" } }))).toEqual({ kind: "code", code: "abc" });
  });

  it("ignores what is not the popup's", () => {
    expect(readSignupMessage("not json")).toBeNull();
    expect(readSignupMessage({ type: "something" })).toBeNull();
    expect(readSignupMessage({ type: "WA_EMBEDDED_SIGNUP", event: "FINISH", data: {} })).toEqual({
      kind: "error",
      message: "The signup finished without a phone number.",
    });
  });

  it("trusts only Facebook's origins, or the stand-in popup's own", () => {
    expect(trustedOrigins("facebook", null)).toContain("https://www.facebook.com");
    expect(trustedOrigins("simulator", "http://127.0.0.1:4321/dialog/embedded-signup")).toEqual(["http://127.0.0.1:4321"]);
  });
});
