import type { AgentEvent } from "../agent/events.js";

/**
 * Every escape sequence, in its 7-bit (ESC …) and 8-bit (C1) forms: DCS, SOS, OSC, PM and APC
 * strings up to their BEL or ST (or, unterminated, up to the end of the line), CSI sequences,
 * and every other ESC sequence (charset designations, ESC c, ESC 7…). A lone ESC goes too.
 */
const ESCAPE_SEQUENCES =
  /(?:\x1b[P\]X^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b[ -/]*[0-~]?/g;
/** The start of an escape sequence at the very end of a text, still waiting for the rest of it. */
const UNFINISHED_SEQUENCE =
  /(?:(?:\x1b[P\]X^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*\x1b?|(?:\x1b\[|\x9b)[0-?]*[ -/]*|\x1b[ -/]*)$/;
/** C0 controls but tab and line feed, DEL, and C1 controls. */
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Bidi marks, embeddings, overrides and isolates: they can make a name read as something else. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from outside (the model, tools, files, servers) made safe to print: escape sequences and
 * control characters removed, line breaks and tabs kept. A carriage return is dropped, so
 * nothing written after it can hide what came before.
 */
export function safeText(raw: string): string {
  return raw.replace(ESCAPE_SEQUENCES, "").replace(CONTROL_CHARACTERS, "");
}

/** A one-line name from outside (a title, a path): safe text without bidi controls, on one line. */
export function safeLabel(raw: string): string {
  return safeText(raw)
    .replace(BIDI_CONTROLS, "")
    .replace(/[\t\n]/g, " ");
}

/**
 * Program output made safe to draw inside the chat area: escape sequences (colours, cursor
 * moves) and control characters removed, and a carriage return inside a line (progress bars)
 * keeps only what was written after it.
 */
export function terminalText(raw: string): string {
  return raw
    .replace(ESCAPE_SEQUENCES, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const text = line.replace(/\r+$/, "");
      return text.slice(text.lastIndexOf("\r") + 1);
    })
    .join("\n")
    .replace(CONTROL_CHARACTERS, "")
    .replace(/\t/g, "    ");
}

function safeValue(value: unknown): unknown {
  if (typeof value === "string") return safeText(value);
  if (Array.isArray(value)) return value.map(safeValue);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, safeValue(field)]));
  return value;
}

/**
 * Streamed text made safe chunk by chunk: an escape sequence split between two chunks is held
 * back until the next one completes it, and then removed like any other.
 */
export class SafeTextStream {
  private held = "";

  /** The part of the text so far that can be shown, made safe. */
  push(chunk: string): string {
    const text = this.held + chunk;
    const cut = UNFINISHED_SEQUENCE.exec(text)?.index ?? text.length;
    this.held = text.slice(cut);
    return safeText(text.slice(0, cut));
  }

  /** The stream ended: an unfinished sequence still held is dropped. */
  end(): void {
    this.held = "";
  }
}

/**
 * A filter that makes every piece of text in each event safe to print (see safeText). The
 * answer's text deltas are cleaned as one stream (see SafeTextStream) until the model's turn
 * ends or it calls tools.
 */
export function safeEvents(): (event: AgentEvent) => AgentEvent {
  const answer = new SafeTextStream();
  return (event) => {
    if (event.type === "text_delta") return { ...event, text: answer.push(event.text) };
    if (event.type === "tool_calls" || event.type === "turn_end" || event.type === "agent_end") answer.end();
    return safeValue(event) as AgentEvent;
  };
}
