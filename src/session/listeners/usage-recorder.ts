import type { AgentEventListener } from "../../agent/events.js";
import type { UsageTracker } from "../../state/usage.js";

/** Adds every LLM call and tool call the session reports to its usage tracker. */
export function usageRecorder(usage: UsageTracker): AgentEventListener {
  return (event) => {
    if (event.type === "usage") {
      usage.recordLLMCall(event);
    }
    if (event.type === "tool_end") usage.recordToolCall(event.name);
  };
}
