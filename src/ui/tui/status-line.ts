import { formatDuration } from "../../shared/duration.js";
import { textWidth } from "./spans.js";

/** Everything the status bar shows. */
export interface StatusInfo {
  provider: string;
  model: string;
  profile: string;
  messages: number;
  /** Session cost in USD. */
  cost: number;
  coding: boolean;
  shell: boolean;
  readonly: boolean;
  /** Milliseconds since the current work started, or undefined when idle. */
  busyMs: number | undefined;
  /** Messages waiting for their turn. */
  queued: number;
  /** Lines below the visible part of the chat (0 when following the bottom). */
  linesBelow: number;
}

const PROVIDER_EMOJI: Record<string, string> = {
  copilot: "🐙",
  openai: "🧠",
  groq: "⚡",
  gemini: "💎",
  ollama: "🦙",
  "openai-compat": "🔌",
};

function formatCost(cost: number): string {
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/** Cuts text to `width` columns, marking the cut with an ellipsis. */
export function fitToWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text + " ".repeat(width - textWidth(text));
  let result = "";
  let used = 0;
  for (const character of text) {
    const columns = textWidth(character);
    if (used + columns > width - 1) break;
    result += character;
    used += columns;
  }
  return `${result}…${" ".repeat(Math.max(0, width - used - 1))}`;
}

/** The status bar as plain text, padded or cut to exactly `width` columns. */
export function formatStatus(status: StatusInfo, width: number): string {
  const emoji = PROVIDER_EMOJI[status.provider] ?? "🤖";
  const modes = [status.coding && "coding", status.shell && "shell", status.readonly && "readonly"].filter(Boolean).join(" · ");
  const parts = [
    `${emoji} ${status.provider} · ${status.model}`,
    `profile ${status.profile}`,
    `${status.messages} msgs`,
    formatCost(status.cost),
    ...(modes ? [modes] : []),
    status.busyMs === undefined ? "○ ready" : `● working ${formatDuration(status.busyMs)}`,
    ...(status.queued ? [`${status.queued} queued`] : []),
    ...(status.linesBelow ? [`↓ ${status.linesBelow} more lines`] : []),
  ];
  return fitToWidth(` ${parts.join(" │ ")}`, width);
}
