import { lstat } from "node:fs/promises";
import type Yaml from "yaml";
import { errorMessage } from "../shared/error-message.js";
import { type Loaded, loadStateFile, type Parsed, readStateText, writeFileAtomic } from "./atomic-file.js";
import { withFileLock } from "./file-lock.js";
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
units: metric # or imperial: °F, mph, inches and miles in weather and travel answers
notes: ""
`;

type PreferenceAction = "set" | "add" | "remove";

/** Preferences need no aliases; a few are fine, an alias bomb ("billion laughs") is refused, not expanded. */
const MAX_ALIAS_COUNT = 100;

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** preferences.yaml, or the legacy prefs.yaml when only that one exists. */
async function preferencesPath(paths: ProfilePaths): Promise<string> {
  if ((await exists(paths.preferences)) || !(await exists(paths.legacyPreferences))) return paths.preferences;
  return paths.legacyPreferences;
}

/** The YAML package, loaded on first use: a run without a preferences file never needs it. */
export const loadYaml = async (): Promise<typeof Yaml> => (await import("yaml")).default;

interface PreferencesDocument {
  document: Yaml.Document;
  value: Preferences;
}

function parsePreferences(YAML: typeof Yaml, text: string): Parsed<PreferencesDocument> {
  const document = YAML.parseDocument(text);
  if (document.errors.length > 0) return { problem: "it is not a YAML mapping" };
  const contents = document.contents;
  if (contents !== null && !YAML.isMap(contents)) return { problem: "it is not a YAML mapping" };
  try {
    const value = (document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Preferences | null) ?? {};
    return { value: { document, value } };
  } catch (error) {
    return { problem: `it is not usable YAML (${errorMessage(error)})` };
  }
}

export async function loadPreferences(paths: ProfilePaths): Promise<Loaded<Preferences>> {
  const path = await preferencesPath(paths);
  if (!(await exists(path))) return { value: {} };
  const YAML = await loadYaml();
  const parse = (text: string): Parsed<Preferences> => {
    const parsed = parsePreferences(YAML, text);
    return "value" in parsed ? { value: parsed.value.value } : parsed;
  };
  return loadStateFile(path, parse, () => ({}), "default preferences are used");
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
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Applies one change and writes the file, keeping the user's comments and layout.
 * Returns a one-line description of what changed. Throws with an actionable message on
 * an unreadable file (which is preserved, never overwritten).
 */
export async function updatePreference(
  paths: ProfilePaths,
  key: string,
  action: PreferenceAction,
  value: string,
): Promise<string> {
  // Several preferences set in one answer run in parallel: they take turns, so none is lost.
  return withFileLock(paths.preferences, () => applyPreference(paths, key, action, value));
}

async function applyPreference(
  paths: ProfilePaths,
  key: string,
  action: PreferenceAction,
  value: string,
): Promise<string> {
  const path = await preferencesPath(paths);
  const read = await readStateText(path);
  if ("problem" in read) throw new Error(`${path} cannot be updated: ${read.problem}. Move it away and try again.`);
  const YAML = await loadYaml();
  const parsed = parsePreferences(YAML, read.value ?? DEFAULT_PREFERENCES_YAML);
  if (!("value" in parsed)) {
    throw new Error(`${path} is not valid YAML; fix it (or run 'preferences' to edit it) before updating.`);
  }
  const { document } = parsed.value;
  if (document.contents === null) document.contents = document.createNode({}) as unknown as typeof document.contents;
  const current = document.get(key) as unknown;
  const currentList = YAML.isSeq(current)
    ? (current.toJSON() as unknown[])
    : current === undefined || current === null || current === ""
      ? []
      : [YAML.isScalar(current) ? current.value : current];
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
      description =
        kept.length < currentList.length
          ? `removed ${removals.join(", ")} from ${key}`
          : `${key} did not contain ${value}`;
      break;
    }
  }
  await writeFileAtomic(paths.preferences, document.toString());
  return description;
}

export type UnitSystem = "metric" | "imperial";

/** `units: imperial` in the preferences; metric otherwise. */
export function preferredUnits(preferences: Preferences): UnitSystem {
  const wanted = preferences.units;
  return typeof wanted === "string" && wanted.trim().toLowerCase() === "imperial" ? "imperial" : "metric";
}
