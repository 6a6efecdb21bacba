import type { Message } from "../../providers/types.js";
import { RECENT_CHAT_ENTRIES } from "../../session/session.js";
import { truncateText } from "../../shared/truncate.js";
import type { ChatLogEntry } from "../../state/chat-log.js";
import { hiddenNote, type ResumedStep, resumedTurns, type ScreenRoom } from "../commands/resumed-turns.js";
import { safeText } from "../terminal-text.js";
import { summarizeToolResult } from "../tool-call-text.js";
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

function stepLines(step: ResumedStep, theme: Theme): string {
  switch (step.kind) {
    case "you":
      return theme.you(safeText(`${LABELS.you}: ${step.text}`));
    case "assistant":
      return theme.assistant(safeText(`${LABELS.assistant}: ${step.text}`));
    case "tool":
      return theme.tool(safeText(`  🔧 ${step.label} ↳ ${summarizeToolResult(step.result)}`));
  }
}

/**
 * The end of a resumed conversation, linearly: the person's messages, the answers in full, a line per tool call;
 * as many last turns as fit about two screens, after a line saying how many earlier messages are left out.
 */
export function formatResumedConversation(
  messages: readonly Message[],
  totalMessages: number,
  room: ScreenRoom,
  theme: Theme,
): string[] {
  const { steps, hidden } = resumedTurns(messages, totalMessages, room);
  const note = hidden > 0 ? [theme.system(`[System] ${hiddenNote(hidden)}`)] : [];
  return [...note, ...steps.map((step) => stepLines(step, theme))];
}
