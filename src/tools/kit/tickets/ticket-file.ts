import { parse as parseYaml } from "yaml";

/**
 * The on-disk format of one `tk` ticket (`.tickets/<id>.md`): flat `key: value` front matter
 * between the first two `---` lines, then `# title`, then free markdown. Marvin reads it with
 * the YAML parser (failsafe schema: every scalar stays a string, so `0001` or a timestamp
 * survive as written) and edits it line by line, as tk does, so unknown fields, comments and
 * the body stay byte for byte.
 */

export type FrontMatterValue = string | string[];

interface TicketFile {
  fields: Record<string, FrontMatterValue>;
  /** The first `# ` line after the front matter, without the marker; "" when there is none. */
  title: string;
}

interface NewTicket {
  id: string;
  created: string;
  type: string;
  priority: number;
  title: string;
  description?: string;
  assignee?: string;
  parent?: string;
  tags?: string[];
}

const FENCE = "---";

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** Index of the closing `---` line, or -1 when the text has no front matter. */
function closingFenceIndex(lines: string[]): number {
  if (withoutCarriageReturn(lines[0] ?? "") !== FENCE) return -1;
  return lines.findIndex((line, index) => index > 0 && withoutCarriageReturn(line) === FENCE);
}

/** tk's own reading of a list: strip brackets and spaces, split on commas. */
export function listValue(value: FrontMatterValue | undefined): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : value.replace(/[[\]\s]/g, "").split(",");
  return items.map((item) => String(item).trim()).filter((item) => item !== "");
}

export function scalarValue(value: FrontMatterValue | undefined): string {
  if (value === undefined) return "";
  return Array.isArray(value) ? value.join(", ") : value.trim();
}

/** The line-oriented reading tk's awk scripts use; the fallback when a hand edit is not valid YAML. */
function parseLines(lines: string[]): Record<string, FrontMatterValue> {
  const fields: Record<string, FrontMatterValue> = {};
  for (const raw of lines) {
    const line = withoutCarriageReturn(raw);
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const value = line.slice(colon + 1).trim();
    fields[line.slice(0, colon).trim()] = /^\[.*\]$/.test(value) ? listValue(value) : value.replace(/\s+#.*$/, "");
  }
  return fields;
}

function parseFrontMatter(lines: string[]): Record<string, FrontMatterValue> {
  try {
    const parsed: unknown = parseYaml(lines.join("\n"), { schema: "failsafe" });
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return parseLines(lines);
    const fields: Record<string, FrontMatterValue> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === "string") fields[key] = value;
      else if (Array.isArray(value)) fields[key] = value.map(String);
      else if (value !== null && value !== undefined) return parseLines(lines);
    }
    return fields;
  } catch {
    return parseLines(lines);
  }
}

export function parseTicketFile(text: string): TicketFile {
  const lines = text.split("\n");
  const close = closingFenceIndex(lines);
  const fields = close > 0 ? parseFrontMatter(lines.slice(1, close)) : {};
  const titleLine = lines
    .slice(close + 1)
    .map(withoutCarriageReturn)
    .find((line) => line.startsWith("# "));
  return { fields, title: titleLine ? titleLine.slice(2).trim() : "" };
}

/** tk writes lists inline: `[a, b]`, and `[]` when empty. */
export function formatList(items: readonly string[]): string {
  return `[${items.join(", ")}]`;
}

/** The file `tk create` writes, field for field and blank line for blank line. */
export function renderNewTicket(ticket: NewTicket): string {
  const lines = [
    FENCE,
    `id: ${ticket.id}`,
    "status: open",
    "deps: []",
    "links: []",
    `created: ${ticket.created}`,
    `type: ${ticket.type}`,
    `priority: ${ticket.priority}`,
  ];
  if (ticket.assignee) lines.push(`assignee: ${ticket.assignee}`);
  if (ticket.parent) lines.push(`parent: ${ticket.parent}`);
  if (ticket.tags?.length) lines.push(`tags: ${formatList(ticket.tags)}`);
  lines.push(FENCE, `# ${ticket.title}`, "");
  if (ticket.description) lines.push(ticket.description, "");
  return `${lines.join("\n")}\n`;
}

/**
 * Sets one front-matter field: rewrites its line in place, or inserts it right after the
 * opening `---` when missing (what tk's sed/awk do). Nothing else in the file changes.
 */
export function setFrontMatterField(text: string, field: string, value: string): string {
  const lines = text.split("\n");
  const close = closingFenceIndex(lines);
  if (close < 0) return `${FENCE}\n${field}: ${value}\n${FENCE}\n${text}`;
  const index = lines.findIndex((line, position) => position > 0 && position < close && line.startsWith(`${field}:`));
  if (index < 0) {
    const ending = lines[0]!.endsWith("\r") ? "\r" : "";
    lines.splice(1, 0, `${field}: ${value}${ending}`);
  } else {
    lines[index] = `${field}: ${value}${lines[index]!.endsWith("\r") ? "\r" : ""}`;
  }
  return lines.join("\n");
}

/**
 * Appends a note as `tk add-note` does: `## Notes` once, then a blank line, the bold UTC
 * timestamp, a blank line and the text.
 */
export function appendNote(text: string, note: string, timestamp: string): string {
  let result = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  if (!result.split("\n").some((line) => withoutCarriageReturn(line) === "## Notes")) result += "\n## Notes\n";
  return `${result}\n**${timestamp}**\n\n${note.replace(/\s+$/, "")}\n`;
}

/** UTC timestamp to the second, as `date -u +%Y-%m-%dT%H:%M:%SZ` prints it. */
export function utcTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
