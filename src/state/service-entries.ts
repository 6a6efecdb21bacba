import { type Loaded, loadJsonFile } from "./atomic-file.js";
import { updateJsonState } from "./locked-update.js";

/** A JSON object with one entry per service, as tokens.json keeps them: `{"spotify": {...}, "google": {...}}`. */
type ServiceEntries = Record<string, unknown>;

const asEntries = (raw: unknown) =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as ServiceEntries) : undefined;

/** Every service's entry; none when the file is missing (an unreadable one is moved aside). */
export function loadServiceEntries(path: string): Promise<Loaded<ServiceEntries>> {
  return loadJsonFile(path, asEntries, () => ({}));
}

/**
 * Replaces `service`'s entry with what `change` makes of it (undefined removes it), keeping the
 * other services' entries. The file is replaced atomically under its lock, readable by its owner
 * only (0600); a symlink in its place is replaced, never followed.
 */
export async function updateServiceEntry(
  path: string,
  service: string,
  change: (current: unknown) => unknown,
): Promise<void> {
  await updateJsonState(path, loadServiceEntries, (entries) => {
    const next = change(entries[service]);
    if (next === undefined) delete entries[service];
    else entries[service] = next;
  });
}
