import { imageDataUrl } from "../../shared/image.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import { toolImagesAsUserMessages } from "../tool-images.js";
import { messageText } from "../transcript.js";
import type { ChatRequest, Message } from "../types.js";
import { type ReasoningFields, reasoningFields } from "./reasoning.js";
import { type ReasoningItem, type ResponsesProviderName, replayedItems } from "./replay.js";

/*
 * A Responses API request from Marvin's OpenAI-style conversation: the system messages in front go to `instructions`,
 * every message becomes an input item — an answer as its reasoning items, its text and its function calls, a tool
 * result as a `function_call_output` (its images follow in a user message) — and nothing is stored on OpenAI's
 * side (`store: false`).
 */

type UserPart = { type: "input_text"; text: string } | { type: "input_image"; image_url: string };

type InputItem =
  | { role: "user" | "developer"; content: string }
  | { role: "user"; content: UserPart[] }
  | { type: "message"; role: "assistant"; content: Array<{ type: "output_text"; text: string }> }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string }
  | ReasoningItem;

interface WireTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
}

type ResponsesRequest = ReasoningFields & {
  model: string;
  instructions?: string;
  input: InputItem[];
  tools?: WireTool[];
  stream: true;
  store: false;
  prompt_cache_key?: string;
};

function userItem(message: Extract<Message, { role: "user" }>): InputItem {
  const text = messageText(message);
  if (!message.images?.length) return { role: "user", content: text };
  const images = message.images.map((image): UserPart => ({ type: "input_image", image_url: imageDataUrl(image) }));
  return { role: "user", content: [{ type: "input_text", text }, ...images] };
}

function answerItems(
  message: Extract<Message, { role: "assistant" }>,
  model: string,
  provider: ResponsesProviderName,
): InputItem[] {
  const text: InputItem[] = message.content
    ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text: message.content }] }]
    : [];
  const calls = (message.tool_calls ?? []).map(
    (call): InputItem => ({
      type: "function_call",
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    }),
  );
  return [...replayedItems(provider, message, model), ...text, ...calls];
}

/**
 * The system messages before the conversation (Marvin's own, a compaction summary) become `instructions`; a later
 * one (the round-limit note) is a developer message where it stands, so the cached prefix stays valid.
 */
function conversation(
  messages: readonly Message[],
  model: string,
  provider: ResponsesProviderName,
): { instructions: string[]; input: InputItem[] } {
  const instructions: string[] = [];
  const input: InputItem[] = [];
  for (const message of toolImagesAsUserMessages(messages)) {
    switch (message.role) {
      case "system":
        if (input.length === 0) instructions.push(message.content);
        else input.push({ role: "developer", content: message.content });
        break;
      case "user":
        input.push(userItem(message));
        break;
      case "assistant":
        input.push(...answerItems(message, model, provider));
        break;
      case "tool":
        input.push({ type: "function_call_output", call_id: message.tool_call_id, output: message.content });
        break;
    }
  }
  return { instructions, input };
}

function wireTool(tool: ToolSchema): WireTool {
  const { name, description, parameters } = tool.function;
  return { type: "function", name, description, parameters, strict: false };
}

/** The body of `POST /responses` for `request`, streamed, sent by `provider` (whose kept reasoning goes back). */
export function responsesRequest(
  model: string,
  request: ChatRequest,
  provider: ResponsesProviderName = "openai",
): ResponsesRequest {
  const { instructions, input } = conversation(request.messages, model, provider);
  return {
    model,
    ...(instructions.length > 0 ? { instructions: instructions.join("\n\n") } : {}),
    input,
    ...(request.tools.length > 0 ? { tools: request.tools.map(wireTool) } : {}),
    ...reasoningFields(model, request.thinking),
    stream: true,
    store: false,
    ...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
  };
}
