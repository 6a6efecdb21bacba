import { terminalText } from "../terminal-text.js";
import type { ChatEntry, ToolCallView } from "./chat-entry.js";
import { renderMarkdown } from "./markdown.js";
import { StreamingMarkdown } from "./markdown-stream.js";
import { wrapToLines } from "./spans.js";
import type { Style, Theme } from "./theme.js";
import { toolBlockLines } from "./tool-block-lines.js";

/** A running tool's elapsed time is shown in tenths of a second. */
const COUNTER_STEP_MS = 100;

interface CachedLines {
  revision: number;
  width: number;
  /** Extra cache key for lines that change with time (running tool counters). */
  tick: number;
  lines: string[];
}

function header(label: string, time: string, style: Style, theme: Theme): string {
  return theme.bold(style(time ? `${label} · ${time}` : label));
}

/** Narrowest description column a wrapped table row keeps; narrower, the row wraps as prose. */
const MIN_DESCRIPTION_WIDTH = 20;

/**
 * One line of a two-column table whose descriptions start at column `hang`: an indented row whose description wraps
 * goes on under the description; any other line wraps as prose.
 */
function hangingLines(line: string, hang: number, width: number, style: Style): string[] {
  const isRow = line.startsWith("  ") && line[hang - 1] === " " && /\S/.test(line[hang] ?? "");
  if (!isRow || width - hang < MIN_DESCRIPTION_WIDTH) return wrapToLines([{ text: line, style }], width);
  const [first = "", ...rest] = wrapToLines([{ text: line.slice(hang), style }], width - hang);
  const indent = " ".repeat(hang);
  return [style(line.slice(0, hang)) + first, ...rest.map((wrapped) => indent + wrapped)];
}

/**
 * Turns chat entries into terminal lines for a given width, caching each entry's lines by
 * revision and width so a redraw only re-renders what changed (usually the streaming answer).
 */
export class EntryLineRenderer {
  private readonly cache = new WeakMap<ChatEntry, CachedLines>();
  private readonly streams = new WeakMap<ChatEntry, StreamingMarkdown>();

  constructor(private readonly theme: Theme) {}

  /** All lines of the conversation, entries separated by blank lines. */
  render(entries: readonly ChatEntry[], width: number, now: number): string[] {
    const lines: string[] = [];
    let previous: ChatEntry | undefined;
    for (const entry of entries) {
      const joined =
        entry.kind === "tools" ||
        entry.kind === "output" ||
        (entry.kind === "assistant" && entry.continued && previous?.kind === "tools");
      previous = entry;
      if (lines.length > 0 && !joined) lines.push("");
      for (const line of this.entryLines(entry, width, now)) lines.push(line);
    }
    return lines;
  }

  entryLines(entry: ChatEntry, width: number, now: number): string[] {
    const tick = entry.kind === "tools" ? this.runningTick(entry.calls, now) : 0;
    const cached = this.cache.get(entry);
    if (cached && cached.revision === entry.revision && cached.width === width && cached.tick === tick)
      return cached.lines;
    const lines = this.build(entry, width, now);
    this.cache.set(entry, { revision: entry.revision, width, tick, lines });
    return lines;
  }

  /** Changes every counter step while some tool of the round runs. */
  private runningTick(calls: ToolCallView[], now: number): number {
    const running = calls.filter((call) => call.elapsedMs === undefined);
    return running.length > 0 ? Math.floor(now / COUNTER_STEP_MS) : 0;
  }

  private build(entry: ChatEntry, width: number, now: number): string[] {
    const { theme } = this;
    switch (entry.kind) {
      case "you":
        return [
          header("You", entry.time, theme.you, theme),
          ...wrapToLines([{ text: entry.text, style: theme.you }], width),
        ];
      case "assistant":
        return this.assistantLines(entry, width);
      case "reasoning": {
        const text = `💭 ${entry.collapsed ? entry.text.trim().replace(/\s+/g, " ") : entry.text.trim()}`;
        const lines = wrapToLines([{ text, style: theme.muted }], width);
        return entry.collapsed ? lines.slice(0, 1) : lines;
      }
      case "system": {
        const style = { info: theme.system, warning: theme.warning, error: theme.error }[entry.level];
        const text = `[System] ${entry.text}`;
        if (!entry.hang) return wrapToLines([{ text, style }], width);
        const hang = entry.hang;
        return text.split("\n").flatMap((line) => hangingLines(line, hang, width, style));
      }
      case "tools":
        if (entry.calls.length === 0)
          return wrapToLines([{ text: `🔧 ${entry.names.join(", ")}`, style: theme.tool }], width);
        return entry.calls.flatMap((call) => toolBlockLines(call, width, now, theme));
      case "command":
        return wrapToLines([{ text: entry.text, style: theme.you }], width);
      case "output":
        return wrapToLines([{ text: terminalText(entry.text).replace(/\n$/, ""), style: theme.text }], width, false);
      default: {
        const unknown: never = entry;
        return unknown;
      }
    }
  }

  private assistantLines(entry: Extract<ChatEntry, { kind: "assistant" }>, width: number): string[] {
    const { theme } = this;
    let body: string[];
    if (entry.streaming) {
      let stream = this.streams.get(entry);
      if (!stream) {
        stream = new StreamingMarkdown(theme, theme.assistant);
        this.streams.set(entry, stream);
      }
      body = stream.render(entry.chunks, width);
    } else {
      this.streams.delete(entry);
      body = renderMarkdown(entry.text, width, theme, theme.assistant);
    }
    const lines = entry.continued ? body : [header("Marvin", entry.time, theme.assistant, theme), ...body];
    if (entry.interrupted) lines.push(theme.dim(theme.system("[interrupted]")));
    return lines;
  }
}
