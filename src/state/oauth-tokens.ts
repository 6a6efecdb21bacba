import { loadServiceEntries, updateServiceEntry } from "./service-entries.js";

/**
 * One service's OAuth tokens in the profile's tokens.json, which holds an entry per service
 * (`{"spotify": {...}, "google": {...}}`) in the field names of the OAuth token answer, plus the
 * absolute expiry the original Marvin stores.
 */
export interface OAuthTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** When the access token stops working, in seconds since the epoch. */
  expires_at: number;
}

function isTokens(value: unknown): value is OAuthTokens {
  const tokens = value as Partial<OAuthTokens> | null;
  return typeof tokens?.access_token === "string" && typeof tokens.expires_at === "number";
}

/** The saved tokens of `service`; undefined when there are none (an unreadable file is moved aside). */
export async function loadOAuthTokens(path: string, service: string): Promise<OAuthTokens | undefined> {
  const entry = (await loadServiceEntries(path)).value[service];
  return isTokens(entry) ? entry : undefined;
}

/**
 * Saves `service`'s tokens, keeping the other services' entries. The file is replaced atomically,
 * readable by its owner only (0600); a symlink in its place is replaced, never followed.
 */
export async function saveOAuthTokens(path: string, service: string, tokens: OAuthTokens): Promise<void> {
  await updateServiceEntry(path, service, () => tokens);
}
