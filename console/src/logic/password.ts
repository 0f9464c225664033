// The staff user pool's password policy (infra/auth.py: 12 characters or more, every kind; the local pool the same), checked as she types, and
// the sign-in errors Cognito names, said in the console's language instead of Cognito's raw English.

export type PasswordRule = "length" | "lower" | "upper" | "digit" | "symbol";
export const PASSWORD_RULES: readonly PasswordRule[] = ["length", "lower", "upper", "digit", "symbol"];

const CHECKS: Record<PasswordRule, (p: string) => boolean> = {
  length: (p) => p.length >= 12, // the CDK app's pool (infra/auth.py): 12 or more
  lower: (p) => /[a-z]/.test(p),
  upper: (p) => /[A-Z]/.test(p),
  digit: (p) => /[0-9]/.test(p),
  symbol: (p) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(p), // Cognito's list of special characters
};

/** Which of the rules the password meets. */
export function passwordRules(password: string): Record<PasswordRule, boolean> {
  return Object.fromEntries(PASSWORD_RULES.map((r) => [r, CHECKS[r](password)])) as Record<PasswordRule, boolean>;
}

export function passwordOk(password: string): boolean {
  return PASSWORD_RULES.every((r) => CHECKS[r](password));
}

/** The key of the console's message for a sign-in error, by the name Cognito gives it (null: say its own words). */
export function signInProblem(error: unknown): string | null {
  const name = error instanceof Error ? error.name : "";
  const known: Record<string, string> = {
    InvalidPasswordException: "signIn.weak",
    NotAuthorizedException: "signIn.wrong",
    UserNotFoundException: "signIn.wrong",
    PasswordResetRequiredException: "signIn.reset",
    LimitExceededException: "signIn.tooMany",
    TooManyRequestsException: "signIn.tooMany",
  };
  return known[name] ?? null;
}
