import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../providers/types.js";

/**
 * Writes the whole conversation, one message a line, to a new `context-backup-<time>.jsonl` in `dir` before it is
 * condensed; returns its path. A backup is never overwritten, and it is owner-only: it is the conversation.
 */
export async function writeConversationBackup(
  dir: string,
  messages: readonly Message[],
  now = new Date(),
): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const content = `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`;
  for (let attempt = 0; ; attempt++) {
    const path = join(dir, `context-backup-${stamp}${attempt ? `-${attempt}` : ""}.jsonl`);
    try {
      await writeFile(path, content, { flag: "wx", mode: 0o600 });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 100) throw error;
    }
  }
}
