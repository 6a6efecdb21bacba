import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { countTokens as libraryCount } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../tests/support/run-marvin.js";
import { countTextTokens, MessageTokenCounter, truncateToTokens } from "./token-counter.js";
import { tokenizerSegments } from "./token-segments.js";
import { messageText } from "./transcript.js";
import type { Message } from "./types.js";

const MB = 1024 * 1024;
/** Generous: the old counter needed minutes for these inputs, the new one well under a second. */
const BOUNDED_MS = 5_000;

/** The tokenizer library's own count, in one piece (quadratic on long runs: small inputs only). */
const exactCount = (text: string) => libraryCount(text, { disallowedSpecial: new Set() });

/** Deterministic pseudo-random text over `alphabet`. */
function randomText(length: number, alphabet: readonly string[], seed = 1): string {
  const parts: string[] = [];
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    parts.push(alphabet[seed % alphabet.length]!);
  }
  return parts.join("");
}

const MIXED = [
  "The",
  " quick",
  " brown",
  " fox",
  "'s",
  " don't",
  ",",
  ".",
  "\n",
  "\n\n",
  "  ",
  "\t",
  "=",
  "==",
  "/",
  "//",
  "(",
  ")",
  "{",
  "}",
  "1",
  "42",
  "2024",
  "é",
  "Ünïcode",
  " 中文",
  "，",
  "。",
  "「",
  "」",
  "日本語",
  " Привет",
  "😀",
  "👨‍👩‍👧",
  "\u00a0",
  "\u3000",
  "e\u0301",
  "ABC",
  "camelCase",
  "snake_case",
  "https://example.com/a/b?c=d",
  "<|endoftext|>",
];

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe("countTextTokens and truncateToTokens (real o200k tokenizer)", () => {
  it("counts real BPE tokens, not characters", async () => {
    expect(await countTextTokens("")).toBe(0);
    expect(await countTextTokens("hello world")).toBe(2);
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(50);
    const tokens = await countTextTokens(long);
    expect(tokens).toBeGreaterThan(400);
    expect(tokens).toBeLessThan(long.length / 2);
  });

  it("cuts text to at most the given number of tokens, keeping the start", async () => {
    const text = "alpha beta gamma delta epsilon zeta eta theta ".repeat(20);
    const cut = await truncateToTokens(text, 10);
    expect(text.startsWith(cut)).toBe(true);
    expect(await countTextTokens(cut)).toBeLessThanOrEqual(10);
    expect(cut.length).toBeGreaterThan(20);
    expect(await truncateToTokens("short", 10)).toBe("short");
    expect(await truncateToTokens("short text", 0)).toBe("");
  });

  it("is exact for ordinary text: this repository's README and sources, and mixed-script text", async () => {
    const files = ["README.md", "src/agent/loop.ts", "src/session/session.ts"];
    for (const file of files) {
      const text = await readFile(join(REPO_ROOT, file), "utf8");
      expect(await countTextTokens(text), file).toBe(exactCount(text));
    }
    for (let seed = 1; seed <= 12; seed++) {
      const text = randomText(4_000 + seed * 1_500, MIXED, seed);
      expect(await countTextTokens(text), `seed ${seed}`).toBe(exactCount(text));
    }
  });

  it("counts special-token text such as <|endoftext|> as plain text instead of failing", async () => {
    const text = "a file that mentions <|endoftext|> and <|im_start|>";
    expect(await countTextTokens(text)).toBe(exactCount(text));
    expect(await truncateToTokens(text, 100)).toBe(text);
  });

  it("counts 5 MB of one repeated character in bounded time, as 320 runs of 16 KB would count", async () => {
    const { value, ms } = await timed(() => countTextTokens("A".repeat(5 * MB)));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(value).toBe(320 * exactCount("A".repeat(16 * 1024)));
  });

  it("counts a 300 KB run of '=' (a line of a read_file range) in bounded time", async () => {
    const { value, ms } = await timed(() => countTextTokens("=".repeat(300 * 1024)));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(value).toBe(75 * exactCount("=".repeat(4 * 1024)));
  });

  it("truncates 5 MB of one character without encoding all of it", async () => {
    const text = "A".repeat(5 * MB);
    const { value: cut, ms } = await timed(() => truncateToTokens(text, 1_000));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(text.startsWith(cut)).toBe(true);
    expect(await countTextTokens(cut)).toBeLessThanOrEqual(1_000);
    expect(cut.length).toBeGreaterThan(7_000);
  });

  it("lets timers and signal handlers run while it counts a large text", async () => {
    const text = randomText(MB / 2, MIXED);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await countTextTokens(text);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});

describe("tokenizerSegments", () => {
  it("gives the text back when joined, without splitting surrogate pairs, and keeps every run bounded", () => {
    const texts = ["", "x", "😀".repeat(10_000), `${"A".repeat(100_000)}b`, " ".repeat(70_000), "1 ".repeat(40_000)];
    texts.push(randomText(60_000, MIXED));
    for (const text of texts) {
      const segments = [...tokenizerSegments(text)];
      expect(segments.join("")).toBe(text);
      for (const segment of segments) {
        expect(segment.length).toBeGreaterThan(0);
        expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(segment)).toBe(false);
        expect(/[^\s\d]{300}|[\s/]{300}/.test(segment)).toBe(false);
      }
    }
  });
});

describe("MessageTokenCounter", () => {
  const messages: Message[] = [
    { role: "system", content: "You are Marvin. ".repeat(30) },
    { role: "user", content: "Summarise the README, please." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"README.md"}' } }],
    },
    { role: "tool", tool_call_id: "c1", content: "# Marvin\nA terminal assistant. ".repeat(20) },
  ];

  it("is exact (tokens plus per-message framing) when asked to be", async () => {
    let expected = 0;
    for (const message of messages) expected += (await countTextTokens(messageText(message))) + 4;
    expect(await new MessageTokenCounter().count(messages, 0)).toBe(expected);
  });

  it("returns a cheap upper bound (UTF-8 bytes) while far below the threshold", async () => {
    const counter = new MessageTokenCounter();
    const bound = await counter.count(messages, 1_000_000);
    const bytes = messages.reduce((sum, message) => sum + Buffer.byteLength(messageText(message)) + 4, 0);
    expect(bound).toBe(bytes);
    // At or above the threshold it switches to the exact count.
    const exact = await counter.count(messages, bytes);
    expect(exact).toBe(await new MessageTokenCounter().count(messages, 0));
    expect(bound).toBeGreaterThanOrEqual(exact);
    // Messages counted once keep their exact count, also in the bound.
    expect(await counter.count(messages, 1_000_000)).toBe(exact);
  });

  it("counts each image a message or tool result carries as 1,600 tokens, exact count and bound alike", async () => {
    const image = { mediaType: "image/png" as const, data: "iVBORw0KGgo=" };
    const withImages: Message[] = [
      { role: "user", content: "Summarise the README, please.", images: [image, image] },
      { role: "tool", tool_call_id: "c1", content: "# Marvin", images: [image] },
    ];
    const plain: Message[] = [
      { role: "user", content: "Summarise the README, please." },
      { role: "tool", tool_call_id: "c1", content: "# Marvin" },
    ];
    const counter = new MessageTokenCounter();
    expect((await counter.count(withImages, 0)) - (await counter.count(plain, 0))).toBe(3 * 1_600);
    expect((await counter.count(withImages, 1_000_000)) - (await counter.count(plain, 1_000_000))).toBe(3 * 1_600);
  });

  it("counts a conversation holding a 5 MB tool-call argument in bounded time", async () => {
    const huge = JSON.stringify({ path: "a.txt", content: "A".repeat(5 * MB) });
    const conversation: Message[] = [
      { role: "user", content: "write it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "create_file", arguments: huge } }],
      },
    ];
    const { value, ms } = await timed(() => new MessageTokenCounter().count(conversation, 0));
    expect(ms).toBeLessThan(BOUNDED_MS);
    expect(value).toBeGreaterThan((5 * MB) / 16);
  });
});
