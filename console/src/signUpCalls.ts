// Cognito's three sign-up calls (SignUp, ConfirmSignUp, ResendConfirmationCode): public JSON calls of the user pool's
// API that need no credentials. Written here rather than taken from Amplify, whose versions carry its auto sign-in
// machinery (2 KB of the console's budget) for what are three POSTs; Cognito's error names are kept (signUpProblem).
import type { ConsoleConfig } from "./config";

async function call(c: ConsoleConfig, action: string, body: Record<string, unknown>): Promise<unknown> {
  const endpoint = c.userPoolEndpoint
    ? new URL(c.userPoolEndpoint, window.location.origin).toString()
    : `https://cognito-idp.${c.region}.amazonaws.com/`;
  const answer = await fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify({ ClientId: c.userPoolClientId, ...body }),
  });
  const data = (await answer.json().catch(() => ({}))) as { __type?: string; message?: string };
  if (!answer.ok) {
    const error = new Error(data.message ?? `Cognito ${action}: HTTP ${answer.status}`);
    error.name = String(data.__type ?? "CognitoError").split("#").pop() ?? "CognitoError";
    throw error;
  }
  return data;
}

/** A new account (the email is the username; Cognito mails a code to it). */
export function signUp(c: ConsoleConfig, email: string, password: string, name: string): Promise<unknown> {
  return call(c, "SignUp", { Username: email, Password: password, UserAttributes: [{ Name: "name", Value: name }] });
}

export function confirmSignUp(c: ConsoleConfig, email: string, code: string): Promise<unknown> {
  return call(c, "ConfirmSignUp", { Username: email, ConfirmationCode: code });
}

export function resendCode(c: ConsoleConfig, email: string): Promise<unknown> {
  return call(c, "ResendConfirmationCode", { Username: email });
}
