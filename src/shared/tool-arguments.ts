/**
 * A tool call's arguments, decoded once from what the model sent: a JSON object (none counts as `{}`), text that
 * is not JSON (a raw patch, which some tools take as it is), or JSON that is not an object.
 */
export type ToolArguments = { value: Record<string, unknown> } | { rawText: string } | { notObject: unknown };

/** Decodes wire arguments: an object, a JSON string of one (even double-encoded), or "" for none. */
export function decodeToolArguments(raw: unknown): ToolArguments {
  let value = raw;
  for (let depth = 0; depth < 2 && typeof value === "string"; depth++) {
    const text: string = value;
    if (text.trim() === "") return { value: {} };
    try {
      value = JSON.parse(text);
    } catch {
      // Inside a JSON string too: a JSON-quoted Codex patch is still a raw patch, not "no arguments".
      return { rawText: text };
    }
  }
  if (value === null || value === undefined) return { value: {} };
  if (typeof value === "object" && !Array.isArray(value)) return { value: value as Record<string, unknown> };
  return { notObject: value };
}

/** The decoded arguments as one value (the object, the raw text, or the other JSON value): what events carry. */
export function argumentsValue(args: ToolArguments): unknown {
  if ("value" in args) return args.value;
  if ("rawText" in args) return args.rawText;
  return args.notObject;
}
