import { fetchAuthSession, signOut } from "aws-amplify/auth";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

import { config } from "./config";
import { rolesOf, type Role } from "./logic/roles";

export interface Session {
  email: string;
  tenantId: string;
  roles: Role[];
  /** One of the platform's operators (Cognito group "platform"): every shop's status and use, no shop of their own. */
  operator: boolean;
}

type SignInStep = "done" | "new_password" | "confirm_email";

interface AuthState {
  session: Session | null;
  loading: boolean;
  signInWith(email: string, password: string): Promise<SignInStep>;
  chooseNewPassword(password: string): Promise<void>;
  /** A new token from Cognito (after making a shop: the token trigger puts it in). */
  refresh(): Promise<Session | null>;
  leave(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/** Fetch the sign-in calls (Amplify's sign-in flow, kept out of the first load) while the owner types,
 * so the click on "Sign in" does not wait for them on a slow network. */
export function prepareSignIn(): void {
  void import("./signInCalls");
}

/** The current ID token (refreshed by Amplify when it expires), for the admin API. */
export async function idToken(): Promise<string | null> {
  const { tokens } = await fetchAuthSession();
  return tokens?.idToken?.toString() ?? null;
}

async function currentSession(forceRefresh = false): Promise<Session | null> {
  try {
    const { tokens } = await fetchAuthSession({ forceRefresh });
    const claims = tokens?.idToken?.payload;
    if (!claims) return null;
    return {
      email: String(claims.email ?? ""),
      tenantId: String(claims["custom:tenant_id"] ?? ""),
      roles: rolesOf(claims["cognito:groups"]),
      operator: JSON.stringify(claims["cognito:groups"] ?? "").includes("platform"),
    };
  } catch {
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    currentSession().then((s) => {
      setSession(s);
      setLoading(false);
    });
  }, []);

  const signInWith = useCallback(async (email: string, password: string): Promise<SignInStep> => {
    const flow = config().authFlow ?? "USER_SRP_AUTH";
    const { signIn } = await import("./signInCalls");
    const result = await signIn({ username: email.trim().toLowerCase(), password, options: { authFlowType: flow } });
    if (result.nextStep.signInStep === "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED") return "new_password";
    if (result.nextStep.signInStep === "CONFIRM_SIGN_UP") return "confirm_email";
    if (result.nextStep.signInStep !== "DONE") throw new Error(result.nextStep.signInStep);
    setSession(await currentSession());
    return "done";
  }, []);

  const chooseNewPassword = useCallback(async (password: string) => {
    const { confirmSignIn } = await import("./signInCalls");
    const result = await confirmSignIn({ challengeResponse: password });
    if (result.nextStep.signInStep !== "DONE") throw new Error(result.nextStep.signInStep);
    setSession(await currentSession());
  }, []);

  const refresh = useCallback(async () => {
    const fresh = await currentSession(true);
    setSession(fresh);
    return fresh;
  }, []);

  const leave = useCallback(async () => {
    await signOut();
    setSession(null);
  }, []);

  const value = useMemo(
    () => ({ session, loading, signInWith, chooseNewPassword, refresh, leave }),
    [session, loading, signInWith, chooseNewPassword, refresh, leave],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth outside AuthProvider");
  return state;
}
