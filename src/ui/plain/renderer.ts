import type { AgentEventListener } from "../../agent/events.js";
import type { Output } from "../headless/text-renderer.js";
import { safeEvents } from "../terminal-text.js";

export interface Palette {
  you: (text: string) => string;
  assistant: (text: string) => string;
  system: (text: string) => string;
  tool: (text: string) => string;
  /** The model's reasoning, shown before its answer. */
  reasoning: (text: string) => string;
}

const ansi = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
const same = (text: string) => text;
/** you=cyan, assistant=green, system=yellow, tools=magenta (seed 000 §2.9); reasoning dim. */
export const COLOR_PALETTE: Palette = {
  you: ansi(36),
  assistant: ansi(32),
  system: ansi(33),
  tool: ansi(35),
  reasoning: ansi(2),
};
export const PLAIN_PALETTE: Palette = { you: same, assistant: same, system: same, tool: same, reasoning: same };

const ABORTED_NOTE = "[System] Stopped. The partial answer is kept.";
/** A running tool's progress is printed at most this often per call: a line, not a live counter. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Linear output for the plain UI: the model's reasoning (dim, on lines of its own, before the answer), streamed
 * text, `  🔧 a, b` lines, `  ⏳ tool: progress` lines of long tool calls, `[System] …` lines. Every event's text
 * is made safe to print before it is coloured.
 */
export function createPlainRenderer(out: Output, palette: Palette): AgentEventListener {
  let atLineStart = true;
  const progressShown = new Map<string, { message: string; at: number }>();
  const write = (text: string) => {
    if (!text) return;
    out.write(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) write("\n");
    write(`${text}\n`);
  };
  const clean = safeEvents();
  let reasoning = false;
  return (raw) => {
    const event = clean(raw);
    if (reasoning && event.type !== "reasoning_delta" && event.type !== "usage") {
      reasoning = false;
      line(""); // the answer starts below the reasoning
    }
    switch (event.type) {
      case "reasoning_delta":
        if (!reasoning && !atLineStart) write("\n");
        reasoning = true;
        write(palette.reasoning(event.text));
        break;
      case "text_delta":
        write(palette.assistant(event.text));
        break;
      case "tool_calls":
        line(palette.tool(`  🔧 ${event.names.join(", ")}`));
        break;
      case "tool_progress": {
        const shown = progressShown.get(event.callId);
        if (shown && (shown.message === event.message || Date.now() - shown.at < PROGRESS_EVERY_MS)) break;
        progressShown.set(event.callId, { message: event.message, at: Date.now() });
        line(palette.tool(`  ⏳ ${event.name}: ${event.message}`));
        break;
      }
      case "tool_end":
        progressShown.delete(event.callId);
        break;
      case "notice":
        line(palette.system(`[System] ${event.text}`));
        break;
      case "error":
        line(palette.system(`[System] Error: ${event.message}`));
        break;
      case "compaction":
        line(
          palette.system(
            event.phase === "start"
              ? "[System] 🔄 Compacting conversation history..."
              : "[System] ── Context compacted. Older messages summarized. ──",
          ),
        );
        break;
      case "agent_end":
        if (!atLineStart) write("\n");
        if (event.reason === "aborted") line(palette.system(ABORTED_NOTE));
        break;
      default:
        break;
    }
  };
}
