/**
 * Parser of the Codex `*** Begin Patch` format (openai/codex, crate apply-patch; grammar
 * described in tests/conformance/data/apply-patch/README.md). Pure: no file access.
 */

/** One line of an update chunk: kept context, a removed line or an added line. */
export interface ChunkLine {
  kind: "context" | "remove" | "add";
  text: string;
}

/** A change inside `*** Update File`: optional `@@ anchor`, its lines, and whether it is pinned to the end of file. */
export interface UpdateChunk {
  anchor?: string;
  lines: ChunkLine[];
  endOfFile: boolean;
}

export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: UpdateChunk[] };

/** A patch that does not follow the format; the message says where and why. */
export class PatchParseError extends Error {
  override readonly name = "PatchParseError";
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const ENVIRONMENT = "*** Environment ID:";
const HEREDOC_START = /^(?:apply_patch\s+)?<<\s*(['"]?)EOF\1\s*$/;

/** True when `text` is (probably) a Codex patch, bare or wrapped in a `<<'EOF'` heredoc. */
export function looksLikeCodexPatch(text: string): boolean {
  const lines = text.trim().split(/\r?\n/, 2);
  const first = lines[0]?.trim() ?? "";
  return first === BEGIN || (HEREDOC_START.test(first) && lines[1]?.trim() === BEGIN);
}

function isOperationHeader(trimmed: string): boolean {
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE) || trimmed === END;
}

/** The patch's lines between the markers, after dropping a heredoc wrapper. */
function envelopeLines(text: string): string[] {
  let lines = text.trim().replace(/\r\n/g, "\n").split("\n");
  if (lines.length >= 4 && HEREDOC_START.test(lines[0]!.trim()) && lines.at(-1)!.trimEnd().endsWith("EOF")) {
    lines = lines.slice(1, -1);
  }
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`The first line of the patch must be '${BEGIN}'.`);
  if (lines.length < 2 || lines.at(-1)!.trim() !== END)
    throw new PatchParseError(`The last line of the patch must be '${END}'.`);
  const body = lines.slice(1, -1);
  if (body[0]?.trim().startsWith(ENVIRONMENT)) {
    if (body[0].trim().slice(ENVIRONMENT.length).trim() === "")
      throw new PatchParseError("Invalid patch hunk on line 2: the environment ID is empty.");
    return ["", ...body.slice(1)];
  }
  return body;
}

class Cursor {
  index = 0;
  constructor(readonly lines: string[]) {}

  get done(): boolean {
    return this.index >= this.lines.length;
  }

  get raw(): string {
    return this.lines[this.index] ?? "";
  }

  /** 1-based line number in the original patch (the Begin line is 1). */
  get lineNumber(): number {
    return this.index + 2;
  }

  fail(reason: string): never {
    throw new PatchParseError(`Invalid patch hunk on line ${this.lineNumber}: ${reason}`);
  }
}

function parseAdd(cursor: Cursor, path: string): PatchOperation {
  let content = "";
  while (!cursor.done && cursor.raw.startsWith("+")) {
    content += `${cursor.raw.slice(1)}\n`;
    cursor.index++;
  }
  return { kind: "add", path, content };
}

function diffLine(cursor: Cursor): ChunkLine {
  const raw = cursor.raw;
  if (raw === "") return { kind: "context", text: "" };
  switch (raw[0]) {
    case " ":
      return { kind: "context", text: raw.slice(1) };
    case "-":
      return { kind: "remove", text: raw.slice(1) };
    case "+":
      return { kind: "add", text: raw.slice(1) };
    default:
      return cursor.fail(
        `Unexpected line found in update hunk: '${raw}'. Every line of a hunk starts with ' ' (context), '-' ` +
          `(removed) or '+' (added).`,
      );
  }
}

function parseChunks(cursor: Cursor, path: string): UpdateChunk[] {
  const chunks: UpdateChunk[] = [];
  let current: UpdateChunk | undefined;
  while (!cursor.done && !isOperationHeader(cursor.raw.trim())) {
    const raw = cursor.raw;
    if (raw.trimEnd() === "@@" || raw.startsWith("@@ ")) {
      if (current && current.lines.length === 0)
        cursor.fail(`Unexpected line found in update hunk: '${raw}'. Only one @@ line is allowed per hunk.`);
      const anchor = raw.trimEnd().slice(3);
      current = { ...(anchor ? { anchor } : {}), lines: [], endOfFile: false };
      chunks.push(current);
    } else if (raw.trim() === END_OF_FILE) {
      if (!current || current.lines.length === 0) cursor.fail(`'${END_OF_FILE}' must follow the lines of a hunk.`);
      current.endOfFile = true;
      current = undefined;
    } else {
      if (!current) {
        if (chunks.length > 0) cursor.fail(`Expected update hunk to start with a @@ context marker, got: '${raw}'`);
        current = { lines: [], endOfFile: false };
        chunks.push(current);
      }
      current.lines.push(diffLine(cursor));
    }
    cursor.index++;
  }
  if (chunks.length === 0)
    throw new PatchParseError(
      `Invalid patch hunk on line ${cursor.lineNumber}: Update file hunk for path '${path}' is empty.`,
    );
  if (chunks.at(-1)!.lines.length === 0)
    throw new PatchParseError(
      `Invalid patch hunk on line ${cursor.lineNumber}: the last @@ hunk of '${path}' has no lines.`,
    );
  return chunks;
}

function parseOperation(cursor: Cursor): PatchOperation {
  const header = cursor.raw.trim();
  cursor.index++;
  if (header.startsWith(ADD)) return parseAdd(cursor, header.slice(ADD.length));
  if (header.startsWith(DELETE)) return { kind: "delete", path: header.slice(DELETE.length) };
  const path = header.slice(UPDATE.length);
  let moveTo: string | undefined;
  if (cursor.raw.trim().startsWith(MOVE)) {
    moveTo = cursor.raw.trim().slice(MOVE.length);
    cursor.index++;
  }
  return { kind: "update", path, ...(moveTo ? { moveTo } : {}), chunks: parseChunks(cursor, path) };
}

/** Parses a whole patch. Throws PatchParseError; an empty list means the patch has no operations. */
export function parseCodexPatch(text: string): PatchOperation[] {
  const cursor = new Cursor(envelopeLines(text));
  const operations: PatchOperation[] = [];
  while (!cursor.done) {
    const header = cursor.raw.trim();
    if (header === "") {
      cursor.index++;
      continue;
    }
    if (!header.startsWith(ADD) && !header.startsWith(DELETE) && !header.startsWith(UPDATE)) {
      cursor.fail(
        `'${header}' is not a valid hunk header. Valid hunk headers: '${ADD}{path}', '${DELETE}{path}', ` +
          `'${UPDATE}{path}'.`,
      );
    }
    operations.push(parseOperation(cursor));
  }
  return operations;
}

/** How an operation is named in messages, e.g. "Update File: src/a.ts (move to src/b.ts)". */
export function describeOperation(operation: PatchOperation): string {
  switch (operation.kind) {
    case "add":
      return `Add File: ${operation.path}`;
    case "delete":
      return `Delete File: ${operation.path}`;
    case "update":
      return `Update File: ${operation.path}${operation.moveTo ? ` (move to ${operation.moveTo})` : ""}`;
  }
}
