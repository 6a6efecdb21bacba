import type { AgentEventListener } from "../../agent/events.js";
import type { Output } from "../headless/text-renderer.js";
import { safeEvents } from "../terminal-text.js";
import type { Theme } from "../tui/theme.js";

const ABORTED_NOTE = "[System] Stopped. The partial answer is kept.";
/** A running tool's progress is printed at most this often per call: a line, not a live counter. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Linear output for the plain UI: the model's reasoning (dim, on lines of its own, before the answer), streamed
 * text, `  🔧 a, b` lines, `  ⏳ tool: progress` lines of long tool calls, `[System] …` lines. Every event's text
 * is made safe to print before it is coloured.
 */
export function createPlainRenderer(out: Output, themes: { readonly theme: Theme }): AgentEventListener {
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
    const { theme } = themes;
    if (reasoning && event.type !== "reasoning_delta" && event.type !== "usage") {
      reasoning = false;
      line(""); // the answer starts below the reasoning
    }
    switch (event.type) {
      case "reasoning_delta":
        if (!reasoning && !atLineStart) write("\n");
        reasoning = true;
        write(theme.muted(event.text));
        break;
      case "text_delta":
        write(theme.assistant(event.text));
        break;
      case "tool_calls":
        line(theme.tool(`  🔧 ${event.names.join(", ")}`));
        break;
      case "tool_progress": {
        const shown = progressShown.get(event.callId);
        if (shown && (shown.message === event.message || Date.now() - shown.at < PROGRESS_EVERY_MS)) break;
        progressShown.set(event.callId, { message: event.message, at: Date.now() });
        line(theme.tool(`  ⏳ ${event.name}: ${event.message}`));
        break;
      }
      case "tool_end":
        progressShown.delete(event.callId);
        break;
      case "notice":
        line(theme.system(`[System] ${event.text}`));
        break;
      case "error":
        line(theme.system(`[System] Error: ${event.message}`));
        break;
      case "compaction":
        line(
          theme.system(
            event.phase === "start"
              ? "[System] 🔄 Compacting conversation history..."
              : "[System] ── Context compacted. Older messages summarized. ──",
          ),
        );
        break;
      case "agent_end":
        if (!atLineStart) write("\n");
        if (event.reason === "aborted") line(theme.system(ABORTED_NOTE));
        break;
      default:
        break;
    }
  };
}
