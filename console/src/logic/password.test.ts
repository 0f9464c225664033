import { describe, expect, it } from "vitest";

import { passwordOk, passwordRules, signInProblem } from "./password";

describe("choosing a password", () => {
  it("checks each of the pool's rules as she types", () => {
    expect(passwordRules("akinyi")).toEqual({ length: false, lower: true, upper: false, digit: false, symbol: false });
    expect(passwordRules("Akinyi-2026")).toEqual({ length: false, lower: true, upper: true, digit: true, symbol: true });
    expect(passwordRules("Akinyi-2026!")).toEqual({ length: true, lower: true, upper: true, digit: true, symbol: true });
    expect(passwordOk("Akinyi 2026 x")).toBe(true); // a space is one of Cognito's symbols
    expect(passwordOk("AKINYI-2026")).toBe(false);
  });

  it("names Cognito's errors so the console can say them in its own language", () => {
    const weak = Object.assign(new Error("Password does not conform to policy: ..."), { name: "InvalidPasswordException" });
    expect(signInProblem(weak)).toBe("signIn.weak");
    const wrong = Object.assign(new Error("Incorrect username or password."), { name: "NotAuthorizedException" });
    expect(signInProblem(wrong)).toBe("signIn.wrong");
    expect(signInProblem(new Error("network down"))).toBeNull();
  });
});
