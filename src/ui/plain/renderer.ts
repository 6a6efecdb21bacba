import type { AgentEventListener } from "../../agent/events.js";
import type { Output } from "../headless/text-renderer.js";
import { safeEvents } from "../terminal-text.js";
import type { Palette } from "./palette.js";
import { createToolLines } from "./tool-lines.js";

const ABORTED_NOTE = "[System] Stopped. The partial answer is kept.";

/**
 * Linear output for the plain UI: the model's reasoning (dim, on lines of its own, before the answer), streamed
 * text, tool calls (see createToolLines), `[System] …` lines. Every event's text is made safe to print before it
 * is coloured.
 */
export function createPlainRenderer(out: Output, palette: Palette): AgentEventListener {
  let atLineStart = true;
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
  const tools = createToolLines(line, palette);
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
      case "tool_start":
      case "tool_progress":
      case "tool_end":
        tools(event);
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
