import { decodeHTML } from "entities";
import { z } from "zod";
import { type ToolContext, ToolError } from "../define-tool.js";
import { type ExternalService, http } from "../http/index.js";

const OVERPASS: ExternalService = {
  name: "Overpass API (OpenStreetMap)",
  envVar: "MARVIN_OVERPASS_URL",
  defaultUrl: "https://overpass-api.de",
};

/** Overpass's own limit when a query names none; the tools use it as their default too. */
export const OVERPASS_DEFAULT_TIMEOUT_S = 25;
/** Seconds the HTTP exchange may take beyond the query's own time limit (queueing, transfer). */
const TRANSFER_MARGIN_S = 10;
/** A big answer would be cut for the model anyway; 10 MB is far more than any useful summary needs. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

const position = z.object({ lat: z.number(), lon: z.number() });

const element = z.object({
  /** "node", "way", "relation", "area", or "count" for `out count`. */
  type: z.string(),
  id: z.number(),
  lat: z.number().optional(),
  lon: z.number().optional(),
  /** With `out center`: the middle of a way's or relation's bounding box. */
  center: position.optional(),
  tags: z.record(z.string(), z.string()).optional(),
});

const answer = z.object({
  elements: z.array(element),
  /** Set when the query failed while running ("runtime error: Query timed out …"); elements may be partial. */
  remark: z.string().optional(),
});

export type OsmElement = z.output<typeof element>;

interface OverpassResult {
  elements: OsmElement[];
  remark: string | undefined;
}

/** A leading settings statement: `[out:json][timeout:25][bbox:…];`. */
const SETTINGS = /^\s*((?:\[\s*[a-z]+\s*:[^\]]*\]\s*)+);/i;
const SETTING = /\[\s*([a-z]+)\s*:[^\]]*\]/gi;

/** The query with `[out:json][timeout:N]` in its settings, replacing any output format or time limit it had. */
function withJsonOutput(query: string, timeoutSeconds: number): string {
  const settings = SETTINGS.exec(query);
  const kept = [...(settings?.[1] ?? "").matchAll(SETTING)]
    .filter(([, name]) => !["out", "timeout"].includes(name!.toLowerCase()))
    .map(([setting]) => setting);
  const body = settings ? query.slice(settings[0].length) : query;
  return `[out:json][timeout:${timeoutSeconds}]${kept.join("")};\n${body.trim()}`;
}

/** The error lines of Overpass's HTML error page ("line 1: parse error: Unknown type "nod""). */
function errorLines(page: string): string[] {
  const lines = [...page.matchAll(/<strong[^>]*>\s*Error\s*<\/strong>\s*:?\s*([\s\S]*?)<\/p>/gi)];
  const texts = lines.map(([, text]) =>
    decodeHTML(text!.replace(/<[^>]+>/g, ""))
      .replace(/\s+/g, " ")
      .trim(),
  );
  return [...new Set(texts.filter(Boolean))];
}

/**
 * Runs Overpass QL (as JSON output, with the time limit given) and returns its elements.
 * A query Overpass rejects throws a ToolError quoting Overpass's error lines.
 */
export async function runOverpass(
  context: ToolContext,
  query: string,
  timeoutSeconds: number,
): Promise<OverpassResult> {
  const data = withJsonOutput(query, timeoutSeconds);
  const response = await http(context).send(
    { service: OVERPASS, path: "/api/interpreter" },
    {
      body: new URLSearchParams({ data }),
      timeoutMs: (timeoutSeconds + TRANSFER_MARGIN_S) * 1000,
      maxBytes: MAX_ANSWER_BYTES,
      passStatuses: [400],
    },
  );
  if (response.status === 400) {
    const lines = errorLines(await response.text());
    const detail = lines.length ? `:\n${lines.map((line) => `- ${line}`).join("\n")}` : ".";
    throw new ToolError(`Overpass did not accept the query (HTTP 400)${detail}\nFix the Overpass QL and try again.`);
  }
  const { elements, remark } = await response.json(answer);
  return { elements, remark };
}

/** Where an element is: its own coordinates (nodes) or its center (ways and relations with `out center`). */
export function elementPosition(item: OsmElement): { lat: number; lon: number } | undefined {
  if (item.lat !== undefined && item.lon !== undefined) return { lat: item.lat, lon: item.lon };
  return item.center;
}

/** "Bundesgasse 3, 3011 Bern" from the addr:* tags; empty when it has none. */
export function elementAddress(tags: Readonly<Record<string, string>>): string {
  const street = [tags["addr:street"] ?? tags["addr:place"], tags["addr:housenumber"]].filter(Boolean).join(" ");
  const town = [tags["addr:postcode"], tags["addr:city"]].filter(Boolean).join(" ");
  return [street, town].filter(Boolean).join(", ");
}

/** Tags that say what a feature is, most telling first. */
const KIND_KEYS = [
  "amenity",
  "shop",
  "tourism",
  "leisure",
  "office",
  "craft",
  "healthcare",
  "historic",
  "railway",
  "public_transport",
  "aeroway",
  "highway",
  "natural",
  "waterway",
  "place",
  "boundary",
  "man_made",
  "landuse",
  "building",
];

/** "amenity=cafe": the tag that says what the feature is; empty when none does. */
export function elementKind(tags: Readonly<Record<string, string>>): string {
  const key = KIND_KEYS.find((candidate) => tags[candidate]);
  return key ? `${key}=${tags[key]}` : "";
}
