import { chmod, lstat, readFile, readlink, rmdir, symlink, unlink, writeFile } from "node:fs/promises";
import { errorMessage } from "../../../shared/error-message.js";
import { missingAncestors } from "../../../workspace/missing-dirs.js";
import { writeTextFile } from "../../../workspace/text-file.js";
import { ToolError } from "../../kit/define-tool.js";

/** The final state of one file after a multi-file edit: new text, or null for deleted. */
export interface FileChange {
  /** The path as the model wrote it, for messages. */
  shown: string;
  content: string | null;
}

type Restore = () => Promise<void>;

const ignoreMissing = (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
};

/** Captures what is at `path` now, and returns how to put it back. */
async function snapshot(path: string): Promise<Restore> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    const target = await readlink(path);
    return async () => {
      await unlink(path).catch(ignoreMissing);
      await symlink(target, path);
    };
  }
  if (stats?.isFile()) {
    const bytes = await readFile(path);
    return async () => {
      await writeFile(path, bytes);
      await chmod(path, stats.mode & 0o7777);
    };
  }
  const createdDirs = await missingAncestors(path);
  return async () => {
    await unlink(path).catch(ignoreMissing);
    for (const dir of createdDirs) await rmdir(dir).catch(() => undefined);
  };
}

async function applyChange(path: string, change: FileChange): Promise<void> {
  if (change.content === null) await unlink(path).catch(ignoreMissing);
  else await writeTextFile(path, change.content);
}

/**
 * Writes every change (keyed by real path, in order). If one write fails, the files already
 * changed are restored and directories created on the way removed, then a ToolError is thrown.
 */
export async function commitFileChanges(changes: ReadonlyMap<string, FileChange>): Promise<void> {
  const restores: Restore[] = [];
  for (const [path, change] of changes) {
    try {
      restores.push(await snapshot(path));
      await applyChange(path, change);
    } catch (error) {
      for (const restore of restores.reverse()) await restore().catch(() => undefined);
      const reason = errorMessage(error);
      throw new ToolError(
        `Writing ${change.shown} failed (${reason}). The files already written were restored, so nothing was changed.`,
      );
    }
  }
}
