import type { RecordedRequest, Script, ScriptedReply } from "./llm-server.js";

/*
 * Mistral's chat completions as its API answers them, for scripting the local LLM server: usage comes unasked in
 * the chunk that finishes, each tool call arrives whole with a nine-character id, and a request carrying what
 * Mistral refuses (an input it does not know, a tool-call id of another shape) gets Mistral's own error answer.
 */

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

interface MistralAnswer {
  text?: string;
  /** Magistral's reasoning: the content then comes as `thinking` and `text` parts instead of a string. */
  thinking?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  usage?: { prompt: number; completion: number };
}

/** The answer Mistral gives a request it refuses, or undefined for one it takes. */
function refusal(request: RecordedRequest): ScriptedReply | undefined {
  const extra = ["stream_options", "reasoning_effort", "prompt_cache_key"].find((field) => field in request.body);
  if (extra) {
    const detail = [{ type: "extra_forbidden", loc: ["body", extra], msg: "Extra inputs are not permitted" }];
    const body = { object: "error", message: { detail }, type: "invalid_request_error", param: null, code: null };
    return { status: 422, body };
  }
  for (const message of request.body.messages) {
    const ids = [...(message.tool_calls ?? []).map((call) => call.id), message.tool_call_id ?? "ABCDEFGHI"];
    const bad = ids.find((id) => !MISTRAL_ID.test(id));
    if (bad === undefined) continue;
    const said = `Tool call id was ${bad} but must be a-z, A-Z, 0-9, with a length of 9.`;
    return { status: 400, body: { object: "error", message: said, type: "invalid_request_error", param: null } };
  }
  return undefined;
}

function sse(model: string, choice: Record<string, unknown>, usage?: MistralAnswer["usage"]): string {
  const chunk = {
    id: "cmpl-e0b7a1c5d3f94e0c9a3b",
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model,
    choices: [{ index: 0, ...choice }],
    ...(usage
      ? {
          usage: {
            prompt_tokens: usage.prompt,
            total_tokens: usage.prompt + usage.completion,
            completion_tokens: usage.completion,
          },
        }
      : {}),
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** One scripted Mistral answer: Mistral's error when the request is one it refuses. */
export function mistralAnswer(answer: MistralAnswer): Script {
  return (request) => {
    const refused = refusal(request);
    if (refused) return refused;
    const model = request.body.model;
    const parts = [sse(model, { delta: { role: "assistant", content: "" }, finish_reason: null })];
    for (const word of (answer.thinking ?? "").match(/\S+\s*/g) ?? []) {
      const content = [{ type: "thinking", thinking: [{ type: "text", text: word }] }];
      parts.push(sse(model, { delta: { content }, finish_reason: null }));
    }
    for (const word of (answer.text ?? "").match(/\S+\s*/g) ?? []) {
      const content = answer.thinking ? [{ type: "text", text: word }] : word;
      parts.push(sse(model, { delta: { content }, finish_reason: null }));
    }
    const calls = (answer.toolCalls ?? []).map((call, index) => ({
      id: call.id,
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      index,
    }));
    const finish = calls.length ? "tool_calls" : "stop";
    parts.push(
      sse(
        model,
        { delta: calls.length ? { tool_calls: calls } : { content: "" }, finish_reason: finish },
        answer.usage,
      ),
    );
    return { rawSse: `${parts.join("")}data: [DONE]\n\n` };
  };
}
