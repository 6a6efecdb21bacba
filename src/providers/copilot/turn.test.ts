import type { SessionEvent } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../types.js";
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

function listeningTurn(log: string[]): CopilotTurn {
  const request: ChatRequest = {
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    onDelta: (text) => log.push(`text ${text}`),
    onReasoningDelta: (text) => log.push(`reasoning ${text}`),
    onToolCallStart: (call) => log.push(`tool ${call.index} ${call.id} ${call.name}`),
  };
  return new CopilotTurn(request, "claude-haiku-4.5");
}

describe("CopilotTurn", () => {
  it("passes reasoning on as it streams and names each tool call once, from its first argument delta", async () => {
    const log: string[] = [];
    const turn = listeningTurn(log);
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
    const response = await turn.done;
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
    const log: string[] = [];
    const turn = listeningTurn(log);
    turn.handle(
      sessionEvent("assistant.tool_call_delta", { toolCallId: "sub", toolName: "tree", inputDelta: "{}" }, "helper"),
    );
    turn.handle(sessionEvent("session.idle", {}));
    await turn.done;
    expect(log).toEqual([]);
  });
});
