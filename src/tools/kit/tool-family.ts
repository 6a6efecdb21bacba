import type { AnyToolDef } from "./define-tool.js";
import { cleanToolSchema, type JsonSchema, toParametersSchema } from "./json-schema.js";

/**
 * A group of tools offered together once the model asks for it with load_tools. Each family is one folder of
 * src/tools/ with a family.ts; adding a tool domain is one folder and one entry in its family's list.
 */
export interface ToolFamily {
  name: string;
  /** What the family is for, in a few words (load_tools lists it with the family's tool names). */
  summary: string;
  tools: readonly AnyToolDef[];
}

/** What offering a tool needs to know of it, before its code is loaded. */
export interface ToolFacts {
  name: string;
  description: string;
  /** "per call" when the effect is a function of the arguments. */
  effect: "read" | "session" | "write" | "per call";
  codingOnly?: boolean;
  interactiveOnly?: boolean;
}

/** A built-in tool as src/tools/catalog.json records it: its facts and the JSON Schema the model is shown. */
interface CatalogTool extends ToolFacts {
  parameters: JsonSchema;
}

/** A family as the catalog records it, so that a run offers its tools without loading their code. */
export interface FamilyCatalog {
  name: string;
  summary: string;
  tools: CatalogTool[];
}

/** The JSON Schema of a tool's parameters, as the model is shown it. */
export function parametersSchemaOf(def: AnyToolDef): JsonSchema {
  return def.inputSchema ? cleanToolSchema(def.inputSchema) : toParametersSchema(def.parameters);
}

export function toolFacts(def: AnyToolDef): ToolFacts {
  return {
    name: def.name,
    description: def.description,
    effect: typeof def.effect === "function" ? "per call" : def.effect,
    ...(def.codingOnly ? { codingOnly: true } : {}),
    ...(def.interactiveOnly ? { interactiveOnly: true } : {}),
  };
}

/** The catalog entry of a loaded family (catalog.test.ts keeps src/tools/catalog.json equal to it). */
export function familyCatalog(family: ToolFamily): FamilyCatalog {
  return {
    name: family.name,
    summary: family.summary,
    tools: family.tools.map((def) => ({ ...toolFacts(def), parameters: parametersSchemaOf(def) })),
  };
}
