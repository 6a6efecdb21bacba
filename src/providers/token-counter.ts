import { performance } from "node:perf_hooks";
import { tokenizerSegments } from "./token-segments.js";
import { messageText } from "./transcript.js";
import type { Message } from "./types.js";

interface EncodeOptions {
  disallowedSpecial: Set<string>;
}
interface Encoder {
  countTokens(text: string, options: EncodeOptions): number;
  encode(text: string, options: EncodeOptions): number[];
  decode(tokens: number[]): string;
}

/** Text such as "<|endoftext|>" is counted as the plain text it is, instead of throwing. */
const PLAIN_TEXT: EncodeOptions = { disallowedSpecial: new Set() };
/** Longest stretch of tokenizer work before other callbacks (signals, timers, I/O) get a turn. */
const SLICE_MS = 10;

let encoder: Encoder | undefined;
let loading: Promise<Encoder> | undefined;

/** Loads the o200k tokenizer on first use only: it is large and most turns never need it. */
function loadEncoder(): Promise<Encoder> {
  if (encoder) return Promise.resolve(encoder);
  loading ??= import("gpt-tokenizer").then((module) => (encoder = module as unknown as Encoder));
  return loading;
}

/** Whether the tokenizer is in memory (a cold one costs about half a second to load). */
export function isTokenizerLoaded(): boolean {
  return encoder !== undefined;
}

/** Starts loading the tokenizer in the background, so that a later exact count does not wait for it. */
function preloadTokenizer(): void {
  if (encoder || loading) return;
  setImmediate(() => void loadEncoder().catch(() => undefined)).unref();
}

/** Never below the token count: byte-level BPE yields at most one token per UTF-8 byte. */
export function tokenUpperBound(text: string): number {
  return Buffer.byteLength(text);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `visit` for each bounded segment of `text` (see token-segments.ts), pausing for
 * the event loop every few milliseconds; stops when `visit` returns false.
 */
async function forEachSegment(text: string, visit: (segment: string, offset: number) => boolean): Promise<void> {
  let offset = 0;
  let sliceStart = performance.now();
  for (const segment of tokenizerSegments(text)) {
    if (!visit(segment, offset)) return;
    offset += segment.length;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
}

/**
 * o200k token count, in time linear in the length of `text`. Exact for ordinary text; see
 * token-segments.ts for the machine-made runs where it may differ by a token per cut.
 */
export async function countTextTokens(text: string): Promise<number> {
  const tokenizer = await loadEncoder();
  let total = 0;
  let previous = { segment: "", tokens: 0 };
  await forEachSegment(text, (segment) => {
    // Long runs of one character repeat the same segment: count it once.
    if (segment !== previous.segment) previous = { segment, tokens: tokenizer.countTokens(segment, PLAIN_TEXT) };
    total += previous.tokens;
    return true;
  });
  return total;
}

/** The start of `text` that has at most `maxTokens` tokens; stops encoding once the limit is reached. */
export async function truncateToTokens(text: string, maxTokens: number): Promise<string> {
  const tokenizer = await loadEncoder();
  let total = 0;
  let result: string | undefined;
  await forEachSegment(text, (segment, offset) => {
    const tokens = tokenizer.encode(segment, PLAIN_TEXT);
    if (total + tokens.length <= maxTokens) {
      total += tokens.length;
      return true;
    }
    result = text.slice(0, offset) + tokenizer.decode(tokens.slice(0, Math.max(0, maxTokens - total)));
    return false;
  });
  return result ?? text;
}

/** Per-message framing overhead of chat formats (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
/** What an image costs, about: Anthropic's charge for a full-size one (OpenAI and Gemini charge less). */
const IMAGE_TOKENS = 1_600;

/** Tokens a message takes besides its text: framing, and its images. */
function overheadOf(message: Message): number {
  const images = message.role === "user" || message.role === "tool" ? (message.images?.length ?? 0) : 0;
  return MESSAGE_OVERHEAD + images * IMAGE_TOKENS;
}

/** UTF-8 bytes plus framing: never below the exact count of {@link MessageTokenCounter}. */
export function messagesUpperBound(messages: readonly Message[]): number {
  let bytes = 0;
  for (const message of messages) bytes += tokenUpperBound(messageText(message)) + overheadOf(message);
  return bytes;
}

/** A run of messages whose total is known without the tokenizer: a count saved with a resumed conversation. */
interface KnownRun {
  messages: readonly Message[];
  tokens: number;
}

/** Whether `messages` holds the messages of `run`, in order, from `index` on (the same objects, not copies). */
function runStartsAt(messages: readonly Message[], index: number, run: KnownRun): boolean {
  if (messages[index] !== run.messages[0] || index + run.messages.length > messages.length) return false;
  return run.messages.every((message, offset) => messages[index + offset] === message);
}

/**
 * Token count of a message list, exact where it matters and cheap where it does not:
 * while the bound (exact counts already known, UTF-8 bytes for the rest) is under `exactAbove`
 * it is returned without the tokenizer, which starts loading in the background once the bound
 * is three quarters of the way there.
 */
export class MessageTokenCounter {
  private readonly cache = new WeakMap<Message, number>();
  private known: KnownRun | undefined;

  /** Takes `tokens` as the exact count of `messages` (in this order) wherever they appear together. */
  remember(messages: readonly Message[], tokens: number): void {
    this.known = messages.length > 0 ? { messages: [...messages], tokens } : undefined;
  }

  async count(messages: readonly Message[], exactAbove: number): Promise<number> {
    const bound = this.sum(messages, (message) => tokenUpperBound(messageText(message)) + overheadOf(message));
    if (bound < exactAbove) {
      if (bound >= (exactAbove * 3) / 4) preloadTokenizer();
      return bound;
    }
    for (const message of this.unknown(messages))
      this.cache.set(message, (await countTextTokens(messageText(message))) + overheadOf(message));
    return this.sum(messages, () => 0);
  }

  /** The longest start of `messages` whose exact count is known: how many messages, how many tokens. */
  knownPrefix(messages: readonly Message[]): { messages: number; tokens: number } {
    let index = 0;
    let tokens = 0;
    while (index < messages.length) {
      if (this.known && runStartsAt(messages, index, this.known)) {
        tokens += this.known.tokens;
        index += this.known.messages.length;
        continue;
      }
      const counted = this.cache.get(messages[index]!);
      if (counted === undefined) break;
      tokens += counted;
      index++;
    }
    return { messages: index, tokens };
  }

  /** Sum over `messages`: the known exact counts, and `otherwise` for each message not counted yet. */
  private sum(messages: readonly Message[], otherwise: (message: Message) => number): number {
    let total = 0;
    for (let index = 0; index < messages.length; index++) {
      if (this.known && runStartsAt(messages, index, this.known)) {
        total += this.known.tokens;
        index += this.known.messages.length - 1;
        continue;
      }
      const message = messages[index]!;
      total += this.cache.get(message) ?? otherwise(message);
    }
    return total;
  }

  /** The messages of `messages` whose count is not known yet. */
  private unknown(messages: readonly Message[]): Message[] {
    const found: Message[] = [];
    this.sum(messages, (message) => {
      found.push(message);
      return 0;
    });
    return found;
  }
}
