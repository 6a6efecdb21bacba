import { ProviderError } from "../provider-error.js";
import type { ChatRequest, Message } from "../types.js";

/** Marvin's system message (the first `system` entry), if the request has one. */
export function systemMessageOf(messages: readonly Message[]): string | undefined {
  const system = messages.find((message) => message.role === "system");
  return system?.content;
}

/** The SDK session keeps its own history, so only the newest user message is sent. */
export function lastUserPrompt(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return message.content;
  }
  throw new ProviderError("The request to Copilot has no user message to send.", {
    provider: "copilot",
    kind: "bad_request",
  });
}

export function toolNamesOf(request: ChatRequest): string[] {
  return request.tools.map((tool) => tool.function.name);
}

/**
 * What a session is built from. A request whose key differs from the live session's key
 * (another tool set after a mode switch, or a changed system message) gets a new session.
 */
export function sessionKeyOf(request: ChatRequest): string {
  const toolNames = [...toolNamesOf(request)].sort().join(",");
  return `${toolNames}\u0000${systemMessageOf(request.messages) ?? ""}`;
}
