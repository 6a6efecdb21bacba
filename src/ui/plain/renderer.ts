import type { AgentEventListener } from "../../agent/events.js";
import type { Output } from "../headless/text-renderer.js";
import { safeEvents } from "../terminal-text.js";
import type { Theme } from "../tui/theme.js";
import { createToolLines } from "./tool-lines.js";

const ABORTED_NOTE = "[System] Stopped. The partial answer is kept.";

/**
 * Linear output for the plain UI: the model's reasoning (dim, on lines of its own, before the answer), streamed
 * text, tool calls (see createToolLines), `[System] …` lines. Every event's text is made safe to print before it
 * is coloured.
 */
export function createPlainRenderer(out: Output, themes: { readonly theme: Theme }): AgentEventListener {
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
  const tools = createToolLines(line, themes);
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
      case "tool_start":
      case "tool_progress":
      case "tool_end":
        tools(event);
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
