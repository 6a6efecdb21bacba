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
 * The messages as a chat API takes them: a user message's context note goes in front of its words, and the replay
 * data another provider left on an answer (Claude's thinking signatures…) stays out.
 */
export function wireMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role === "user" && message.context !== undefined)
      return { role: "user", content: messageText(message) };
    if (message.role === "assistant" && message.replay) {
      const { replay: _, ...answer } = message;
      return answer;
    }
    return message;
  });
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
