import { z } from "zod";

/** Any value, or none: checked later, as part of the equivalent stream chunk. */
const anything = z.unknown().optional();

/** The shape of a chat completion. */
const completionSchema = z.looseObject({
  model: anything,
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: anything,
          reasoning_content: anything,
          reasoning: anything,
          tool_calls: z.array(z.looseObject({ id: anything, function: anything })).nullish(),
        }),
        finish_reason: anything,
      }),
    )
    .min(1),
  usage: anything,
});

/**
 * Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON completion.
 * Returns it as the single equivalent stream chunk (validated like any other), or undefined
 * when it is not a completion.
 */
export function completionAsChunk(body: unknown): unknown {
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const completion = parsed.data;
  const [choice] = completion.choices as [(typeof completion.choices)[number]];
  const { content, reasoning_content, reasoning, tool_calls } = choice.message;
  const fragments = tool_calls?.map((call, index) => ({ index, id: call.id, function: call.function }));
  return {
    model: completion.model,
    choices: [
      {
        index: 0,
        delta: { content, reasoning_content, reasoning, tool_calls: fragments },
        finish_reason: choice.finish_reason ?? "stop",
      },
    ],
    usage: completion.usage,
  };
}
