import { RECENT_CHAT_ENTRIES } from "../../session/session.js";
import { truncateText } from "../../shared/truncate.js";
import type { ChatLogEntry } from "../../state/chat-log.js";
import { safeText } from "../terminal-text.js";
import type { Theme } from "../tui/theme.js";

/** Longest text shown per entry; the model still gets the whole entry. */
const RECENT_ENTRY_CHARS = 600;

const LABELS: Record<ChatLogEntry["role"], string> = { you: "You", assistant: "Marvin", system: "System" };

/** The recent part of chat_log.json (the entries seeded into the conversation), one block per entry. */
export function formatRecentConversation(
  entries: readonly ChatLogEntry[],
  theme: Theme,
  limit = RECENT_CHAT_ENTRIES,
): string[] {
  const recent = entries.slice(-limit);
  if (recent.length === 0) return [];
  const colour = { you: theme.you, assistant: theme.assistant, system: theme.system };
  const lines = recent.map((entry) => {
    const paint = colour[entry.role] ?? theme.system;
    const time = entry.time ? `[${entry.time}] ` : "";
    return paint(
      safeText(`${time}${LABELS[entry.role] ?? entry.role}: ${truncateText(entry.text, RECENT_ENTRY_CHARS)}`),
    );
  });
  return [
    theme.system(`── Recent conversation (${recent.length} of ${entries.length} messages) ──`),
    ...lines,
    theme.system("── end of recent conversation ──"),
  ];
}
