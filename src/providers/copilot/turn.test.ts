import type { SessionEvent } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { collect } from "../../../tests/support/provider-stream.js";
import type { LLMResponse } from "../types.js";
import { CopilotTurn } from "./turn.js";

let sequence = 0;

/** A session event as the Copilot runtime delivers it to the session listener. */
function sessionEvent<Type extends SessionEvent["type"]>(
  type: Type,
  data: Extract<SessionEvent, { type: Type }>["data"],
  agentId?: string,
): SessionEvent {
  sequence += 1;
  const timestamp = new Date(0).toISOString();
  return { id: `event-${sequence}`, parentId: null, timestamp, ephemeral: true, type, data, agentId } as SessionEvent;
}

/** The events of the turn's current round, as text, and the answer it ended with. */
async function roundOf(turn: CopilotTurn): Promise<{ log: string[]; response?: LLMResponse }> {
  const { events, response } = await collect(turn.events());
  const log = events.flatMap((event) => {
    if (event.type === "text_delta") return [`text ${event.text}`];
    if (event.type === "reasoning_delta") return [`reasoning ${event.text}`];
    if (event.type === "tool_call_start") return [`tool ${event.call.index} ${event.call.id} ${event.call.name}`];
    return [];
  });
  return { log, response };
}

describe("CopilotTurn", () => {
  it("passes reasoning on as it streams and names each tool call once, from its first argument delta", async () => {
    const turn = new CopilotTurn("claude-haiku-4.5", true);
    turn.handle(sessionEvent("assistant.reasoning_delta", { reasoningId: "r1", deltaContent: "Reading " }));
    turn.handle(sessionEvent("assistant.reasoning_delta", { reasoningId: "r1", deltaContent: "the file." }));
    const argumentDelta = (inputDelta: string, toolName?: string) =>
      sessionEvent("assistant.tool_call_delta", { toolCallId: "tc1", toolName, inputDelta });
    turn.handle(argumentDelta(""));
    turn.handle(argumentDelta('{"pa', "read_file"));
    turn.handle(argumentDelta('th":"a"}', "read_file"));
    turn.handle(
      sessionEvent("assistant.message", {
        messageId: "m1",
        content: "",
        toolRequests: [
          { toolCallId: "tc1", name: "read_file", arguments: { path: "a" } },
          { toolCallId: "tc2", name: "tree", arguments: {} },
        ],
      }),
    );
    turn.handle(sessionEvent("assistant.message_delta", { messageId: "m2", deltaContent: "Done." }));
    turn.handle(sessionEvent("session.idle", {}));
    const { log, response } = await roundOf(turn);
    expect(log).toEqual([
      "reasoning Reading ",
      "reasoning the file.",
      "tool 0 tc1 read_file",
      "tool 1 tc2 tree",
      "text Done.",
    ]);
    expect(response).toMatchObject({ content: "Done.", reasoning: "Reading the file." });
  });

  it("leaves a sub-agent's tool calls out", async () => {
    const turn = new CopilotTurn("claude-haiku-4.5", true);
    turn.handle(
      sessionEvent("assistant.tool_call_delta", { toolCallId: "sub", toolName: "tree", inputDelta: "{}" }, "helper"),
    );
    turn.handle(sessionEvent("session.idle", {}));
    expect((await roundOf(turn)).log).toEqual([]);
  });

  it("ends a round with the calls the runtime asks for together, then hands it their results", async () => {
    const turn = new CopilotTurn("claude-haiku-4.5", true);
    turn.handle(sessionEvent("assistant.message_delta", { messageId: "m1", deltaContent: "Let me look." }));
    const read = turn.requestTool("tc1", "read_file", { path: "a", lines: [1, 2] });
    const tree = turn.requestTool("tc2", "tree", undefined);
    const first = await roundOf(turn);
    expect(first.log).toEqual(["text Let me look.", "tool 0 tc1 read_file", "tool 1 tc2 tree"]);
    expect(first.response).toMatchObject({ content: "Let me look.", finishReason: "tool_calls" });
    // The loop runs the tool with the value the SDK decoded; the text is only the transcript's.
    expect(first.response!.toolCalls).toEqual([
      {
        id: "tc1",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"a","lines":[1,2]}' },
        input: { path: "a", lines: [1, 2] },
      },
      { id: "tc2", type: "function", function: { name: "tree", arguments: "{}" }, input: {} },
    ]);
    expect(turn.awaitedCallIds).toEqual(["tc1", "tc2"]);
    expect(turn.resume(new Map([["tc1", "contents of a"]]), true)).toBe(false);
    expect(
      turn.resume(
        new Map([
          ["tc1", "contents of a"],
          ["tc2", "a/ b/"],
        ]),
        true,
      ),
    ).toBe(true);
    expect(await Promise.all([read, tree])).toEqual(["contents of a", "a/ b/"]);
    turn.handle(sessionEvent("assistant.message_delta", { messageId: "m2", deltaContent: "Found it." }));
    turn.handle(sessionEvent("assistant.usage", { model: "claude-haiku-4.5", inputTokens: 30, outputTokens: 5 }));
    turn.handle(sessionEvent("session.idle", {}));
    const second = await roundOf(turn);
    expect(second.log).toEqual(["text \n\n", "text Found it."]);
    expect(second.response).toMatchObject({ content: "\n\nFound it.", finishReason: "stop", toolCalls: [] });
    expect(second.response!.usage).toMatchObject({ promptTokens: 30, completionTokens: 5 });
  });

  it("refuses the runtime's calls at once when the request offers no tools", async () => {
    const turn = new CopilotTurn("claude-haiku-4.5", false);
    expect(await turn.requestTool("tc1", "tree", {})).toEqual({
      textResultForLlm: "Tool tree was not run: no tools may run now. Answer with what you have.",
      resultType: "failure",
    });
    expect(turn.awaitedCallIds).toEqual([]);
  });
});
