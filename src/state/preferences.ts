import YAML from "yaml";
import { preserveCorruptFile, readTextIfExists, writeFileAtomic, type Loaded } from "./atomic-file.js";
import type { ProfilePaths } from "./paths.js";

export type Preferences = Record<string, unknown>;

export const DEFAULT_PREFERENCES_YAML = `# Marvin preferences: edit freely, or ask Marvin to update them.
dietary: []
spice_tolerance: medium
favorite_cuisines: []
avoid_cuisines: []
has_car: true
max_distance_km: 10
budget: moderate
accessibility: ""
notes: ""
`;

export type PreferenceAction = "set" | "add" | "remove";

async function readPreferencesText(paths: ProfilePaths): Promise<{ path: string; text: string } | undefined> {
  for (const path of [paths.preferences, paths.legacyPreferences]) {
    const text = await readTextIfExists(path);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

function parseDocument(text: string): YAML.Document | undefined {
  const document = YAML.parseDocument(text);
  if (document.errors.length > 0) return undefined;
  const contents = document.contents;
  if (contents === null || YAML.isMap(contents)) return document;
  return undefined;
}

export async function loadPreferences(paths: ProfilePaths): Promise<Loaded<Preferences>> {
  const found = await readPreferencesText(paths);
  if (!found) return { value: {} };
  const document = parseDocument(found.text);
  if (document) return { value: (document.toJS() as Preferences | null) ?? {} };
  const copy = await preserveCorruptFile(found.path);
  return { value: {}, warning: `Could not read ${found.path}: it is not a YAML mapping. It was moved to ${copy}; default preferences are used.` };
}

/** Reads a scalar the way a person types it: numbers, booleans, or text. */
function parseScalar(value: string): unknown {
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (/^(true|yes)$/i.test(trimmed)) return true;
  if (/^(false|no)$/i.test(trimmed)) return false;
  return trimmed;
}

function splitList(value: string): string[] {
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/**
 * Applies one change and writes the file, keeping the user's comments and layout.
 * Returns a one-line description of what changed. Throws with an actionable message on
 * an unreadable file (which is preserved, never overwritten).
 */
export async function updatePreference(paths: ProfilePaths, key: string, action: PreferenceAction, value: string): Promise<string> {
  const found = await readPreferencesText(paths);
  const text = found?.text ?? DEFAULT_PREFERENCES_YAML;
  const document = parseDocument(text);
  if (!document) {
    throw new Error(`${found?.path ?? paths.preferences} is not valid YAML; fix it (or run 'preferences' to edit it) before updating.`);
  }
  if (document.contents === null) document.contents = document.createNode({}) as unknown as typeof document.contents;
  const current = document.get(key) as unknown;
  const currentList = YAML.isSeq(current) ? (current.toJSON() as unknown[]) : current === undefined || current === null || current === "" ? [] : [YAML.isScalar(current) ? current.value : current];
  // An existing list is edited in place, so the comments on it and on its items survive.
  const writeList = (keep: (item: unknown) => boolean, additions: unknown[]) => {
    if (!YAML.isSeq(current)) return document.set(key, [...currentList.filter(keep), ...additions]);
    current.items = current.items.filter((item) => keep(YAML.isScalar(item) ? item.value : item));
    for (const addition of additions) current.add(document.createNode(addition));
  };
  let description: string;
  switch (action) {
    case "set": {
      const parsed = YAML.isSeq(current) ? splitList(value) : parseScalar(value);
      if (Array.isArray(parsed)) writeList(() => false, parsed);
      else document.set(key, parsed);
      description = `${key} set to ${JSON.stringify(parsed)}`;
      break;
    }
    case "add": {
      const additions = splitList(value).filter((item) => !currentList.includes(item));
      writeList(() => true, additions);
      description = additions.length ? `added ${additions.join(", ")} to ${key}` : `${key} already contains ${value}`;
      break;
    }
    case "remove": {
      const removals = splitList(value);
      const kept = currentList.filter((item) => !removals.includes(String(item)));
      writeList((item) => !removals.includes(String(item)), []);
      description = kept.length < currentList.length ? `removed ${removals.join(", ")} from ${key}` : `${key} did not contain ${value}`;
      break;
    }
  }
  await writeFileAtomic(paths.preferences, document.toString());
  return description;
}
