import { lstat, readFile, rmdir, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { writeFileAtomic } from "../../state/atomic-file.js";
import { type CheckpointStore, type CheckpointTurn, contentHash } from "./checkpoint-store.js";
import { LinkOnTheWay, openFolderWithoutLinks } from "./folder-without-links.js";

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

/**
 * `use` of the name of `path` in the folder that holds it, reached without links (see
 * openFolderWithoutLinks); undefined when a folder on the way is missing.
 */
async function inFolderOf<T>(
  path: string,
  create: boolean,
  use: (entry: string) => Promise<T>,
): Promise<{ result: T } | undefined> {
  const folder = await openFolderWithoutLinks(dirname(path), create);
  if (!folder) return undefined;
  try {
    return { result: await use(folder.at(basename(path))) };
  } finally {
    await folder.close();
  }
}

/** Hash of what is at `path` now; null when nothing is, undefined when it is no regular file. */
async function currentHash(path: string): Promise<string | null | undefined> {
  const found = await inFolderOf(path, false, async (entry) => {
    const stats = await lstat(entry).catch(() => undefined);
    if (!stats) return null;
    return stats.isFile() ? contentHash(await readFile(entry)) : undefined;
  });
  return found ? found.result : null;
}

/**
 * The files someone changed after Marvin wrote them (restoring them would lose that change). A
 * file behind a link is left out: it is not restored (restoreFile says why), so nobody is asked.
 */
export async function changedSince(restores: readonly FileRestore[]): Promise<FileRestore[]> {
  const changed: FileRestore[] = [];
  for (const restore of restores) {
    const now = await currentHash(restore.path).catch((error: unknown) => {
      if (error instanceof LinkOnTheWay) return restore.expected;
      throw error;
    });
    if (now !== restore.expected) changed.push(restore);
  }
  return changed;
}

/**
 * Puts one file back: its earlier content and mode, or no file (and no folder the write created).
 * Every path is resolved now, a step at a time, and nothing is done through a link (a LinkOnTheWay).
 */
export async function restoreFile(store: CheckpointStore, restore: FileRestore): Promise<void> {
  if (restore.before === null) {
    await inFolderOf(restore.path, false, (entry) =>
      unlink(entry).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      }),
    );
    for (const dir of restore.createdDirs) await inFolderOf(dir, false, (entry) => rmdir(entry)).catch(() => undefined);
    return;
  }
  const content = await store.content(restore.before);
  await inFolderOf(restore.path, true, (entry) =>
    writeFileAtomic(entry, content, { mode: restore.mode ?? 0o644, sync: false }),
  );
}
