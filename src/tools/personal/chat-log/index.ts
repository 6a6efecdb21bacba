import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage } from "../../../shared/error-message.js";
import { preview } from "../../../shared/truncate.js";
import { type ChatLogEntry, clockTime, loadChatLog, saveChatLog } from "../../../state/chat-log.js";
import { ensurePrivateDir } from "../../../state/private-dir.js";
import { OWN_DIRS, resolveInsideDir } from "../../../workspace/own-dirs.js";
import { readTextInside } from "../../../workspace/read-inside.js";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";

const DEFAULT_TARGET_TOKENS = 4000;

function fileTimestamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

function transcript(entries: ChatLogEntry[]): string {
  return entries.map((entry) => `${entry.role} [${entry.time}]: ${entry.text}`).join("\n");
}

interface BackupHit {
  file: string;
  role: string;
  snippet: string;
}

/** A backup folder to read: the working dir's own `.marvin/logs` goes through the sandbox (refused if it leads out). */
async function readableBackupDir(context: ToolContext, dir: string): Promise<string> {
  const workingDir = context.workingDir;
  return workingDir && dir === join(workingDir, OWN_DIRS.logs) ? resolveInsideDir(workingDir, OWN_DIRS.logs) : dir;
}

/** Each searchable line of a backup: context backups are JSONL messages, chat backups JSON arrays. */
function backupRecords(file: string, text: string): Array<{ role: string; text: string }> {
  if (file.endsWith(".jsonl")) {
    return text
      .split("\n")
      .filter(Boolean)
      .flatMap((line) => {
        try {
          const message = JSON.parse(line) as { role?: string; content?: unknown; tool_calls?: unknown };
          const content = typeof message.content === "string" ? message.content : "";
          const calls = message.tool_calls ? JSON.stringify(message.tool_calls) : "";
          return [{ role: message.role ?? "?", text: `${content}${calls ? ` ${calls}` : ""}` }];
        } catch {
          return [];
        }
      });
  }
  try {
    const entries = JSON.parse(text) as ChatLogEntry[];
    return Array.isArray(entries)
      ? entries.map((entry) => ({ role: `${entry.role} ${entry.time ?? ""}`.trim(), text: String(entry.text ?? "") }))
      : [];
  } catch {
    return [];
  }
}

function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 80);
  return preview(text.slice(start, index + length + 120), 240);
}

export const chatLogTools = [
  defineTool({
    name: "compact_history",
    effect: "write",
    description: "Shrink the saved chat history: back it up, summarise older entries, keep recent ones.",
    parameters: z.object({ target_tokens: z.number().int().min(200).default(DEFAULT_TARGET_TOKENS) }),
    handler: async ({ target_tokens }, context) => {
      const paths = context.profiles.paths(context.profileName);
      const { value: entries, warning } = await loadChatLog(paths.chatLog);
      if (warning) return `${warning}\nNothing was compacted.`;
      const total = await context.budget.countTokens(transcript(entries));
      if (total <= target_tokens)
        return (
          `Chat history is ${total} tokens (${entries.length} entries), already within ${target_tokens}. ` +
          `Nothing to do.`
        );

      let keptTokens = 0;
      let firstKept = entries.length;
      while (firstKept > 0) {
        const cost = await context.budget.countTokens(transcript([entries[firstKept - 1]!]));
        if (keptTokens + cost > target_tokens / 2) break;
        keptTokens += cost;
        firstKept -= 1;
      }
      const older = entries.slice(0, firstKept);
      await ensurePrivateDir(paths.logs);
      const backup = join(paths.logs, `chat-backup-${fileTimestamp()}.json`);
      await writeFile(backup, JSON.stringify(entries, null, 2), { flag: "wx", mode: 0o600 });
      const summary = await context.summarize(
        transcript(older),
        `Summarise this conversation history in at most ${Math.floor(target_tokens / 2)} tokens. Keep facts about ` +
          `the user, decisions, names, places and open tasks.`,
      );
      const compacted: ChatLogEntry[] = [
        { role: "system", text: `[Summary of ${older.length} earlier messages]\n${summary}`, time: clockTime() },
        ...entries.slice(firstKept),
      ];
      await saveChatLog(paths.chatLog, compacted);
      const after = await context.budget.countTokens(transcript(compacted));
      return (
        `Compacted chat history from ${total} to ${after} tokens: ${older.length} older entries summarised, ` +
        `${entries.length - firstKept} recent kept. Backup: ${backup}`
      );
    },
  }),
  defineTool({
    name: "search_history_backups",
    effect: "read",
    description: "Search backed-up (compacted or dropped) conversation history for a word or phrase.",
    parameters: z.object({ query: z.string().min(1), max_results: resultLimit(200, 20) }),
    handler: async ({ query, max_results }, context) => {
      const needle = query.toLowerCase();
      const hits: BackupHit[] = [];
      let filesSearched = 0;
      const skipped: string[] = [];
      for (const listed of context.backupDirs()) {
        let dir: string;
        try {
          dir = await readableBackupDir(context, listed);
        } catch (error) {
          skipped.push(errorMessage(error));
          continue;
        }
        const files = await readdir(dir).catch(() => [] as string[]);
        for (const name of files
          .filter((file) => /^(context-backup|chat-backup)-.*\.(jsonl|json)$/.test(file))
          .sort()
          .reverse()) {
          // Through the sandbox of the folder: a backup that is a symlink leading out of it, or a FIFO, is skipped.
          const text = await readTextInside(dir, name).catch(() => undefined);
          if (text === undefined) continue;
          filesSearched += 1;
          const file = join(dir, name);
          for (const record of backupRecords(name, text)) {
            const index = record.text.toLowerCase().indexOf(needle);
            if (index >= 0)
              hits.push({ file, role: record.role, snippet: snippetAround(record.text, index, needle.length) });
            if (hits.length >= max_results) break;
          }
          if (hits.length >= max_results) break;
        }
        if (hits.length >= max_results) break;
      }
      const notes = skipped.map((message) => `\n(Not searched: ${message})`).join("");
      const looked = context.backupDirs().join(", ");
      if (filesSearched === 0) return `No history backups exist yet (looked in ${looked}).${notes}`;
      if (hits.length === 0) return `No matches for '${query}' in ${filesSearched} backup file(s).${notes}`;
      return (
        `${hits.length} match(es) for ` +
        `'${query}':\n${hits.map((hit) => `- [${hit.role}] ${hit.snippet}\n  (${hit.file})`).join("\n")}${notes}`
      );
    },
  }),
];
