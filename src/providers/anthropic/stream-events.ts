import { z } from "zod";
import { parseKnownEvent } from "../stream-event.js";

/*
 * The server-sent events of a streamed Messages API response that Marvin reads (Anthropic's "Streaming
 * Messages"): message_start, then per content block a start, deltas and a stop, then message_delta and
 * message_stop; `ping` at any time, `error` in place of the rest. Unknown fields pass; event and block types
 * Anthropic may add later are ignored, as its versioning policy asks of clients.
 */

const count = z.number().int().nonnegative().nullish();

const usage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_read_input_tokens: count,
  cache_creation_input_tokens: count,
});

export type WireUsage = z.infer<typeof usage>;

const index = z.number().int().nonnegative();

const contentBlock = z.looseObject({
  type: z.string(),
  /** tool_use */
  id: z.string().optional(),
  name: z.string().optional(),
  /** text */
  text: z.string().optional(),
  /** thinking */
  thinking: z.string().optional(),
  signature: z.string().optional(),
  /** redacted_thinking */
  data: z.string().optional(),
});

export type WireContentBlock = z.infer<typeof contentBlock>;

const delta = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  partial_json: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
});

const streamEvent = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("message_start"),
    // Metadata Marvin can do without is dropped when odd, rather than failing the answer.
    message: z.looseObject({ model: z.string().nullish().catch(undefined), usage: usage.nullish().catch(undefined) }),
  }),
  z.looseObject({ type: z.literal("content_block_start"), index, content_block: contentBlock }),
  z.looseObject({ type: z.literal("content_block_delta"), index, delta }),
  z.looseObject({ type: z.literal("content_block_stop"), index }),
  z.looseObject({
    type: z.literal("message_delta"),
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: usage.nullish().catch(undefined),
  }),
  z.looseObject({ type: z.literal("message_stop") }),
  z.looseObject({ type: z.literal("ping") }),
  z.looseObject({
    type: z.literal("error"),
    error: z.looseObject({ type: z.string(), message: z.string().optional() }),
  }),
]);

export type StreamEvent = z.infer<typeof streamEvent>;

const KNOWN_TYPES = new Set<string>(streamEvent.options.map((option) => option.shape.type.value));

/** One event's data: the event, `undefined` for a type Marvin does not know, or what is wrong with it. */
export function parseStreamEvent(data: string): { event: StreamEvent } | { problem: string } | undefined {
  return parseKnownEvent(data, streamEvent, KNOWN_TYPES);
}
