import { z } from "zod";
import { loadSavedPlaces, type SavedPlace, updateSavedPlaces } from "../../../state/saved-places.js";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";

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
      const { result: updated, warning } = await updateSavedPlaces(placesPath(context), (places) => {
        const index = places.findIndex((existing) => sameLabel(existing.label, place.label));
        if (index >= 0) places[index] = place;
        else places.push(place);
        return index >= 0;
      });
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
      const { result: labels } = await updateSavedPlaces(placesPath(context), (places) => {
        const before = places.map((place) => place.label);
        const kept = places.filter((place) => !sameLabel(place.label, label));
        places.splice(0, places.length, ...kept);
        return kept.length === before.length ? before : undefined;
      });
      if (!labels) return `Removed place '${label}'.`;
      return (
        `No saved place labelled '${label}'. ` +
        `${labels.length ? `Saved labels: ${labels.join(", ")}.` : "There are no saved places."}`
      );
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
