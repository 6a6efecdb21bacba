import { z } from "zod";
import { parseKnownEvent } from "../stream-event.js";

/*
 * The server-sent events of a streamed Responses API answer that Marvin reads (OpenAI's "Streaming events"):
 * response.created, then per output item (reasoning, message, function_call) `response.output_item.added`, its
 * deltas and `response.output_item.done`, then one of response.completed, response.incomplete or response.failed;
 * an `error` event in place of the rest. Unknown fields pass; the many other event types (content parts, summary
 * parts, annotations, hosted tools) are not needed and are skipped.
 */

const count = z.number().int().nonnegative().nullish();

const usage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count }).nullish().catch(undefined),
});

export type WireUsage = z.infer<typeof usage>;

const summaryPart = z.looseObject({ type: z.string(), text: z.string() });

const outputItem = z.looseObject({
  type: z.string(),
  id: z.string().nullish(),
  /** function_call */
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  /** reasoning */
  summary: z.array(summaryPart).nullish(),
  encrypted_content: z.string().nullish(),
  /** message: its parts, `output_text` and `refusal` */
  content: z
    .array(z.looseObject({ type: z.string(), text: z.string().nullish(), refusal: z.string().nullish() }))
    .nullish(),
});

export type WireOutputItem = z.infer<typeof outputItem>;

const error = z.looseObject({ code: z.string().nullish(), message: z.string().nullish() });

export type WireError = z.infer<typeof error>;

/** The response object the first and the last events carry; only what Marvin reads. */
const response = z.looseObject({
  // Metadata Marvin can do without is dropped when odd, rather than failing the answer.
  model: z.string().nullish().catch(undefined),
  usage: usage.nullish().catch(undefined),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish().catch(undefined),
  error: error.nullish(),
});

const outputIndex = z.number().int().nonnegative();
const delta = z.string();

const streamEvent = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("response.created"), response }),
  z.looseObject({ type: z.literal("response.output_item.added"), output_index: outputIndex, item: outputItem }),
  z.looseObject({ type: z.literal("response.output_item.done"), output_index: outputIndex, item: outputItem }),
  z.looseObject({ type: z.literal("response.output_text.delta"), output_index: outputIndex, delta }),
  z.looseObject({ type: z.literal("response.refusal.delta"), output_index: outputIndex, delta }),
  z.looseObject({ type: z.literal("response.function_call_arguments.delta"), output_index: outputIndex, delta }),
  z.looseObject({
    type: z.literal("response.function_call_arguments.done"),
    output_index: outputIndex,
    arguments: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.reasoning_summary_text.delta"),
    output_index: outputIndex,
    summary_index: z.number().int().nonnegative().nullish(),
    delta,
  }),
  /** Raw reasoning text, from the open-weight models some Responses servers run. */
  z.looseObject({ type: z.literal("response.reasoning_text.delta"), output_index: outputIndex, delta }),
  z.looseObject({ type: z.literal("response.completed"), response }),
  z.looseObject({ type: z.literal("response.incomplete"), response }),
  z.looseObject({ type: z.literal("response.failed"), response }),
  z.looseObject({ type: z.literal("error"), code: z.string().nullish(), message: z.string().nullish() }),
]);

export type StreamEvent = z.infer<typeof streamEvent>;

const KNOWN_TYPES = new Set<string>(streamEvent.options.map((option) => option.shape.type.value));

/** One event's data: the event, `undefined` for a type Marvin skips, or what is wrong with it. */
export function parseStreamEvent(data: string): { event: StreamEvent } | { problem: string } | undefined {
  return parseKnownEvent(data, streamEvent, KNOWN_TYPES);
}
