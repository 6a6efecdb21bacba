import type { ImageData } from "../../shared/image.js";
import { ProviderError } from "../provider-error.js";
import { transcriptOf } from "../transcript.js";
import type { ChatRequest, Message } from "../types.js";
import type { ToolResult } from "./turn.js";

/** Marvin's system message (the first `system` entry), if the request has one. */
export function systemMessageOf(messages: readonly Message[]): string | undefined {
  const system = messages.find((message) => message.role === "system");
  return system?.content;
}

function lastUserIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === "user") return index;
  }
  throw new ProviderError("The request to Copilot has no user message to send.", {
    provider: "copilot",
    kind: "bad_request",
  });
}

/** The newest user message: the one thing a session that already holds the conversation needs. */
export function lastUserMessage(messages: readonly Message[]): Extract<Message, { role: "user" }> {
  return messages[lastUserIndex(messages)] as Extract<Message, { role: "user" }>;
}

/** The conversation before the newest user message, without Marvin's system message. */
export function earlierMessages(messages: readonly Message[]): Message[] {
  const system = messages.findIndex((message) => message.role === "system");
  return messages.slice(0, lastUserIndex(messages)).filter((_, index) => index !== system);
}

export function toolNamesOf(request: ChatRequest): string[] {
  return request.tools.map((tool) => tool.function.name);
}

/** A session is built for one tool set: another one (a mode switch) needs a new session. */
export function toolSetKeyOf(request: ChatRequest): string {
  return [...toolNamesOf(request)].sort().join(",");
}

/** What a Copilot session holds of a conversation: the user messages and the final answers. */
export interface DialogueEntry {
  role: "user" | "assistant";
  content: string;
}

/** The dialogue of `messages`: tool traffic, system notes and empty answers left out. */
export function dialogueOf(messages: readonly Message[]): DialogueEntry[] {
  const entries: DialogueEntry[] = [];
  for (const message of messages) {
    if (message.role === "user") entries.push({ role: "user", content: message.content });
    else if (message.role === "assistant" && !message.tool_calls?.length && message.content) {
      entries.push({ role: "assistant", content: message.content });
    }
  }
  return entries;
}

/**
 * True when a session holding `held` can answer a request whose earlier dialogue is
 * `earlier`: it must be the end of what the session holds (Marvin drops its oldest
 * messages and compacts; the session keeps them). Anything else — an answer the session
 * never gave (a fallback provider's, a cancelled one), another conversation — needs a new
 * session.
 */
export function continuesDialogue(held: readonly DialogueEntry[], earlier: readonly DialogueEntry[]): boolean {
  if (earlier.length === 0) return held.length === 0;
  if (earlier.length > held.length) return false;
  const offset = held.length - earlier.length;
  return earlier.every((entry, index) => {
    const same = held[offset + index]!;
    return entry.role === same.role && entry.content === same.content;
  });
}

/** Marvin's system message is a preamble and `## Title` sections separated by blank lines. */
function sectionsOf(system: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const section of system.split(/\n\n(?=## )/)) {
    sections.set(section.startsWith("## ") ? section.split("\n", 1)[0]! : "", section);
  }
  return sections;
}

/**
 * The parts of the system context that changed since `previous` (the time, new chat-log
 * lines, preferences…): changed lines with their section's title, new sections whole,
 * and the titles of sections that are gone. Undefined when nothing changed.
 */
export function systemContextUpdate(previous: string, current: string): string | undefined {
  if (previous === current) return undefined;
  const before = sectionsOf(previous);
  const after = sectionsOf(current);
  const parts: string[] = [];
  for (const [title, section] of after) {
    const old = before.get(title);
    if (old === section) continue;
    if (old === undefined) {
      parts.push(section);
      continue;
    }
    const oldLines = new Set(old.split("\n"));
    const changed = section.split("\n").filter((line) => !oldLines.has(line));
    if (changed.length) parts.push((title ? [title, ...changed] : changed).join("\n"));
  }
  for (const title of before.keys()) if (title && !after.has(title)) parts.push(`${title}\n(no longer applies)`);
  return parts.length ? parts.join("\n\n") : undefined;
}

/** The prompt for a session that holds the conversation, with what changed in the system context. */
export function promptWithContextUpdate(prompt: string, update: string | undefined): string {
  if (!update) return prompt;
  const intro = "The system context changed since the last message; new or changed parts:";
  return `<system-context-update>\n${intro}\n${update}\n</system-context-update>\n\n${prompt}`;
}

/** The first prompt of a new session for a conversation that started earlier: the conversation so far comes first. */
export function promptWithEarlierConversation(prompt: string, earlier: readonly Message[]): string {
  if (earlier.length === 0) return prompt;
  const count = earlierImages(earlier).length;
  const images = count
    ? ` The ${count === 1 ? "image" : `${count} images`} shown in it come${count === 1 ? "s" : ""} first with ` +
      "this message, in order."
    : "";
  const intro = `This conversation began before this session.${images} What was said so far:`;
  return `<earlier-conversation>\n${intro}\n\n${transcriptOf(earlier)}\n</earlier-conversation>\n\n${prompt}`;
}

/** A tool message as the runtime takes it: its images as binary results for the model. */
function toolResultOf(message: Extract<Message, { role: "tool" }>): ToolResult {
  if (!message.images?.length) return message.content;
  return {
    textResultForLlm: message.content,
    binaryResultsForLlm: message.images.map((image) => ({
      type: "image",
      data: image.data,
      mimeType: image.mediaType,
    })),
    resultType: "success",
  };
}

/** The images of a user message as the runtime's blob attachments. */
export function imageAttachments(message?: Extract<Message, { role: "user" }>) {
  return blobsOf(message?.images);
}

function blobsOf(images: readonly ImageData[] = []) {
  return images.map((image) => ({ type: "blob" as const, data: image.data, mimeType: image.mediaType }));
}

/** Images of the conversation so far a new session is shown again: the most recent ones. */
const MAX_EARLIER_IMAGES = 10;

/** The images of messages before this session (the user's and read_file's), the most recent, in order. */
function earlierImages(earlier: readonly Message[]): ImageData[] {
  return earlier
    .flatMap((message) => (message.role === "user" || message.role === "tool" ? (message.images ?? []) : []))
    .slice(-MAX_EARLIER_IMAGES);
}

/** The earlier images as blob attachments for the first prompt of a new session (see promptWithEarlierConversation). */
export function earlierImageAttachments(earlier: readonly Message[]) {
  return blobsOf(earlierImages(earlier));
}

/**
 * The results of the newest round of tool calls, by call id: the `tool` messages that end the conversation (notes
 * of Marvin's after them aside). Empty when the conversation ends otherwise (a new user message).
 */
export function latestToolResults(messages: readonly Message[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "tool") results.set(message.tool_call_id, toolResultOf(message));
    else if (message.role !== "system") break;
  }
  return results;
}
