import type { ImageData } from "../../shared/image.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import { messageText } from "../transcript.js";
import type { ChatRequest, Message, ToolCall } from "../types.js";
import { replayedBlocks, type ThinkingBlock } from "./replay.js";
import { type ThinkingFields, thinkingFields } from "./thinking.js";

/*
 * A Messages API request from Marvin's OpenAI-style conversation: the system message goes to the top-level
 * `system`, tool calls become `tool_use` blocks (after the answer's thinking blocks), tool results become
 * `tool_result` blocks of one user turn, images `image` blocks (in a tool result's content too), and four
 * `cache_control` breakpoints let every request read the prefix the previous one wrote.
 */

interface CacheControl {
  type: "ephemeral";
}

interface TextBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}

interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

interface ImageBlock {
  type: "image";
  source: { type: "base64"; media_type: ImageData["mediaType"]; data: string };
  cache_control?: CacheControl;
}

interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock>;
  cache_control?: CacheControl;
}

type UserBlock = TextBlock | ImageBlock | ToolResultBlock;
type AssistantBlock = ThinkingBlock | TextBlock | ToolUseBlock;

type WireMessage = { role: "user"; content: UserBlock[] } | { role: "assistant"; content: AssistantBlock[] };

interface WireTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

type MessagesRequest = ThinkingFields & {
  model: string;
  stream: true;
  system?: TextBlock[];
  messages: WireMessage[];
  tools?: WireTool[];
};

const CACHED: CacheControl = { type: "ephemeral" };

/** Ids Anthropic accepts (`^[a-zA-Z0-9_-]+$`); calls another provider made may carry others. */
function wireId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_") || "call";
}

function textBlocks(text: string | null): TextBlock[] {
  // The API refuses empty text blocks.
  return text ? [{ type: "text", text }] : [];
}

function imageBlocks(images: readonly ImageData[] | undefined): ImageBlock[] {
  return (images ?? []).map((image) => ({
    type: "image",
    source: { type: "base64", media_type: image.mediaType, data: image.data },
  }));
}

function toolResult(message: Extract<Message, { role: "tool" }>): ToolResultBlock {
  const id = wireId(message.tool_call_id);
  if (!message.images?.length) return { type: "tool_result", tool_use_id: id, content: message.content };
  return {
    type: "tool_result",
    tool_use_id: id,
    content: [...textBlocks(message.content), ...imageBlocks(message.images)],
  };
}

/** A call's arguments as the object `tool_use.input` must be (a call with unreadable arguments sends none). */
function toolInput(argumentsJson: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // falls through to no arguments
  }
  return {};
}

function toolUse(call: ToolCall): ToolUseBlock {
  return { type: "tool_use", id: wireId(call.id), name: call.function.name, input: toolInput(call.function.arguments) };
}

/** Appends blocks to the conversation, into the last turn when it has the same role (the API alternates roles). */
function append(turns: WireMessage[], turn: WireMessage): void {
  if (turn.content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === "user" && turn.role === "user") last.content.push(...turn.content);
  else if (last?.role === "assistant" && turn.role === "assistant") last.content.push(...turn.content);
  else turns.push(turn);
}

/**
 * The system messages before the conversation (Marvin's own, a compaction summary) become the top-level `system`;
 * a later one (the round-limit note) is said in the user turn where it stands, so the cached prefix stays valid.
 */
function conversation(messages: readonly Message[], model: string): { system: TextBlock[]; turns: WireMessage[] } {
  const system: TextBlock[] = [];
  const turns: WireMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (turns.length === 0) system.push(...textBlocks(message.content));
        else append(turns, { role: "user", content: textBlocks(`<system-note>\n${message.content}\n</system-note>`) });
        break;
      case "user":
        append(turns, { role: "user", content: [...imageBlocks(message.images), ...textBlocks(messageText(message))] });
        break;
      case "assistant":
        append(turns, {
          role: "assistant",
          content: [
            ...replayedBlocks(message, model),
            ...textBlocks(message.content),
            ...(message.tool_calls ?? []).map(toolUse),
          ],
        });
        break;
      case "tool":
        append(turns, { role: "user", content: [toolResult(message)] });
        break;
    }
  }
  return { system, turns };
}

function wireTool(tool: ToolSchema): WireTool {
  const { name, description, parameters } = tool.function;
  return { name, description, input_schema: parameters };
}

/**
 * Four breakpoints, the most the API allows: the tool list, the system prompt, and the last two user turns —
 * the newest writes the conversation to the cache, the one before reads what the previous request wrote.
 */
function markCacheBreakpoints(tools: WireTool[], system: TextBlock[], turns: WireMessage[]): void {
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = CACHED;
  const lastSystem = system.at(-1);
  if (lastSystem) lastSystem.cache_control = CACHED;
  const userTurns = turns.filter((turn) => turn.role === "user");
  for (const turn of userTurns.slice(-2)) {
    const lastBlock = turn.content.at(-1);
    if (lastBlock) lastBlock.cache_control = CACHED;
  }
}

/** The body of `POST /v1/messages` for `request`, streamed. */
export function messagesRequest(model: string, request: ChatRequest): MessagesRequest {
  const { system, turns } = conversation(request.messages, model);
  const tools = request.tools.map(wireTool);
  markCacheBreakpoints(tools, system, turns);
  return {
    model,
    ...thinkingFields(model, request.thinking),
    stream: true,
    ...(system.length > 0 ? { system } : {}),
    messages: turns,
    ...(tools.length > 0 ? { tools } : {}),
  };
}
