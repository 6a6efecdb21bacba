import { z } from "zod";
import { isValidProfileName } from "../../../state/paths.js";
import { updatePreference } from "../../../state/preferences.js";
import { defineTool } from "../../kit/define-tool.js";

export const profileTools = [
  defineTool({
    name: "switch_profile",
    effect: "write",
    description: "Switch to another user profile (created if new): preferences, places, history.",
    parameters: z.object({ profile_name: z.string().min(1) }),
    handler: async ({ profile_name }, context) => {
      const name = profile_name.trim();
      if (!isValidProfileName(name)) {
        return `Invalid profile name '${profile_name}': use letters, digits, '.', '_' or '-' (max 64 characters).`;
      }
      if (name === context.profileName) return `Profile '${name}' is already active.`;
      const { created } = await context.switchProfile(name);
      const existing = await context.profiles.list();
      return (
        `Switched to profile '${name}'${created ? " (new profile created)" : ""}. Profiles: ` +
        `${existing.join(", ")}.`
      );
    },
  }),
  defineTool({
    name: "update_preferences",
    effect: "write",
    description: "Change one preference in preferences.yaml: set a value, or add/remove list items (comma-separated).",
    parameters: z.object({
      key: z.string().min(1).describe("e.g. dietary, budget, favorite_cuisines, max_distance_km"),
      action: z.enum(["set", "add", "remove"]).default("set"),
      value: z.string(),
    }),
    handler: async ({ key, action, value }, context) => {
      const paths = context.profiles.paths(context.profileName);
      await context.profiles.ensure(context.profileName);
      const change = await updatePreference(paths, key.trim(), action, value);
      return `Preferences of '${context.profileName}' updated: ${change}.`;
    },
  }),
];
