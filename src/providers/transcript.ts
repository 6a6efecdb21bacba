import type { Message } from "./types.js";

const MAX_TRANSCRIPT_CHARS = 300_000;
const MAX_TOOL_RESULT_CHARS = 2_000;

/** The text a message carries, tool-call names and arguments and a user message's context note included. */
export function messageText(message: Message): string {
  const content = message.content ?? "";
  if (message.role === "user" && message.context) return `${message.context}\n\n${content}`;
  if (message.role === "assistant" && message.tool_calls?.length) {
    return content + message.tool_calls.map((call) => `${call.function.name}${call.function.arguments}`).join("");
  }
  return content;
}

/**
 * A plain-text transcript ("role: text" blocks) for a model to read: tool results cut to
 * 2,000 characters, and only the last 300,000 characters when longer.
 */
export function transcriptOf(messages: readonly Message[]): string {
  const lines = messages.map((message) => {
    const text = messageText(message);
    const long = message.role === "tool" && text.length > MAX_TOOL_RESULT_CHARS;
    const body = long ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)} […]` : text;
    return `${message.role}: ${body}`;
  });
  const transcript = lines.join("\n\n");
  if (transcript.length <= MAX_TRANSCRIPT_CHARS) return transcript;
  return `[…earlier part omitted…]\n${transcript.slice(-MAX_TRANSCRIPT_CHARS)}`;
}
