import { lstat, readFile } from "node:fs/promises";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
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

function fileDiff(shown: string, before: string | null, after: string | null): string {
  const from = before === null ? "/dev/null" : `a/${shown}`;
  const to = after === null ? "/dev/null" : `b/${shown}`;
  const options = { headerOptions: FILE_HEADERS_ONLY, timeout: DIFF_TIMEOUT_MS };
  const diff = createTwoFilesPatch(from, to, before ?? "", after ?? "", undefined, undefined, options);
  return diff ?? `--- ${from}\n+++ ${to}\n(too many changes to show as a diff)\n`;
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
