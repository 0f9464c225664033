import { Amplify } from "aws-amplify";

/** Where the console signs in and which API it calls: /console/config.json, written by `tulia dev`
 * locally and by the CDK app beside the built files in AWS. */
export interface ConsoleConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** The Cognito endpoint (the local stand-in); absent in AWS. Relative URLs are resolved against the page. */
  userPoolEndpoint?: string;
  /** The admin API's origin ("" when it is the console's own). */
  apiBase: string;
  /** USER_SRP_AUTH in AWS; USER_PASSWORD_AUTH against the local stand-in. */
  authFlow?: "USER_SRP_AUTH" | "USER_PASSWORD_AUTH";
}

let loaded: ConsoleConfig | null = null;

export function config(): ConsoleConfig {
  if (!loaded) throw new Error("The console's configuration is not loaded yet.");
  return loaded;
}

async function fetchConfig(): Promise<ConsoleConfig> {
  const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { cache: "no-store" });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  return (await response.json()) as ConsoleConfig;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  // started by public/boot.js while the scripts downloaded, when it ran first; else read now
  const early = (window as { tuliaConfig?: Promise<ConsoleConfig> }).tuliaConfig;
  const cfg = await (early ?? fetchConfig());
  const endpoint = cfg.userPoolEndpoint ? new URL(cfg.userPoolEndpoint, window.location.href).href : undefined;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: cfg.userPoolId,
        userPoolClientId: cfg.userPoolClientId,
        ...(endpoint ? { userPoolEndpoint: endpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
  loaded = { ...cfg, userPoolEndpoint: endpoint };
  return loaded;
}
