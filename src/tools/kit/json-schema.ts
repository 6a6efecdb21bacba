import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Drops what the model does not need: `$schema` and zod's implicit safe-integer bounds. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (typeof node !== "object" || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if ((key === "minimum" || key === "maximum") && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    result[key] = clean(value);
  }
  return result;
}

/**
 * Validation for a tool that brings its own JSON Schema (MCP servers, custom tools): the zod
 * equivalent where zod can express it; otherwise any object passes and the tool checks its input.
 */
export function parametersFromJsonSchema(schema: JsonSchema): z.ZodObject {
  try {
    const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (converted instanceof z.ZodObject) return converted;
  } catch {
    // Schemas zod cannot express ($ref cycles, exotic keywords) still reach the tool unchanged.
  }
  return z.looseObject({});
}

/** A tool's own JSON Schema (MCP, custom tools) as the model sees it: without `$schema`. */
export function cleanToolSchema(schema: JsonSchema): JsonSchema {
  return clean(schema) as JsonSchema;
}

/** JSON Schema of a tool's parameters as the model sees it (defaults make fields optional). */
export function toParametersSchema(parameters: z.ZodObject): JsonSchema {
  return clean(z.toJSONSchema(parameters, { io: "input", unrepresentable: "any" })) as JsonSchema;
}

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: PropertySchema;
}

function propertyTypes(schema: PropertySchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(propertyTypes);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** The enum value `text` names in another case ("distance" for "DISTANCE"), when exactly one does. */
function enumValueInAnyCase(property: PropertySchema, text: string): unknown {
  if (!property.enum || property.enum.includes(text)) return undefined;
  const wanted = text.trim().toLowerCase();
  const matches = property.enum.filter((value) => typeof value === "string" && value.toLowerCase() === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Repairs the lax forms models send, as the original's pydantic models accepted them:
 * numbers and booleans as strings, numbers for text (a year, an id), an enum value in another
 * case, `null` for an optional field, one string for a list.
 */
export function coerceArguments(schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const result: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (!property) continue;
    const types = propertyTypes(property);
    const enumValue = typeof value === "string" ? enumValueInAnyCase(property, value) : undefined;
    if (value === null && !types.includes("null") && !required.has(key)) {
      delete result[key];
    } else if (typeof value === "number" && types.length === 1 && types[0] === "string" && !property.enum) {
      result[key] = String(value);
    } else if (enumValue !== undefined) {
      result[key] = enumValue;
    } else if (typeof value === "string") {
      const trimmed = value.trim();
      if (
        (types.includes("integer") || types.includes("number")) &&
        !types.includes("string") &&
        trimmed !== "" &&
        Number.isFinite(Number(trimmed))
      ) {
        result[key] = Number(trimmed);
      } else if (types.includes("boolean") && !types.includes("string") && /^(true|false)$/i.test(trimmed)) {
        result[key] = trimmed.toLowerCase() === "true";
      } else if (types.includes("array") && !types.includes("string") && property.items?.type === "string") {
        result[key] = trimmed.startsWith("[") ? (safeJson(trimmed) ?? [value]) : [value];
      }
    }
  }
  return result;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function typeLabel(property: PropertySchema): string {
  if (property.enum) return property.enum.map((value) => JSON.stringify(value)).join(" | ");
  const types = propertyTypes(property).filter((type) => type !== "null");
  if (types.length === 1 && types[0] === "array" && property.items) return `array of ${typeLabel(property.items)}`;
  return types.join(" | ") || "any";
}

/** One line per parameter: name, type, required or default, description. */
export function describeParameters(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const lines = Object.entries(properties).map(([name, property]) => {
    const status = required.has(name)
      ? "required"
      : property.default !== undefined
        ? `default ${JSON.stringify(property.default)}`
        : "optional";
    const description = property.description ? `: ${property.description}` : "";
    return `  - ${name} (${typeLabel(property)}, ${status})${description}`;
  });
  return lines.length ? lines.join("\n") : "  (no parameters)";
}

function placeholder(property: PropertySchema): unknown {
  if (property.enum?.length) return property.enum[0];
  const type = propertyTypes(property).find((candidate) => candidate !== "null");
  switch (type) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "...";
  }
}

/** A minimal valid call with the required parameters filled with placeholders. */
export function exampleCall(name: string, schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = (schema.required ?? []) as string[];
  const example = Object.fromEntries(required.map((key) => [key, placeholder(properties[key] ?? {})]));
  return `${name}(${JSON.stringify(example)})`;
}
