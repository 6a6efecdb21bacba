import { join } from "node:path";
import { errorMessage } from "../shared/error-message.js";
import { ensurePrivateDir } from "../state/private-dir.js";
import type { ProfileStore } from "../state/profiles.js";
import { ensureInsideDir, OWN_DIRS } from "../workspace/own-dirs.js";

/** The folders where context and history backups are written, newest location first. */
export function backupDirsOf(profiles: ProfileStore, profileName: string, workingDir: string | null): string[] {
  const profileLogs = profiles.paths(profileName).logs;
  return workingDir ? [join(workingDir, OWN_DIRS.logs), profileLogs] : [profileLogs];
}

/**
 * Where a context backup goes: the working dir's `.marvin/logs` checked through the sandbox, or the profile's logs
 * when that leads out (`notice` says so). Made owner-only right before it is written: it holds the conversation.
 */
export async function backupDirForWrite(
  profiles: ProfileStore,
  profileName: string,
  workingDir: string | null,
  notice: (text: string) => void,
): Promise<string> {
  const profileLogs = profiles.paths(profileName).logs;
  let dir = profileLogs;
  if (workingDir) {
    try {
      dir = await ensureInsideDir(workingDir, OWN_DIRS.logs);
    } catch (error) {
      notice(`${errorMessage(error)} The context backup goes to ${profileLogs} instead.`);
    }
  }
  await ensurePrivateDir(dir);
  return dir;
}
