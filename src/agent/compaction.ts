import { messageText, transcriptOf } from "../providers/transcript.js";
import type { Message } from "../providers/types.js";

export const KEEP_RECENT_MESSAGES = 8;

interface CompactionOptions {
  /** Keeps the whole conversation somewhere before it is condensed; gives where, for the summary to name. */
  backUp: (messages: readonly Message[]) => Promise<string>;
  summarize: (transcript: string) => Promise<string>;
  keepRecent?: number;
}

interface CompactionResult {
  messages: Message[];
  backupPath?: string;
}

/** Index where the kept tail starts: never on a tool result whose call would be dropped. */
function tailStart(messages: readonly Message[], keepRecent: number): number {
  let start = Math.max(1, messages.length - keepRecent);
  while (start > 1 && messages[start]?.role === "tool") start -= 1;
  return start;
}

/** What is left when the summariser itself fails: the requests made and the tools used. */
function fallbackSummary(messages: readonly Message[]): string {
  const requests = messages
    .filter((message) => message.role === "user")
    .map((message) => `- ${messageText(message).slice(0, 200)}`);
  const tools = new Set(
    messages.flatMap((message) =>
      message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.function.name) : [],
    ),
  );
  return [
    `Earlier requests:\n${requests.join("\n") || "- (none)"}`,
    `Tools used: ${[...tools].join(", ") || "none"}`,
  ].join("\n");
}

/**
 * Backs up the whole conversation, then keeps the system message and the last messages
 * and replaces the middle with one summary message (seed 000 §6.5).
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactionOptions,
): Promise<CompactionResult> {
  const start = tailStart(messages, options.keepRecent ?? KEEP_RECENT_MESSAGES);
  const middle = messages.slice(1, start);
  if (middle.length === 0) return { messages: [...messages] };
  const backupPath = await options.backUp(messages);
  let summary: string;
  try {
    summary = (await options.summarize(transcriptOf(middle))).trim() || fallbackSummary(middle);
  } catch {
    summary = fallbackSummary(middle);
  }
  const head = messages[0]!;
  return {
    messages: [
      head,
      { role: "system", content: `[Compacted history summary — full text in ${backupPath}]\n${summary}` },
      ...messages.slice(start),
    ],
    backupPath,
  };
}

/** Per-message cap applied when the kept messages alone are still past the hard limit. */
const OVERSIZED_TOOL_RESULT_CHARS = 4_000;

/**
 * Shortens the tool results that compaction had to keep (head and tail stay), for when the
 * last few messages alone are past the hard limit. Returns how many were shortened.
 */
export function shortenToolResults(
  messages: Message[],
  where: string | undefined,
  maxChars = OVERSIZED_TOOL_RESULT_CHARS,
): number {
  let shortened = 0;
  for (const [index, message] of messages.entries()) {
    if (message.role !== "tool" || message.content.length <= maxChars) continue;
    const half = Math.floor(maxChars / 2);
    const cut = message.content.length - 2 * half;
    const note =
      `\n[… ${cut} characters cut to fit the context ` +
      `window${where ? `; the full result is in ${where}` : ""} …]\n`;
    messages[index] = { ...message, content: message.content.slice(0, half) + note + message.content.slice(-half) };
    shortened += 1;
  }
  return shortened;
}
