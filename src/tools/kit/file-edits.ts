import { lstat, readFile } from "node:fs/promises";
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import { errorMessage } from "../../shared/error-message.js";
import { ToolError } from "../../shared/tool-error.js";
import type { ToolServices } from "./tool-services.js";

/** What a writing tool returns beside its text: the unified diff of every file it changed (never shown to the model). */
export interface EditDetails {
  diff: string;
}

/** One file a tool is about to write: its real path, and the path as the model wrote it. */
interface EditTarget {
  real: string;
  shown: string;
}

/** Longest a diff may take to compute; a diff that takes longer is summarised instead. */
const DIFF_TIMEOUT_MS = 2_000;

/** The file at `path` as bytes, null when nothing is there, undefined when it is not a regular file. */
async function currentBytes(path: string): Promise<Buffer | null | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return null;
  return stats.isFile() ? readFile(path) : undefined;
}

/** A change that could not be checkpointed is not made: `rewind` must be able to undo what Marvin did. */
const notKept =
  (shown: string) =>
  (error: unknown): never => {
    throw new ToolError(
      `Could not keep a checkpoint of ${shown} for rewind (${errorMessage(error)}), so it was not changed. Tell ` +
        "the user; the session folder may be full or not writable.",
    );
  };

/** Lines a hunk shows around a change, as `diff -u` does. */
const CONTEXT_LINES = 3;

/** Where the line `lines` lines above the one holding `index` starts. */
function lineStartAbove(text: string, index: number, lines: number): number {
  let start = text.lastIndexOf("\n", index - 1) + 1;
  for (let count = 0; count < lines && start > 0; count++) start = text.lastIndexOf("\n", start - 2) + 1;
  return start;
}

/** Where the line `lines` lines below the one holding `index` ends (after its newline), or the text's end. */
function lineEndBelow(text: string, index: number, lines: number): number {
  let end = index;
  for (let count = 0; count <= lines; count++) {
    const newline = text.indexOf("\n", end);
    if (newline === -1) return text.length;
    end = newline + 1;
  }
  return end;
}

/** Sizes of the blocks two texts are compared in: big first, down to one character. */
const BLOCK_SIZES = [65_536, 4_096, 256, 16, 1];

/**
 * How many characters (up to `limit`) two texts share at one end, given whether the `block` characters after the
 * first `length` shared ones are the same. Slices are compared a block at a time: comparing character by character
 * (or with startsWith) takes tens of milliseconds on a 5 MB file.
 */
function sharedLength(limit: number, sameBlock: (length: number, block: number) => boolean): number {
  let length = 0;
  for (const block of BLOCK_SIZES) while (length + block <= limit && sameBlock(length, block)) length += block;
  return length;
}

/**
 * The two texts without what they share at both ends beyond a hunk's context, cut at line boundaries, and how many
 * lines were cut in front: a small edit of a large file is diffed in the part that changed, without splitting
 * all of it into lines.
 */
function changedRegion(before: string, after: string): { skipped: number; before: string; after: string } {
  const shorter = Math.min(before.length, after.length);
  const front = sharedLength(
    shorter,
    (length, block) => before.slice(length, length + block) === after.slice(length, length + block),
  );
  const back = sharedLength(
    shorter - front,
    (length, block) =>
      before.slice(before.length - length - block, before.length - length) ===
      after.slice(after.length - length - block, after.length - length),
  );
  const start = lineStartAbove(before, front, CONTEXT_LINES);
  // The tail cut off begins inside the shared end, so it is the same text, starting a line, in both.
  const tail = before.length - lineEndBelow(before, before.length - back, CONTEXT_LINES);
  let skipped = 0;
  for (
    let newline = before.indexOf("\n");
    newline !== -1 && newline < start;
    newline = before.indexOf("\n", newline + 1)
  )
    skipped++;
  return {
    skipped,
    before: before.slice(start, before.length - tail),
    after: after.slice(start, after.length - tail),
  };
}

function fileDiff(shown: string, before: string | null, after: string | null): string {
  const from = before === null ? "/dev/null" : `a/${shown}`;
  const to = after === null ? "/dev/null" : `b/${shown}`;
  const region = changedRegion(before ?? "", after ?? "");
  const options = { context: CONTEXT_LINES, timeout: DIFF_TIMEOUT_MS };
  const patch = structuredPatch(from, to, region.before, region.after, undefined, undefined, options);
  if (!patch) return `--- ${from}\n+++ ${to}\n(too many changes to show as a diff)\n`;
  for (const hunk of patch.hunks) {
    hunk.oldStart += region.skipped;
    hunk.newStart += region.skipped;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/**
 * The files one tool call changes, read before it writes them: their earlier content goes to the
 * session's checkpoints (for `rewind` and `undo`), and `finish` turns the change into a diff.
 */
export class FileEdits {
  private constructor(
    private readonly services: ToolServices,
    private readonly targets: ReadonlyMap<string, { shown: string; before: string | null }>,
  ) {}

  /** Reads the targets as they are now and keeps that in the checkpoints; call it before writing any of them. */
  static async begin(services: ToolServices, targets: readonly EditTarget[]): Promise<FileEdits> {
    const read = new Map<string, { shown: string; before: string | null }>();
    for (const { real, shown } of targets) {
      const bytes = await currentBytes(real);
      if (bytes !== undefined) await services.checkpoints?.before(real, bytes).catch(notKept(shown));
      read.set(real, { shown, before: bytes ? bytes.toString("utf8") : null });
    }
    return new FileEdits(services, read);
  }

  /** The text of a target before the change; null when it did not exist. */
  before(real: string): string | null {
    return this.targets.get(real)?.before ?? null;
  }

  /** Records what the tool wrote (null: deleted) and returns the diff of every target, in the order given. */
  async finish(written: ReadonlyMap<string, string | null>): Promise<EditDetails> {
    const diffs: string[] = [];
    for (const [real, { shown, before }] of this.targets) {
      if (!written.has(real)) continue;
      const after = written.get(real) ?? null;
      await this.services.checkpoints?.after(real, after);
      if (after !== before) diffs.push(fileDiff(shown, before, after));
    }
    return { diff: diffs.join("") };
  }

  /** `finish` for a tool that wrote one file. */
  wrote(real: string, after: string | null): Promise<EditDetails> {
    return this.finish(new Map([[real, after]]));
  }
}
