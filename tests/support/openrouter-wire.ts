import type { RecordedRequest, Script } from "./llm-server.js";

/*
 * OpenRouter's chat completions as it streams them, for scripting the local LLM server: `: OPENROUTER PROCESSING`
 * comment lines while the model's provider starts, chunks naming that provider, the finishing chunk, and then a last
 * chunk with the usage and what the request cost (usage accounting), before `[DONE]`.
 */

interface OpenRouterAnswer {
  text?: string;
  reasoning?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  usage?: { prompt: number; completion: number; cached?: number; cost: number };
}

const PROCESSING = ": OPENROUTER PROCESSING\n\n";

function sse(request: RecordedRequest, choice: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const chunk = {
    id: "gen-1760000000-Q2mXw8TnEo0ddQ4bYv1L",
    provider: "Anthropic",
    model: request.body.model,
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    choices: [{ index: 0, logprobs: null, native_finish_reason: choice.finish_reason ?? null, ...choice }],
    ...extra,
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** One scripted OpenRouter answer. */
export function openRouterAnswer(answer: OpenRouterAnswer): Script {
  return (request) => {
    const parts = [PROCESSING, PROCESSING, sse(request, { delta: { role: "assistant", content: "" } })];
    if (answer.reasoning)
      parts.push(sse(request, { delta: { role: "assistant", content: "", reasoning: answer.reasoning } }));
    for (const word of (answer.text ?? "").match(/\S+\s*/g) ?? []) {
      parts.push(sse(request, { delta: { role: "assistant", content: word }, finish_reason: null }), PROCESSING);
    }
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      const start = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
      const rest = { index, type: "function", function: { arguments: JSON.stringify(call.arguments) } };
      parts.push(
        sse(request, { delta: { role: "assistant", content: null, tool_calls: [start] }, finish_reason: null }),
      );
      parts.push(
        sse(request, { delta: { role: "assistant", content: null, tool_calls: [rest] }, finish_reason: null }),
      );
    }
    const finish = answer.toolCalls?.length ? "tool_calls" : "stop";
    parts.push(sse(request, { delta: { role: "assistant", content: "" }, finish_reason: finish }));
    if (answer.usage) {
      const { prompt, completion, cached = 0, cost } = answer.usage;
      const usage = {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        cost,
        is_byok: false,
        prompt_tokens_details: { cached_tokens: cached },
        cost_details: { upstream_inference_cost: null },
        completion_tokens_details: { reasoning_tokens: 0 },
      };
      parts.push(sse(request, { delta: { role: "assistant", content: "" }, finish_reason: null }, { usage }));
    }
    return { rawSse: `${parts.join("")}data: [DONE]\n\n` };
  };
}

/** OpenRouter's error answers, as its API sends them. */
export const OPENROUTER_ERRORS = {
  noCredits: {
    status: 402,
    body: {
      error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits" },
    },
  },
  unknownModel: {
    status: 400,
    body: { error: { code: 400, message: "anthropic/claude-sonnet-9 is not a valid model ID" }, user_id: "user_2x" },
  },
  upstream: {
    status: 502,
    body: {
      error: {
        code: 502,
        message: "Provider returned error",
        metadata: {
          raw: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
          provider_name: "Anthropic",
        },
      },
    },
  },
};
