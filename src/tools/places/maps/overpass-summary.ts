import { elementAddress, elementKind, elementPosition, type OsmElement } from "../../kit/geo/overpass.js";

/** Elements listed in full at most; the rest are only counted. */
const MAX_LISTED_ELEMENTS = 50;

/** Tags worth a line of their own, after the name, kind and address. */
const DETAIL_KEYS = ["cuisine", "opening_hours", "phone", "contact:phone", "website", "contact:website", "operator"];
/** Tags listed for an element that has neither a name nor a kind (counts, plain geometry). */
const MAX_PLAIN_TAGS = 8;

function plainTags(tags: Readonly<Record<string, string>>): string {
  const entries = Object.entries(tags);
  const shown = entries.slice(0, MAX_PLAIN_TAGS).map(([key, value]) => `${key}=${value}`);
  const more = entries.length > MAX_PLAIN_TAGS ? ` (+${entries.length - MAX_PLAIN_TAGS} more tags)` : "";
  return `${shown.join(", ")}${more}`;
}

function describeElement(item: OsmElement, index: number): string {
  const tags = item.tags ?? {};
  const kind = elementKind(tags);
  const title = tags.name ?? (kind ? "(no name)" : plainTags(tags) || "(no tags)");
  const where = elementPosition(item);
  const head = [`${index + 1}. ${title}`, `${item.type} ${item.id}`, kind && `[${kind}]`].filter(Boolean).join(" — ");
  const lines = [where ? `${head} — ${where.lat}, ${where.lon}` : head];
  const address = elementAddress(tags);
  const details = DETAIL_KEYS.filter((key) => tags[key]).map((key) => `${key}: ${tags[key]}`);
  if (address || details.length) lines.push(`   ${[address, ...details].filter(Boolean).join(" · ")}`);
  return lines.join("\n");
}

/** The elements as numbered lines for the model, at most MAX_LISTED_ELEMENTS of them. */
export function summariseElements(elements: readonly OsmElement[]): string {
  const listed = elements.slice(0, MAX_LISTED_ELEMENTS).map(describeElement);
  const rest = elements.length - listed.length;
  if (rest > 0) {
    listed.push(
      `… and ${rest} more not listed. Narrow the area or the tags, or cap the output (e.g. \`out center 20;\`).`,
    );
  }
  const unplaced = elements.some((item) => item.type !== "count" && !elementPosition(item));
  if (unplaced) listed.push("Ways and relations have coordinates only with `out center;` (or `out geom;`).");
  return listed.join("\n");
}
