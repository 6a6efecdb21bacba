import type { AgentEvent } from "../../agent/events.js";
import { type DiffLine, diffLines, editDiff } from "../diff-lines.js";
import { terminalText } from "../terminal-text.js";
import { elapsedText, summarizeToolResult, toolCallLabel } from "../tool-call-text.js";
import type { Theme } from "../tui/theme.js";

type ToolEvent = Extract<AgentEvent, { type: "tool_start" | "tool_progress" | "tool_end" }>;

/** A running tool's progress message is printed at most this often per call: a line, not a live counter. */
const PROGRESS_EVERY_MS = 2_000;
/** Lines of an edit's diff printed; the rest is counted. */
const DIFF_LINES_SHOWN = 60;
const GUTTER = "    │ ";

function diffLine(line: DiffLine, theme: Theme): string {
  const styles = {
    added: [theme.diffAdded, theme.diffAddedWord],
    removed: [theme.diffRemoved, theme.diffRemovedWord],
  } as const;
  const pair = line.kind === "added" || line.kind === "removed" ? styles[line.kind] : undefined;
  const text = line.parts.map((part) => (pair ? (part.changed ? pair[1] : pair[0])(part.text) : part.text)).join("");
  return `    ${text}`;
}

/** An edit's diff, coloured (or with its +/- alone without colours), cut after DIFF_LINES_SHOWN lines. */
function diffBlock(diff: string, theme: Theme): string[] {
  const lines = diffLines(terminalText(diff));
  const shown = lines.slice(0, DIFF_LINES_SHOWN).map((line) => diffLine(line, theme));
  const hidden = lines.length - shown.length;
  return hidden > 0 ? [...shown, theme.muted(`    … ${hidden} more lines`)] : shown;
}

/**
 * Tool calls, linearly: `  🔧 name  key args` when one starts, a running command's output lines as
 * they come (`    │ …`), `  ⏳ name: progress` lines of long calls, and when it ends `  ✓ name  key args ·
 * 1.2s · first line of the result` (✗ for an error), then an edit's diff. Events must be safe to print already.
 */
export function createToolLines(line: (text: string) => void, themes: { readonly theme: Theme }) {
  const labels = new Map<string, string>();
  const partial = new Map<string, string>();
  const progressShown = new Map<string, { message: string; at: number }>();
  const printOutput = (callId: string, text: string) => {
    const lines = terminalText((partial.get(callId) ?? "") + text).split("\n");
    partial.set(callId, lines.pop() ?? "");
    for (const printed of lines) line(themes.theme.muted(GUTTER) + printed);
  };
  const progress = (event: Extract<ToolEvent, { type: "tool_progress" }>) => {
    if (event.output !== undefined) return printOutput(event.callId, event.output);
    const shown = progressShown.get(event.callId);
    if (shown && (shown.message === event.message || Date.now() - shown.at < PROGRESS_EVERY_MS)) return;
    progressShown.set(event.callId, { message: event.message, at: Date.now() });
    line(themes.theme.tool(`  ⏳ ${event.name}: ${event.message}`));
  };
  const end = (event: Extract<ToolEvent, { type: "tool_end" }>) => {
    const rest = partial.get(event.callId);
    if (rest) line(themes.theme.muted(GUTTER) + rest);
    const label = labels.get(event.callId) ?? toolCallLabel(event.name, event.input);
    for (const map of [labels, partial, progressShown]) map.delete(event.callId);
    const mark = event.isError ? "✗" : "✓";
    const facts = [elapsedText(event.elapsedMs), summarizeToolResult(event.result)];
    line(themes.theme.tool(`  ${mark} ${[label, ...facts].join(" · ")}`));
    const diff = editDiff(event.details);
    if (diff) for (const printed of diffBlock(diff, themes.theme)) line(printed);
  };
  return (event: ToolEvent): void => {
    switch (event.type) {
      case "tool_start": {
        const label = toolCallLabel(event.name, event.input);
        labels.set(event.callId, label);
        return line(themes.theme.tool(`  🔧 ${label}`));
      }
      case "tool_progress":
        return progress(event);
      case "tool_end":
        return end(event);
    }
  };
}
