import type { AgentEventListener } from "../../agent/events.js";
import { safeText } from "../terminal-text.js";

export interface Output {
  write(text: string): unknown;
}

/**
 * The non-interactive stdout protocol (seed 000 Appendix C): raw answer text, a
 * `  🔧 a, b` line before each tool round (always on a line of its own), and a final
 * newline. Notices and errors go to stderr; the caller writes MARVIN_COST last.
 *
 * Notices and errors are made safe to print (stderr is usually a terminal). The answer goes to
 * stdout as the events carry it: exactly as the model wrote it, for a program reading it.
 */
export function createTextRenderer(stdout: Output, stderr: Output): AgentEventListener {
  let atLineStart = true;
  const write = (text: string) => {
    if (!text) return;
    stdout.write(text);
    atLineStart = text.endsWith("\n");
  };
  return (event) => {
    switch (event.type) {
      case "text_delta":
        write(event.text);
        break;
      case "tool_calls":
        if (!atLineStart) write("\n");
        write(`  🔧 ${event.names.join(", ")}\n`);
        break;
      case "notice":
        stderr.write(`${safeText(event.text)}\n`);
        break;
      case "error":
        stderr.write(`Error: ${safeText(event.message)}\n`);
        break;
      case "compaction":
        stderr.write(
          event.phase === "start"
            ? "🔄 Compacting conversation history...\n"
            : `── Context compacted. Older messages summarized (backup: ${safeText(event.backupPath ?? "none")}). ──\n`,
        );
        break;
      case "agent_end":
        if (!atLineStart) write("\n");
        break;
      case "agent_start":
      case "turn_start":
      case "reasoning_delta":
      case "tool_call_start":
      case "tool_start":
      case "tool_progress":
      case "tool_end":
      case "usage":
      case "turn_end":
        break;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  };
}
