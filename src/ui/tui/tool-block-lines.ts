import { safeLabel, terminalText } from "../terminal-text.js";
import { elapsedText } from "../tool-call-text.js";
import type { ToolCallView } from "./chat-entry.js";
import { diffView } from "./diff-view.js";
import { truncateToWidth, wrapToLines } from "./spans.js";
import type { Theme } from "./theme.js";

/** Lines of a running command's output shown under its header. */
const OUTPUT_TAIL_LINES = 6;
/** Lines of an edit's diff shown while its block is collapsed (about a screenful). */
export const DIFF_PREVIEW_LINES = 20;
const GUTTER = "  │ ";

/** `⏳ run_command  sleep 3 · 1.2s`, or once finished `✓ run_command  sleep 3 · 3.0s · Exit code: 0`. */
function headerLine(call: ToolCallView, width: number, now: number, theme: Theme): string {
  const running = call.elapsedMs === undefined;
  const mark = running ? "⏳" : call.isError ? "✗" : "✓";
  const facts = running
    ? [elapsedText(now - call.startedAt), ...(call.progress && !call.output ? [safeLabel(call.progress)] : [])]
    : [...(call.replayed ? [] : [elapsedText(call.elapsedMs ?? 0)]), call.summary ?? ""];
  const text = truncateToWidth([call.label, ...facts].join(" · "), Math.max(1, width - 2));
  return `${call.isError ? theme.error(mark) : theme.tool(mark)} ${theme.tool(text)}`;
}

/** Text (a command's output, a result) in a dim gutter under the header; only its last `tail` lines if given. */
function gutterLines(text: string, width: number, theme: Theme, tail = Infinity): string[] {
  const body = terminalText(text).replace(/\s+$/, "");
  if (!body) return [];
  const wrapped = wrapToLines([{ text: body, style: (line) => line }], Math.max(1, width - GUTTER.length), false);
  return wrapped.slice(-tail).map((line) => theme.dim(GUTTER) + line);
}

function diffBlock(diff: string, expanded: boolean, width: number, theme: Theme): string[] {
  const { lines, hidden } = diffView(diff, width, theme, expanded ? Infinity : DIFF_PREVIEW_LINES);
  return hidden ? [...lines, theme.dim(`  … ${hidden} more lines, Ctrl+O expands`)] : lines;
}

/**
 * One tool call as a block: its header line (name, key arguments, live elapsed time, then ✓/✗
 * and the result's first line), the answer to its question if it asked one, and under it the
 * output while it runs, an edit's diff (collapsed past a screenful), or the whole result when expanded.
 */
export function toolBlockLines(call: ToolCallView, width: number, now: number, theme: Theme): string[] {
  const lines = [headerLine(call, width, now, theme)];
  if (call.confirmation) lines.push(...wrapToLines([{ text: `   ${call.confirmation}`, style: theme.you }], width));
  if (call.elapsedMs === undefined) {
    if (call.output) lines.push(...gutterLines(call.output, width, theme, OUTPUT_TAIL_LINES));
  } else if (call.diff) {
    lines.push(...diffBlock(call.diff, call.expanded === true, width, theme));
  } else if (call.expanded && call.result) {
    lines.push(...gutterLines(call.result, width, theme));
  }
  return lines;
}
