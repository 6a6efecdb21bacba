import { z } from "zod";

/**
 * One server-sent event's data, checked against `schema`: the event, `undefined` for a type outside `known` (one the
 * API added later, or one Marvin does not need), or what is wrong with it.
 */
export function parseKnownEvent<T>(
  data: string,
  schema: z.ZodType<T>,
  known: ReadonlySet<string>,
): { event: T } | { problem: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { problem: `not JSON: ${data.slice(0, 200)}` };
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type === "string" && !known.has(type)) return undefined;
  const parsed = schema.safeParse(json);
  if (parsed.success) return { event: parsed.data };
  return { problem: `${z.prettifyError(parsed.error).replace(/\n/g, " ")} in ${data.slice(0, 200)}` };
}
