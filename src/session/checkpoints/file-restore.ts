import { lstat, readFile, realpath, rmdir, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../state/atomic-file.js";
import { missingAncestors } from "../../workspace/missing-dirs.js";
import { type CheckpointStore, type CheckpointTurn, contentHash } from "./checkpoint-store.js";

/** One file to put back as it was before the earliest of the turns being undone. */
export interface FileRestore {
  path: string;
  /** Hash of the content to restore; null: the file did not exist. */
  before: string | null;
  mode?: number;
  createdDirs: readonly string[];
  /** What Marvin last left there; anything else on disk was changed by someone else since. */
  expected: string | null;
  /** Its earlier content was over a size cap: it cannot be restored. */
  notKept: boolean;
}

/** The files the given turns changed, each with its state before the first of them and after the last. */
export function restoresFor(turns: readonly CheckpointTurn[]): FileRestore[] {
  const byPath = new Map<string, FileRestore>();
  for (const turn of [...turns].sort((a, b) => a.message - b.message)) {
    for (const change of turn.files) {
      const known = byPath.get(change.path);
      if (known) {
        known.expected = change.after;
        known.notKept ||= Boolean(change.notKept);
        continue;
      }
      byPath.set(change.path, {
        path: change.path,
        before: change.before,
        ...(change.mode === undefined ? {} : { mode: change.mode }),
        createdDirs: change.createdDirs,
        expected: change.after,
        notKept: Boolean(change.notKept),
      });
    }
  }
  return [...byPath.values()];
}

/** Hash of what is at `path` now; null when nothing is, undefined when it is no regular file. */
async function currentHash(path: string): Promise<string | null | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return null;
  return stats.isFile() ? contentHash(await readFile(path)) : undefined;
}

/** The files someone changed after Marvin wrote them (restoring them would lose that change). */
export async function changedSince(restores: readonly FileRestore[]): Promise<FileRestore[]> {
  const changed: FileRestore[] = [];
  for (const restore of restores) if ((await currentHash(restore.path)) !== restore.expected) changed.push(restore);
  return changed;
}

/** Refuses to write through a folder that became a link since Marvin wrote there (it may lead anywhere). */
async function refuseMovedFolder(path: string): Promise<void> {
  const missing = await missingAncestors(path);
  const existing = dirname(missing.at(-1) ?? path);
  if ((await realpath(existing)) !== existing) throw new Error(`${existing} is now a link to another place`);
}

/** Puts one file back: its earlier content and mode, or no file (and no folder the write created). */
export async function restoreFile(store: CheckpointStore, restore: FileRestore): Promise<void> {
  if (restore.before === null) {
    await unlink(restore.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    for (const dir of restore.createdDirs) await rmdir(dir).catch(() => undefined);
    return;
  }
  const content = await store.content(restore.before);
  await refuseMovedFolder(restore.path);
  await writeFileAtomic(restore.path, content, { mode: restore.mode ?? 0o644, sync: false });
}
