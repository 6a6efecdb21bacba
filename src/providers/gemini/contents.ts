import { z } from "zod";
import type { ImageData } from "../../shared/image.js";
import { argumentsObject } from "../tool-arguments.js";
import { messageText } from "../transcript.js";
import type { Message, ToolCall } from "../types.js";

/** One part of a Gemini content, as sent and as received (only the kinds Marvin uses). */
export type Part = z.infer<typeof partSchema>;

export const partSchema = z.looseObject({
  text: z.string().optional(),
  /** A thought summary (reasoning), not part of the answer. */
  thought: z.boolean().optional(),
  /** Opaque: sent back exactly as received, on the part it came with. */
  thoughtSignature: z.string().optional(),
  functionCall: z
    .looseObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() })
    .optional(),
});

interface FunctionResponsePart {
  functionResponse: { name: string; response: { output: string }; id?: string };
}

interface InlineDataPart {
  inlineData: { mimeType: string; data: string };
}

export interface Content {
  role: "user" | "model";
  parts: Array<Part | FunctionResponsePart | InlineDataPart>;
}

function inlineParts(images: readonly ImageData[] | undefined): InlineDataPart[] {
  return (images ?? []).map((image) => ({ inlineData: { mimeType: image.mediaType, data: image.data } }));
}

/** The model's parts of an answer, kept in the assistant message's replay data: signatures live on them. */
const replayParts = z.array(partSchema);

/**
 * The parts Gemini sent for this assistant message, when they are still what the message says (same calls in
 * the same order): sending them back unchanged returns every thought signature where it came.
 */
function keptParts(message: Extract<Message, { role: "assistant" }>): Part[] | undefined {
  if (message.replay?.provider !== "gemini") return undefined;
  const parsed = replayParts.safeParse(message.replay.items);
  if (!parsed.success) return undefined;
  const kept = parsed.data.flatMap((part) => (part.functionCall ? [part.functionCall.name] : []));
  const calls = (message.tool_calls ?? []).map((call) => call.function.name);
  return kept.join("\n") === calls.join("\n") ? parsed.data : undefined;
}

function modelParts(message: Extract<Message, { role: "assistant" }>): Part[] {
  const kept = keptParts(message);
  if (kept) return kept;
  const parts: Part[] = message.content ? [{ text: message.content }] : [];
  for (const call of message.tool_calls ?? []) {
    parts.push({ functionCall: { name: call.function.name, args: argumentsObject(call) } });
  }
  return parts;
}

/** Adds parts to the last content when it has the same role (Gemini wants user and model turns to alternate). */
function append(contents: Content[], role: Content["role"], parts: Content["parts"]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

/**
 * Marvin's messages as a Gemini request: the first system message becomes `systemInstruction`, later ones
 * (round-limit notes) user text; assistant messages become model contents, with their function calls; tool
 * results become `functionResponse` parts naming their function, consecutive ones in one user content; images
 * become `inlineData` parts, after the text or the function response they belong to.
 */
export function toContents(messages: readonly Message[]): {
  systemInstruction?: { parts: Part[] };
  contents: Content[];
} {
  const contents: Content[] = [];
  let systemInstruction: { parts: Part[] } | undefined;
  const callsById = new Map<string, ToolCall>();
  /** Ids Gemini gave its calls itself: their responses must carry them back. */
  const geminiIds = new Set<string>();
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (!systemInstruction && contents.length === 0) systemInstruction = { parts: [{ text: message.content }] };
        else append(contents, "user", [{ text: message.content }]);
        break;
      case "user":
        append(contents, "user", [{ text: messageText(message) }, ...inlineParts(message.images)]);
        break;
      case "assistant": {
        for (const call of message.tool_calls ?? []) callsById.set(call.id, call);
        const parts = modelParts(message);
        for (const part of parts) if (part.functionCall?.id) geminiIds.add(part.functionCall.id);
        append(contents, "model", parts);
        break;
      }
      case "tool": {
        const id = message.tool_call_id;
        const response: FunctionResponsePart = {
          functionResponse: {
            name: callsById.get(id)?.function.name ?? "unknown_function",
            response: { output: message.content },
            ...(geminiIds.has(id) ? { id } : {}),
          },
        };
        append(contents, "user", [response, ...inlineParts(message.images)]);
        break;
      }
    }
  }
  return { ...(systemInstruction ? { systemInstruction } : {}), contents };
}
