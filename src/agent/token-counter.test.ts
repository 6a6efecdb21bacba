import { describe, expect, it } from "vitest";
import type { Message } from "../providers/types.js";
import { countTextTokens, MessageTokenCounter, messageText, truncateToTokens } from "./token-counter.js";

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
});

describe("messageText", () => {
  it("includes tool-call names and arguments of assistant messages", () => {
    const message: Message = { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }] };
    expect(messageText(message)).toBe('read_file{"path":"a"}');
    expect(messageText({ role: "tool", tool_call_id: "1", content: "body" })).toBe("body");
  });
});

describe("MessageTokenCounter", () => {
  const messages: Message[] = [
    { role: "system", content: "You are Marvin. ".repeat(30) },
    { role: "user", content: "Summarise the README, please." },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"README.md"}' } }] },
    { role: "tool", tool_call_id: "c1", content: "# Marvin\nA terminal assistant. ".repeat(20) },
  ];

  it("is exact (tokens plus per-message framing) when asked to be", async () => {
    let expected = 0;
    for (const message of messages) expected += (await countTextTokens(messageText(message))) + 4;
    expect(await new MessageTokenCounter().count(messages, 0)).toBe(expected);
  });

  it("returns a cheap upper bound (UTF-8 bytes) while far below the threshold", async () => {
    const counter = new MessageTokenCounter();
    const exact = await counter.count(messages, 0);
    const bound = await counter.count(messages, 1_000_000);
    const bytes = messages.reduce((sum, message) => sum + Buffer.byteLength(messageText(message)) + 4, 0);
    expect(bound).toBe(bytes);
    expect(bound).toBeGreaterThanOrEqual(exact);
    // At or above the threshold it switches to the exact count.
    expect(await counter.count(messages, bytes)).toBe(exact);
  });
});
