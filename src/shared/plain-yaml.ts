/**
 * Data as block YAML without the yaml package, which a headless turn should not have to load: keys and words as
 * they are, any other string as JSON (which YAML reads too), lists as `- item` lines, maps indented.
 */

const PLAIN_WORDS = /^[A-Za-z][\w.,/'() -]*$/;
/** Words a YAML reader takes for something other than a string. */
const YAML_WORDS = /^(true|false|yes|no|on|off|null|y|n)$/i;

function scalar(value: unknown): string {
  if (typeof value === "string")
    return PLAIN_WORDS.test(value) && !value.endsWith(" ") && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return JSON.stringify(value) ?? "null";
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function entryLines(key: string, value: unknown, indent: string): string[] {
  const name = /^[\w-]+$/.test(key) ? key : JSON.stringify(key);
  if (Array.isArray(value) && value.length > 0)
    return [`${indent}${name}:`, ...value.map((item) => `${indent}  - ${scalar(item)}`)];
  if (isMap(value) && Object.keys(value).length > 0) return [`${indent}${name}:`, ...mapLines(value, `${indent}  `)];
  return [`${indent}${name}: ${scalar(value)}`];
}

function mapLines(map: Record<string, unknown>, indent: string): string[] {
  return Object.entries(map).flatMap(([key, value]) => entryLines(key, value, indent));
}

/** `map` as block YAML lines, without a final line break. */
export function plainYaml(map: Record<string, unknown>): string {
  return mapLines(map, "").join("\n");
}
