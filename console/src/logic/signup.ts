// Making a shop: the shop id suggested from its name (the server checks it is free and well formed).

/** A shop id from the shop's name: lower-case letters, digits and single dashes, at most 48. */
export function shopIdFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
}

/** The sign-up errors Cognito names, as keys of the console's messages (null: say its own words). */
export function signUpProblem(error: unknown): string | null {
  const name = error instanceof Error ? error.name : "";
  const known: Record<string, string> = {
    UsernameExistsException: "join.exists",
    CodeMismatchException: "join.badCode",
    ExpiredCodeException: "join.badCode",
    InvalidPasswordException: "signIn.weak",
    LimitExceededException: "signIn.tooMany",
    TooManyRequestsException: "signIn.tooMany",
  };
  return known[name] ?? null;
}
