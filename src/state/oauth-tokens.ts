import { loadJsonFile, writeJsonAtomic } from "./atomic-file.js";
import { withFileLock } from "./file-lock.js";

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

type TokenFile = Record<string, unknown>;

function isTokens(value: unknown): value is OAuthTokens {
  const tokens = value as Partial<OAuthTokens> | null;
  return typeof tokens?.access_token === "string" && typeof tokens.expires_at === "number";
}

function readTokenFile(path: string) {
  const validate = (raw: unknown) => (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : undefined);
  return loadJsonFile<TokenFile>(path, validate as (raw: unknown) => TokenFile | undefined, () => ({}));
}

/** The saved tokens of `service`; undefined when there are none (an unreadable file is moved aside). */
export async function loadOAuthTokens(path: string, service: string): Promise<OAuthTokens | undefined> {
  const entry = (await readTokenFile(path)).value[service];
  return isTokens(entry) ? entry : undefined;
}

/**
 * Saves `service`'s tokens, keeping the other services' entries. The file is replaced atomically,
 * readable by its owner only (0600); a symlink in its place is replaced, never followed.
 */
export async function saveOAuthTokens(path: string, service: string, tokens: OAuthTokens): Promise<void> {
  await withFileLock(path, async () => {
    const { value } = await readTokenFile(path);
    await writeJsonAtomic(path, { ...value, [service]: tokens });
  });
}
