import { describe, expect, it } from "vitest";
import { messageText, transcriptOf } from "./transcript.js";
import type { Message } from "./types.js";

describe("messageText", () => {
  it("includes tool-call names and arguments of assistant messages", () => {
    const call = { id: "1", type: "function" as const, function: { name: "read_file", arguments: '{"path":"a"}' } };
    const message: Message = { role: "assistant", content: null, tool_calls: [call] };
    expect(messageText(message)).toBe('read_file{"path":"a"}');
    expect(messageText({ role: "tool", tool_call_id: "1", content: "body" })).toBe("body");
  });
});

describe("transcriptOf", () => {
  it("writes role: text blocks and cuts long tool results", () => {
    const transcript = transcriptOf([
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: "1", content: "x".repeat(3_000) },
    ]);
    expect(transcript.startsWith("user: hi\n\ntool: xxx")).toBe(true);
    expect(transcript.endsWith(" […]")).toBe(true);
    expect(transcript.length).toBeLessThan(2_100);
  });
});
