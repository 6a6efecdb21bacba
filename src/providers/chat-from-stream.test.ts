import { describe, expect, it } from "vitest";
import { chatFromStream } from "./chat-from-stream.js";
import { ProviderError } from "./provider-error.js";
import type { ChatRequest, ProviderEvent } from "./types.js";

async function* events(...list: ProviderEvent[]): AsyncIterable<ProviderEvent> {
  yield* list;
}

function recordingRequest(seen: string[]): ChatRequest {
  return {
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    onDelta: (text) => seen.push(`text:${text}`),
    onReasoningDelta: (text) => seen.push(`reasoning:${text}`),
    onToolCallStart: (call) => seen.push(`call:${call.name}`),
    onNotice: (text) => seen.push(`notice:${text}`),
  };
}

describe("chatFromStream", () => {
  it("passes deltas to the callbacks in order and resolves with the done response", async () => {
    const seen: string[] = [];
    const response = { content: "Hello", toolCalls: [], model: "m", finishReason: "stop" as const };
    const result = await chatFromStream(
      events(
        { type: "reasoning_delta", text: "hmm" },
        { type: "text_delta", text: "Hel" },
        { type: "tool_call_start", call: { id: "c1", name: "web_search", index: 0 } },
        { type: "text_delta", text: "lo" },
        { type: "notice", text: "cut short" },
        { type: "done", response },
      ),
      recordingRequest(seen),
    );
    expect(seen).toEqual(["reasoning:hmm", "text:Hel", "call:web_search", "text:lo", "notice:cut short"]);
    expect(result).toBe(response);
  });

  it("rejects with the error event's ProviderError", async () => {
    const error = new ProviderError("overloaded", { provider: "openai", kind: "server", partialOutput: true });
    const seen: string[] = [];
    const chat = chatFromStream(
      events({ type: "text_delta", text: "a" }, { type: "error", error }),
      recordingRequest(seen),
    );
    await expect(chat).rejects.toBe(error);
    expect(seen).toEqual(["text:a"]);
  });

  it("rejects when a stream ends without done or error", async () => {
    await expect(chatFromStream(events({ type: "text_delta", text: "a" }), recordingRequest([]))).rejects.toThrow(
      /without a done or error/,
    );
  });
});
