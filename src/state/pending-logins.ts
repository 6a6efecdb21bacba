import { loadServiceEntries, updateServiceEntry } from "./service-entries.js";

/**
 * An OAuth login started but not finished, kept in the profile's pending_logins.json (one entry
 * per service, owner-only) so that a later run can trade the code the browser got for tokens.
 */
export interface PendingLogin {
  /** The address the user was asked to open. */
  url: string;
  state: string;
  /** The PKCE secret whose challenge the URL carried: it must stay on this machine. */
  verifier: string;
  client_id: string;
  redirect_uri: string;
  /** When the login stops being accepted, in ms since the epoch. */
  expires_at: number;
}

function isPendingLogin(value: unknown): value is PendingLogin {
  const login = value as Partial<PendingLogin> | null;
  return (
    ["url", "state", "verifier", "client_id", "redirect_uri"].every(
      (key) => typeof login?.[key as keyof PendingLogin] === "string",
    ) && typeof login?.expires_at === "number"
  );
}

/** `service`'s pending login, expired or not; undefined when there is none. */
export async function loadPendingLogin(path: string, service: string): Promise<PendingLogin | undefined> {
  const entry = (await loadServiceEntries(path)).value[service];
  return isPendingLogin(entry) ? entry : undefined;
}

/** Keeps `login` as `service`'s pending login, replacing one started before. */
export async function savePendingLogin(path: string, service: string, login: PendingLogin): Promise<void> {
  await updateServiceEntry(path, service, () => login);
}

/** Forgets `service`'s pending login if it is still the one with `state` (a newer one stays). */
export async function clearPendingLogin(path: string, service: string, state: string): Promise<void> {
  await updateServiceEntry(path, service, (current) =>
    isPendingLogin(current) && current.state !== state ? current : undefined,
  );
}
