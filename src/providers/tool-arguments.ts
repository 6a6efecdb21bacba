import type { ToolCall } from "./types.js";

/**
 * A call's JSON arguments as the object APIs that take arguments as objects expect (Gemini, Ollama); anything
 * that is not a JSON object is passed as `{ value }`, so nothing the model wrote is lost.
 */
export function argumentsObject(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || "{}");
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return { value: parsed };
  } catch {
    return { value: call.function.arguments };
  }
}
