import { type Loaded, loadJsonFile, writeJsonAtomic } from "./atomic-file.js";

/** One line of `chat_log.json`, in the original Marvin's format (role `you`, not `user`). */
export interface ChatLogEntry {
  role: "you" | "assistant" | "system";
  text: string;
  time: string;
}

function parseChatLog(raw: unknown): ChatLogEntry[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const valid = raw.every(
    (entry) =>
      typeof entry === "object" &&
      entry !== null &&
      typeof (entry as ChatLogEntry).role === "string" &&
      typeof (entry as ChatLogEntry).text === "string",
  );
  return valid ? (raw as ChatLogEntry[]) : undefined;
}

export function loadChatLog(path: string): Promise<Loaded<ChatLogEntry[]>> {
  return loadJsonFile(path, parseChatLog, () => []);
}

/** `HH:MM`, local time, as the original writes it. */
export function clockTime(date = new Date()): string {
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/**
 * Appends entries to the log on disk (read, extend, atomic write). A log that cannot be
 * read was already preserved by `loadJsonFile`, so starting a new one loses nothing.
 */
export async function appendChatLog(path: string, entries: ChatLogEntry[]): Promise<string | undefined> {
  const loaded = await loadChatLog(path);
  await writeJsonAtomic(path, [...loaded.value, ...entries]);
  return loaded.warning;
}

export async function saveChatLog(path: string, entries: ChatLogEntry[]): Promise<void> {
  await writeJsonAtomic(path, entries);
}
