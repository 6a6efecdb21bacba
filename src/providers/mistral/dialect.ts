import type { CompletionsDialect } from "../chat-completions/dialect.js";
import { withMistralToolCallIds } from "./tool-call-ids.js";

/**
 * Mistral's chat completions: usage comes in the last chunk unasked (it refuses `stream_options` as an extra input),
 * its models take no `reasoning_effort` (Magistral always reasons), and tool-call ids are nine letters and digits.
 */
export const mistralDialect: CompletionsDialect = {
  streamOptions: false,
  reasoning: () => undefined,
  messages: withMistralToolCallIds,
};
