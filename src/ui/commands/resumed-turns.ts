import type { Message } from "../../providers/types.js";
import { countsAsMessage } from "../../session/saved-sessions/session-file.js";
import { argumentsValue, decodeToolArguments } from "../../shared/tool-arguments.js";
import { toolCallLabel } from "../tool-call-text.js";

/** One step of a resumed conversation, as the UIs show it. */
export type ResumedStep =
  | { kind: "you"; text: string }
  | { kind: "assistant"; text: string }
  /** A tool call: `arguments` as the model sent them (JSON), `label` its name and key arguments, `result` its answer. */
  | { kind: "tool"; name: string; arguments: string; label: string; result: string };

/** The end of a resumed conversation to show again, so the person sees where it stopped. */
export interface ResumedTurns {
  steps: ResumedStep[];
  /** Earlier messages left out, as `sessions` counts them. */
  hidden: number;
}

/** Room to fill: about two screens, in lines of this width. */
export interface ScreenRoom {
  rows: number;
  columns: number;
}

interface Turn {
  /** Index of its first message. */
  start: number;
  steps: ResumedStep[];
}

/** A user message's words, and a mark for the images that went with them. */
function withImages(message: Extract<Message, { role: "user" }>): string {
  const count = message.images?.length ?? 0;
  return count === 0 ? message.content : `${message.content} [${count} image${count === 1 ? "" : "s"}]`;
}

/** The conversation's turns: a user message and what followed it. */
function turnsOf(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === "tool") results.set(message.tool_call_id, message.content);
  for (const [index, message] of messages.entries()) {
    if (message.role === "user") turns.push({ start: index, steps: [{ kind: "you", text: withImages(message) }] });
    if (message.role !== "assistant") continue;
    if (turns.length === 0) turns.push({ start: index, steps: [] });
    const { steps } = turns.at(-1)!;
    if (message.content?.trim()) steps.push({ kind: "assistant", text: message.content });
    for (const call of message.tool_calls ?? []) {
      const { name, arguments: json } = call.function;
      const label = toolCallLabel(name, argumentsValue(decodeToolArguments(json)));
      steps.push({ kind: "tool", name, arguments: json, label, result: results.get(call.id) ?? "" });
    }
  }
  return turns;
}

/** Lines a step takes on screen, about: a header, then its text wrapped. */
function linesOf(step: ResumedStep, columns: number): number {
  if (step.kind === "tool") return 1;
  const wrapped = step.text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / columns)), 0);
  return 1 + wrapped;
}

/**
 * The last turns of a resumed conversation that fit about two screens (the last one always), and how many earlier
 * messages are left out. `totalMessages` counts compacted messages too (see ParsedSession).
 */
export function resumedTurns(messages: readonly Message[], totalMessages: number, room: ScreenRoom): ResumedTurns {
  const budget = 2 * Math.max(10, room.rows);
  const columns = Math.max(20, room.columns);
  const shown: Turn[] = [];
  let used = 0;
  for (const turn of turnsOf(messages).toReversed()) {
    const lines = turn.steps.reduce((sum, step) => sum + linesOf(step, columns), 0);
    if (shown.length > 0 && used + lines > budget) break;
    shown.unshift(turn);
    used += lines;
  }
  const first = shown[0]?.start ?? messages.length;
  const counted = messages.slice(first).filter(countsAsMessage).length;
  return { steps: shown.flatMap((turn) => turn.steps), hidden: Math.max(0, totalMessages - counted) };
}

/** "12 earlier messages are not shown." */
export function hiddenNote(hidden: number): string {
  return `${hidden} earlier message${hidden === 1 ? " is" : "s are"} not shown.`;
}
