import { z } from "zod";
import { nearestNames } from "../../shared/edit-distance.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import { defineTool, ToolError } from "./define-tool.js";
import { toParametersSchema } from "./json-schema.js";
import type { FamilyListing, ToolRegistry } from "./registry.js";

export const LOAD_TOOLS = "load_tools";

const parameters = z.object({
  families: z.array(z.string().trim().min(1)).min(1).describe('Names of the families to load, e.g. ["places"]'),
});

const INTRO =
  "Offers more tools. Only some of Marvin's tools are offered at first; each family below adds its tools from " +
  "your next step on. A tool listed here can also be called directly: the call runs and loads its family.";

/** load_tools as the model sees it: the families not offered yet, one line each. */
export function loadToolsSchema(families: readonly FamilyListing[]): ToolSchema {
  const lines = families.map((family) => `- ${family.name}: ${family.summary} (${family.tools.join(", ")})`);
  const description = lines.length ? `${INTRO}\nFamilies:\n${lines.join("\n")}` : INTRO;
  return { type: "function", function: { name: LOAD_TOOLS, description, parameters: toParametersSchema(parameters) } };
}

function loadedText(families: readonly FamilyListing[]): string {
  const each = families.map((family) => `${family.name} (${family.tools.join(", ")})`);
  return `Loaded ${each.join("; ")}. These tools are offered from your next step on: call them directly.`;
}

/** The tool itself: checks the names; the session offers the families once the call succeeded (tool-offer.ts). */
export function loadToolsTool(registry: ToolRegistry) {
  return defineTool({
    name: LOAD_TOOLS,
    description: INTRO,
    parameters,
    effect: "session",
    handler: async ({ families }, context) => {
      const known = registry.families(context.mode);
      const unknown = families.filter((name) => !known.some((family) => family.name === name));
      if (unknown.length) throw new ToolError(unknownFamilies(unknown, known));
      return loadedText(known.filter((family) => families.includes(family.name)));
    },
  });
}

function unknownFamilies(unknown: readonly string[], known: readonly FamilyListing[]): string {
  const names = known.map((family) => family.name);
  const hints = unknown.map((name) => {
    const near = nearestNames(name, names);
    return near.length ? `'${name}' (did you mean ${near.join(" or ")}?)` : `'${name}'`;
  });
  return `No tool family named ${hints.join(", ")}. The families are: ${names.join(", ")}.`;
}

/** The families a load_tools call asks for, read from its decoded arguments; none when they cannot be read. */
export function familiesAskedFor(input: unknown): string[] {
  const parsed = parameters.safeParse(input);
  return parsed.success ? parsed.data.families : [];
}
