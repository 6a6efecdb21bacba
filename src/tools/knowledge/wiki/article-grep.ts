import { preview } from "../../../shared/truncate.js";

/** `== Section ==` (any level), as saved articles mark their headings. */
const HEADING = /^(={2,6})\s*(.+?)\s*\1$/;
/** Paragraphs are single long lines: a match is shown as a window around it, context lines shorter. */
const MATCH_WINDOW = 320;
const CONTEXT_CHARS = 160;

interface GrepOptions {
  contextLines: number;
  maxMatches: number;
}

/** The pattern as a case-insensitive regular expression, or as literal text when it is not a valid one. */
function searchPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "i");
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
  }
}

/** The part of a long line around the match, with "…" where it was cut. */
function around(line: string, index: number, length: number): string {
  if (line.length <= MATCH_WINDOW) return line;
  const start = Math.max(0, Math.min(index - Math.floor((MATCH_WINDOW - length) / 2), line.length - MATCH_WINDOW));
  const end = start + MATCH_WINDOW;
  return `${start > 0 ? "…" : ""}${line.slice(start, end).trim()}${end < line.length ? "…" : ""}`;
}

interface Match {
  line: number;
  section: string | undefined;
  text: string;
  before: string[];
  after: string[];
}

/** Up to `count` non-blank lines next to line `index`, going `step` (-1 before, 1 after), in reading order. */
function contextOf(lines: string[], index: number, count: number, step: -1 | 1): string[] {
  const found: string[] = [];
  for (let at = index + step; at >= 0 && at < lines.length && found.length < count; at += step) {
    if (lines[at]!.trim() !== "") found.push(preview(lines[at]!, CONTEXT_CHARS));
  }
  return step === -1 ? found.reverse() : found;
}

function findMatches(lines: string[], pattern: RegExp, { contextLines, maxMatches }: GrepOptions) {
  const matches: Match[] = [];
  let total = 0;
  let section: string | undefined;
  lines.forEach((line, index) => {
    const heading = HEADING.exec(line.trim());
    if (heading) section = heading[2];
    const found = pattern.exec(line);
    if (!found) return;
    total++;
    if (matches.length === maxMatches) return;
    matches.push({
      line: index + 1,
      section,
      text: around(line, found.index, found[0].length),
      before: contextOf(lines, index, contextLines, -1),
      after: contextOf(lines, index, contextLines, 1),
    });
  });
  return { matches, total };
}

/** The lines of `text` matching `pattern`, with their section and context, as numbered items. */
export function grepArticle(title: string, text: string, pattern: string, options: GrepOptions): string {
  const lines = text.split("\n");
  const { matches, total } = findMatches(lines, searchPattern(pattern), options);
  if (total === 0) return `No line of the saved article '${title}' matches '${pattern}'.`;
  const shown = total > matches.length ? `, showing the first ${matches.length}` : "";
  const items = matches.map((match, index) => {
    const where = match.section ? ` (section "${match.section}")` : "";
    const parts = [`${index + 1}. Line ${match.line}${where}:`];
    for (const line of match.before) parts.push(`   | ${line}`);
    parts.push(`   > ${match.text}`);
    for (const line of match.after) parts.push(`   | ${line}`);
    return parts.join("\n");
  });
  const header = `${total} line${total === 1 ? "" : "s"} of '${title}' match '${pattern}'${shown}:`;
  return [header, ...items].join("\n");
}
