import { chmod, mkdir } from "node:fs/promises";

/**
 * Creates `dir` when missing and makes it owner-only (0700), an existing one too: folders that
 * hold conversation text (a profile, its logs, context backups) were once left at 0755. A folder
 * of another user keeps its mode; the files Marvin writes in it are owner-only (0600) anyway.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EPERM") throw error;
  });
}
