import { diffWordsWithSpace } from "diff";

/** How a unified diff line reads: a file header, a hunk header, an added, removed or unchanged line. */
export type DiffLineKind = "file" | "hunk" | "added" | "removed" | "context";

/** A piece of a diff line; `changed` marks the words that differ from the line it replaces (or replaced). */
interface DiffPart {
  text: string;
  changed: boolean;
}

export interface DiffLine {
  kind: DiffLineKind;
  /** The line, its `+`/`-`/` ` prefix included, in pieces. */
  parts: DiffPart[];
}

/** Lines longer than this are not compared word by word (cost grows with the square of the length). */
const WORD_DIFF_MAX_CHARS = 400;
/** Below this share of unchanged text, a line pair is shown as a whole line replaced, not as changed words. */
const MIN_SHARED_SHARE = 0.4;

/** The unified diff an edit carries in its `details` (see tools/kit/file-edits.ts), if it has one. */
export function editDiff(details: unknown): string | undefined {
  if (details === null || typeof details !== "object" || !("diff" in details)) return undefined;
  const { diff } = details;
  return typeof diff === "string" && diff.trim() ? diff : undefined;
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return line.startsWith(" ") || line.startsWith("\\") ? "context" : "file";
}

/** Each line's kind; `--- a` then `+++ b` before a hunk (or at the end) name a file, elsewhere they are changes. */
function kindsOf(lines: string[]): DiffLineKind[] {
  const kinds = lines.map(kindOf);
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    const afterNext = lines[index + 2];
    if (
      line.startsWith("--- ") &&
      next?.startsWith("+++ ") &&
      (afterNext === undefined || kinds[index + 2] === "hunk" || kinds[index + 2] === "file")
    )
      kinds[index] = kinds[index + 1] = "file";
  });
  return kinds;
}

const whole = (kind: DiffLineKind, text: string): DiffLine => ({ kind, parts: [{ text, changed: false }] });

/**
 * The changed words of a removed line and the added line that replaces it, or undefined when the
 * two share too little for word highlights to help.
 */
function wordPair(removed: string, added: string): [DiffLine, DiffLine] | undefined {
  const before = removed.slice(1);
  const after = added.slice(1);
  if (before.length > WORD_DIFF_MAX_CHARS || after.length > WORD_DIFF_MAX_CHARS) return undefined;
  const changes = diffWordsWithSpace(before, after);
  const shared = changes.filter((change) => !change.added && !change.removed).reduce((n, c) => n + c.value.length, 0);
  if (shared < MIN_SHARED_SHARE * Math.max(before.length, after.length)) return undefined;
  const old: DiffPart[] = [{ text: "-", changed: false }];
  const next: DiffPart[] = [{ text: "+", changed: false }];
  for (const change of changes) {
    if (!change.added) old.push({ text: change.value, changed: Boolean(change.removed) });
    if (!change.removed) next.push({ text: change.value, changed: Boolean(change.added) });
  }
  return [
    { kind: "removed", parts: old },
    { kind: "added", parts: next },
  ];
}

/** A run of removed lines and the run of added lines after it: the n-th of each are compared word by word. */
function changeBlock(removed: string[], added: string[]): DiffLine[] {
  const before = removed.map((line) => whole("removed", line));
  const after = added.map((line) => whole("added", line));
  for (let index = 0; index < Math.min(removed.length, added.length); index += 1) {
    const pair = wordPair(removed[index]!, added[index]!);
    if (pair) [before[index], after[index]] = pair;
  }
  return [...before, ...after];
}

/** A unified diff as lines to colour, with the changed words of each replaced line marked. */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\n$/, "").split("\n");
  const kinds = kindsOf(lines);
  const result: DiffLine[] = [];
  let index = 0;
  while (index < lines.length) {
    const kind = kinds[index]!;
    if (kind !== "removed") {
      result.push(whole(kind, lines[index]!));
      index += 1;
      continue;
    }
    const removed: string[] = [];
    while (kinds[index] === "removed") removed.push(lines[index++]!);
    const added: string[] = [];
    while (kinds[index] === "added") added.push(lines[index++]!);
    result.push(...changeBlock(removed, added));
  }
  return result;
}
