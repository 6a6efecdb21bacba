import { type Loaded, loadJsonFile, writeJsonAtomic } from "./atomic-file.js";
import { updateJsonState } from "./locked-update.js";

export interface SavedPlace {
  label: string;
  name: string;
  address: string;
  phone: string;
  website: string;
  lat: number;
  lng: number;
  notes: string;
}

function parsePlaces(raw: unknown): SavedPlace[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  if (
    !raw.every(
      (item) => typeof item === "object" && item !== null && typeof (item as { label?: unknown }).label === "string",
    )
  )
    return undefined;
  return raw as SavedPlace[];
}

export function loadSavedPlaces(path: string): Promise<Loaded<SavedPlace[]>> {
  return loadJsonFile(path, parsePlaces, () => []);
}

export async function saveSavedPlaces(path: string, places: SavedPlace[]): Promise<void> {
  await writeJsonAtomic(path, places);
}

/** Edits the saved places under `saved_places.json.lock`, so parallel saves all keep their place. */
export function updateSavedPlaces<T>(
  path: string,
  change: (places: SavedPlace[]) => T,
): Promise<{ result: T; warning?: string }> {
  return updateJsonState(path, loadSavedPlaces, change);
}
