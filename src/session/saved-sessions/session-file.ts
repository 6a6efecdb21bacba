import { z } from "zod";
import type { ReplayData } from "../../providers/types.js";

/**
 * The on-disk form of one conversation: a JSON-lines file, one record per line, only ever
 * appended to. A crash loses at most the line being written; a damaged line is skipped.
 *
 * - `start`: the first line — id, title, when, where, and with which provider and model.
 * - `message`: one message of the conversation, in order (tool calls and results included).
 * - `state`: provider, model, coding mode or working directory changed.
 * - `compaction`: the conversation was condensed; these messages replace everything before.
 * - `rewind`: the conversation was cut back (`rewind`): only its first `keep` messages remain.
 * - `tokens`: the first `messages` messages of the conversation count `tokens` tokens (o200k, as the context
 *   budget counts), so that a resumed run need not load the tokenizer to count them again.
 */

const toolCall = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * What a provider needs back with an answer (Claude's signed thinking blocks…): kept as written, read and checked
 * only by the provider that wrote it. A damaged one is dropped, never the message.
 */
const replay = z
  .custom<ReplayData>((value) => {
    const data = value as Partial<ReplayData> | null;
    return typeof data?.provider === "string" && Array.isArray(data.items);
  })
  .optional()
  .catch(undefined);

const mediaType = z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * An image, named by the SHA-256 of its bytes and kept once beside the session file (see SessionImages); sessions
 * saved before that keep it here as base64, and still load.
 */
const images = z
  .array(
    z.union([
      z.object({ mediaType, ref: z.string().regex(/^[0-9a-f]{64}$/) }),
      z.object({ mediaType, data: z.string() }),
    ]),
  )
  .optional();

const message = z.union([
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string(), context: z.string().optional(), images }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    tool_calls: z.array(toolCall).optional(),
    replay,
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string(), images }),
]);

/** A message as the session file holds it: its images by reference (a live Message is one too). */
export type StoredMessage = z.infer<typeof message>;

export type StoredImage = NonNullable<Extract<StoredMessage, { role: "user" }>["images"]>[number];

const conversationState = z.object({
  provider: z.string().nullable(),
  model: z.string().nullable(),
  codingMode: z.boolean(),
  workingDir: z.string().nullable(),
});

/** Provider, model and mode a conversation ran with; restored on resume. */
export type ConversationState = z.infer<typeof conversationState>;

const startRecord = conversationState.extend({
  type: z.literal("start"),
  version: z.literal(1),
  id: z.string(),
  title: z.string(),
  startedAt: z.string(),
  /** The directory Marvin was started in; `--continue` picks the latest conversation started here. */
  cwd: z.string(),
});

type StartRecord = z.infer<typeof startRecord>;

const record = z.discriminatedUnion("type", [
  startRecord,
  z.object({ type: z.literal("message"), at: z.string(), message }),
  conversationState.extend({ type: z.literal("state"), at: z.string() }),
  z.object({ type: z.literal("compaction"), at: z.string(), messages: z.array(message) }),
  z.object({ type: z.literal("rewind"), at: z.string(), keep: z.number().int().nonnegative() }),
  z.object({
    type: z.literal("tokens"),
    at: z.string(),
    messages: z.number().int().positive(),
    tokens: z.number().int().nonnegative(),
  }),
]);

export type SessionRecord = z.infer<typeof record>;

export function recordLine(value: SessionRecord): string {
  return `${JSON.stringify(value)}\n`;
}

/** The first `messages` messages of a conversation count `tokens` tokens. */
export interface TokenCount {
  messages: number;
  tokens: number;
}

export interface ParsedSession {
  start: StartRecord;
  /** The conversation as it stands: after the last compaction, every message since. */
  messages: StoredMessage[];
  /** The exact token count of the first messages of `messages`, when one was recorded and still holds. */
  tokenCount?: TokenCount;
  /** Messages recorded over the conversation's life, compacted ones included, as countsAsMessage counts them. */
  totalMessages: number;
  state: ConversationState;
  /** Lines that were not valid records (a torn last line after a crash, an edit gone wrong). */
  skippedLines: number;
  /** False when the file does not end with a line break: the next append must start a new line. */
  endsWithNewline: boolean;
}

function parseRecord(line: string): SessionRecord | undefined {
  try {
    const parsed = record.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a session file's text; undefined when it has no valid start record. */
export function parseSession(text: string): ParsedSession | undefined {
  let start: StartRecord | undefined;
  let messages: StoredMessage[] = [];
  let tokenCount: TokenCount | undefined;
  let totalMessages = 0;
  let state: ConversationState | undefined;
  let skippedLines = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseRecord(line);
    if (!parsed || (parsed.type !== "start" && !start)) {
      skippedLines++;
      continue;
    }
    switch (parsed.type) {
      case "start": {
        if (start) {
          skippedLines++;
          break;
        }
        start = parsed;
        const { provider, model, codingMode, workingDir } = parsed;
        state = { provider, model, codingMode, workingDir };
        break;
      }
      case "message":
        messages.push(parsed.message);
        if (countsAsMessage(parsed.message)) totalMessages++;
        break;
      case "state": {
        const { provider, model, codingMode, workingDir } = parsed;
        state = { provider, model, codingMode, workingDir };
        break;
      }
      case "compaction":
        messages = parsed.messages;
        tokenCount = undefined;
        break;
      case "rewind":
        totalMessages -= messages.splice(parsed.keep).filter(countsAsMessage).length;
        if (tokenCount && tokenCount.messages > parsed.keep) tokenCount = undefined;
        break;
      case "tokens":
        tokenCount = { messages: parsed.messages, tokens: parsed.tokens };
        break;
    }
  }
  if (!start || !state) return undefined;
  const endsWithNewline = text === "" || text.endsWith("\n");
  const parsed = { start, messages, totalMessages, state, skippedLines, endsWithNewline };
  // With a damaged line the count may be of other messages than these.
  return tokenCount && skippedLines === 0 && tokenCount.messages <= messages.length
    ? { ...parsed, tokenCount }
    : parsed;
}

/**
 * What "messages" means wherever Marvin counts them (status bar, `sessions`, the resume line):
 * what you sent and Marvin's answers. The tool-calling steps and tool results in between are
 * not counted, so an exchange counts two whatever tools it used.
 */
export function countsAsMessage(message: StoredMessage): boolean {
  return message.role === "user" || (message.role === "assistant" && !message.tool_calls?.length);
}

/** A user message of the conversation, numbered as countsAsMessage counts, with its place in the list. */
export interface NumberedUserMessage {
  message: number;
  index: number;
  text: string;
}

/**
 * The user messages of `messages`, numbered so that the last counted message is `total` (the
 * conversation's count over its life): a number stays the same after a compaction or a resume.
 */
export function numberUserMessages(messages: readonly StoredMessage[], total: number): NumberedUserMessage[] {
  const found: NumberedUserMessage[] = [];
  let number = total;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user") found.unshift({ message: number, index, text: message.content });
    if (countsAsMessage(message)) number--;
  }
  return found;
}

/** The first line of a message, shortened to `max` characters, for titles and lists. */
export function firstLine(text: string, max: number): string {
  const line = text.trim().split("\n")[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
