import { z } from "zod";
import { loadSavedPlaces, type SavedPlace, saveSavedPlaces } from "../../state/saved-places.js";
import { defineTool, type ToolContext } from "../define-tool.js";

function placesPath(context: ToolContext): string {
  return context.profiles.paths(context.profileName).savedPlaces;
}

function formatPlace(place: SavedPlace): string {
  const details = [
    place.name,
    place.address,
    place.lat || place.lng ? `(${place.lat}, ${place.lng})` : "",
    place.phone,
    place.website,
    place.notes,
  ]
    .filter(Boolean)
    .join(" · ");
  return `- ${place.label}: ${details || "(no details)"}`;
}

const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const placeTools = [
  defineTool({
    name: "save_place",
    effect: "write",
    description: "Save or update a place in the user's address book under a label (e.g. home, work).",
    parameters: z.object({
      label: z.string().min(1),
      name: z.string().default(""),
      address: z.string().default(""),
      phone: z.string().default(""),
      website: z.string().default(""),
      lat: z.number().default(0),
      lng: z.number().default(0),
      notes: z.string().default(""),
    }),
    handler: async (place, context) => {
      const path = placesPath(context);
      const { value: places, warning } = await loadSavedPlaces(path);
      const index = places.findIndex((existing) => sameLabel(existing.label, place.label));
      const updated = index >= 0;
      if (updated) places[index] = place;
      else places.push(place);
      await saveSavedPlaces(path, places);
      return (
        `${warning ? `${warning}\n` : ""}${updated ? "Updated" : "Saved"} place ` +
        `'${place.label}'.\n${formatPlace(place)}`
      );
    },
  }),
  defineTool({
    name: "remove_place",
    effect: "write",
    description: "Remove a saved place by label.",
    parameters: z.object({ label: z.string().min(1) }),
    handler: async ({ label }, context) => {
      const path = placesPath(context);
      const { value: places } = await loadSavedPlaces(path);
      const kept = places.filter((place) => !sameLabel(place.label, label));
      if (kept.length === places.length) {
        const labels = places.map((place) => place.label);
        return (
          `No saved place labelled '${label}'. ` +
          `${labels.length ? `Saved labels: ${labels.join(", ")}.` : "There are no saved places."}`
        );
      }
      await saveSavedPlaces(path, kept);
      return `Removed place '${label}'.`;
    },
  }),
  defineTool({
    name: "list_places",
    effect: "read",
    description: "List the user's saved places.",
    parameters: z.object({}),
    handler: async (_args, context) => {
      const { value: places, warning } = await loadSavedPlaces(placesPath(context));
      const body = places.length
        ? `Saved places (${places.length}):\n${places.map(formatPlace).join("\n")}`
        : "No saved places yet. Use save_place to add one.";
      return warning ? `${warning}\n${body}` : body;
    },
  }),
];
