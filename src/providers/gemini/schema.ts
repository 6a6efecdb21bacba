import type { ToolSchema } from "../../shared/tool-schema.js";

type JsonObject = Record<string, unknown>;

/**
 * The keywords of Gemini's `Schema` (an OpenAPI 3.0 subset) that mean the same in JSON Schema and pass as they
 * are. Gemini refuses the rest ($ref, $defs, additionalProperties, const, oneOf, allOf, exclusiveMinimum, type
 * lists, non-string enums…), so those are rewritten or left out.
 */
const KEPT = new Set([
  "title",
  "description",
  "nullable",
  "maxItems",
  "minItems",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "default",
  "minimum",
  "maximum",
  "propertyOrdering",
]);

/** The only `format` values Gemini takes, per type (it rejects e.g. "uri" on a STRING). */
const FORMATS: Record<string, readonly string[]> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves `#/$defs/…` and `#/definitions/…` references against the root schema. */
function resolveRef(ref: unknown, root: JsonObject): JsonObject | undefined {
  if (typeof ref !== "string") return undefined;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const definitions = match ? root[match[1]!] : undefined;
  const target = isObject(definitions) ? definitions[decodeURIComponent(match![2]!)] : undefined;
  return isObject(target) ? target : undefined;
}

class Converter {
  private readonly resolving = new Set<string>();

  constructor(private readonly root: JsonObject) {}

  convert(node: unknown): JsonObject {
    if (!isObject(node)) return {};
    if (node.$ref !== undefined) return this.reference(node);
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(node)) if (KEPT.has(key)) result[key] = value;
    this.addType(node, result);
    this.addEnum(node, result);
    const properties = node.properties;
    if (isObject(properties)) {
      const converted = Object.entries(properties).map(([name, value]) => [name, this.convert(value)]);
      result.properties = Object.fromEntries(converted);
      if (Array.isArray(node.required)) {
        result.required = node.required.filter((name) => typeof name === "string" && name in properties);
      }
    }
    if (node.items !== undefined) result.items = this.convert(Array.isArray(node.items) ? node.items[0] : node.items);
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives)) this.addAlternatives(alternatives, result);
    if (Array.isArray(node.allOf)) for (const part of node.allOf) Object.assign(result, this.convert(part));
    if (typeof node.exclusiveMinimum === "number") result.minimum ??= node.exclusiveMinimum;
    if (typeof node.exclusiveMaximum === "number") result.maximum ??= node.exclusiveMaximum;
    return result;
  }

  /** A reference inlined; a reference back into itself becomes a plain object. */
  private reference(node: JsonObject): JsonObject {
    const ref = String(node.$ref);
    const target = resolveRef(ref, this.root);
    if (!target || this.resolving.has(ref))
      return { type: "OBJECT", ...(node.description ? { description: node.description } : {}) };
    this.resolving.add(ref);
    const converted = this.convert(target);
    this.resolving.delete(ref);
    return node.description ? { ...converted, description: node.description } : converted;
  }

  /** `type`, upper case; a list of types becomes one type (nullable when it lists "null") or an anyOf. */
  private addType(node: JsonObject, result: JsonObject): void {
    const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((type) => typeof type === "string");
    const concrete = types.filter((type) => type !== "null").map((type) => type.toUpperCase());
    if (types.includes("null")) result.nullable = true;
    if (concrete.length === 1) {
      result.type = concrete[0];
      const format = node.format;
      if (typeof format === "string" && FORMATS[concrete[0]!]?.includes(format)) result.format = format;
    } else if (concrete.length > 1) {
      result.anyOf = concrete.map((type) => ({ type }));
    }
  }

  /** Gemini takes enums of strings only: `const` becomes a one-value enum; other values go to the description. */
  private addEnum(node: JsonObject, result: JsonObject): void {
    const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
    if (!values) return;
    if (values.every((value) => typeof value === "string")) {
      result.enum = values;
      result.type ??= "STRING";
      return;
    }
    const listed = `One of: ${values.map((value) => JSON.stringify(value)).join(", ")}.`;
    result.description = result.description ? `${result.description} ${listed}` : listed;
  }

  private addAlternatives(alternatives: unknown[], result: JsonObject): void {
    const converted = alternatives.filter((item) => !(isObject(item) && item.type === "null"));
    if (converted.length < alternatives.length) result.nullable = true;
    if (converted.length === 1) Object.assign(result, this.convert(converted[0]));
    else if (converted.length > 1) result.anyOf = converted.map((item) => this.convert(item));
  }
}

/** A tool's JSON Schema parameters as a Gemini `Schema`. */
function geminiSchema(parameters: JsonObject): JsonObject {
  return new Converter(parameters).convert(parameters);
}

interface FunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonObject;
}

const declarations = new WeakMap<ToolSchema, FunctionDeclaration>();

/** A tool as a Gemini function declaration, converted once per tool and then reused. */
export function functionDeclaration(tool: ToolSchema): FunctionDeclaration {
  let declaration = declarations.get(tool);
  if (!declaration) {
    const { name, description, parameters } = tool.function;
    const schema = geminiSchema(parameters);
    // A function without parameters leaves them out: Gemini refuses an OBJECT with no properties.
    const empty =
      schema.type === "OBJECT" && Object.keys((schema.properties as JsonObject | undefined) ?? {}).length === 0;
    declaration = { name, description, ...(empty ? {} : { parameters: schema }) };
    declarations.set(tool, declaration);
  }
  return declaration;
}
