import { describe, expect, it } from "vitest";

import { shopIdFrom, signUpProblem } from "./signup";

describe("making a shop", () => {
  it("suggests a shop id from the name", () => {
    expect(shopIdFrom("Mama Njeri's Beauty")).toBe("mama-njeri-s-beauty");
    expect(shopIdFrom("  Duka la Café — Kawangware ")).toBe("duka-la-cafe-kawangware");
    expect(shopIdFrom("!!!")).toBe("");
    expect(shopIdFrom("x".repeat(47) + " yz").length).toBeLessThanOrEqual(48);
    expect(shopIdFrom("x".repeat(47) + " yz").endsWith("-")).toBe(false);
  });

  it("says Cognito's sign-up errors in the console's words", () => {
    const named = (name: string) => Object.assign(new Error("raw"), { name });
    expect(signUpProblem(named("UsernameExistsException"))).toBe("join.exists");
    expect(signUpProblem(named("CodeMismatchException"))).toBe("join.badCode");
    expect(signUpProblem(named("InvalidPasswordException"))).toBe("signIn.weak");
    expect(signUpProblem(named("SomethingElse"))).toBeNull();
  });
});
