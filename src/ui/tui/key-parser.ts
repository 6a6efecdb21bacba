import { safeText } from "../terminal-text.js";

type KeyName =
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "insert"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  /** A letter or other character pressed with Ctrl or Alt (e.g. "a" for Ctrl+A). */
  | (string & {});

export type InputEvent =
  | { kind: "key"; name: KeyName; ctrl: boolean; meta: boolean; shift: boolean }
  | { kind: "text"; text: string }
  /** Text pasted at once (bracketed paste, or several lines arriving together). */
  | { kind: "paste"; text: string }
  | { kind: "wheel"; direction: "up" | "down" };

export type KeyEvent = Extract<InputEvent, { kind: "key" }>;

const ESC = "\x1b";
const PASTE_START = "200";
const PASTE_END = `${ESC}[201~`;
const TILDE_KEYS: Record<string, KeyName> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
};
const LETTER_KEYS: Record<string, KeyName> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };

function key(name: KeyName, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean } = {}): KeyEvent {
  return {
    kind: "key",
    name,
    ctrl: modifiers.ctrl ?? false,
    meta: modifiers.meta ?? false,
    shift: modifiers.shift ?? false,
  };
}

/** xterm modifier parameter: 1 + (shift ? 1) + (alt ? 2) + (ctrl ? 4). */
function modifiersOf(parameter: string | undefined) {
  const value = Math.max(0, Number(parameter ?? 1) - 1) || 0;
  return { shift: Boolean(value & 1), meta: Boolean(value & 2), ctrl: Boolean(value & 4) };
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

function controlKey(character: string): KeyEvent {
  if (character === "\r" || character === "\n") return key("enter");
  if (character === "\t") return key("tab");
  if (character === "\x7f" || character === "\b") return key("backspace");
  const code = character.charCodeAt(0);
  return key(code === 0 ? "space" : String.fromCharCode(code + 96), { ctrl: true });
}

/** Printable text (with line breaks) typed or pasted without bracketed-paste markers; C1 controls are dropped. */
function textEvents(segment: string): InputEvent[] {
  if (segment.length === 1 && /[\r\n\t]/.test(segment)) return [controlKey(segment)];
  if (/[\r\n][^\r\n]/.test(segment))
    return [{ kind: "paste", text: safeText(normalizeNewlines(segment)).replace(/\n+$/, "") }];
  const line = segment.replace(/[\r\n]+$/, "");
  const text = safeText(line);
  const events: InputEvent[] = text ? [{ kind: "text", text }] : [];
  if (line.length < segment.length) events.push(key("enter"));
  return events;
}

/**
 * Turns raw terminal input into key, text, paste and wheel events. Unlike Ink's `useInput`
 * it tells Backspace from Delete, understands bracketed paste and SGR mouse wheel reports,
 * and keeps an escape sequence split across two reads until it is complete.
 */
export class KeyParser {
  private pending = "";
  private pasting = false;
  private pasted = "";

  push(chunk: string): InputEvent[] {
    const input = this.pending + chunk;
    this.pending = "";
    const events: InputEvent[] = [];
    let index = 0;
    while (index < input.length) {
      if (this.pasting) {
        index = this.readPaste(input, index, events);
        continue;
      }
      const character = input[index]!;
      if (character === ESC) {
        const consumed = this.readEscape(input, index, events);
        if (consumed === undefined) {
          this.pending = input.slice(index);
          break;
        }
        index = consumed;
        continue;
      }
      const code = character.charCodeAt(0);
      // Tab is a key even in the middle of typed text (it completes); only a bracketed paste keeps it as text.
      if ((code < 0x20 && !/[\r\n]/.test(character)) || code === 0x7f) {
        events.push(controlKey(character));
        index += 1;
        continue;
      }
      let end = index;
      while (
        end < input.length &&
        input[end] !== ESC &&
        (input.charCodeAt(end) >= 0x20 || /[\r\n]/.test(input[end]!)) &&
        input.charCodeAt(end) !== 0x7f
      )
        end += 1;
      events.push(...textEvents(input.slice(index, end)));
      index = end;
    }
    return events;
  }

  /** True when an incomplete escape sequence is waiting for more input. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** No more input came: a lone ESC was the Escape key. */
  flush(): InputEvent[] {
    const pending = this.pending;
    this.pending = "";
    if (!pending) return [];
    return pending === ESC || pending === ESC + ESC ? [key("escape")] : [{ kind: "text", text: pending.slice(1) }];
  }

  private readPaste(input: string, index: number, events: InputEvent[]): number {
    const end = input.indexOf(PASTE_END, index);
    if (end >= 0) {
      this.pasted += input.slice(index, end);
      events.push({ kind: "paste", text: safeText(normalizeNewlines(this.pasted)) });
      this.pasting = false;
      this.pasted = "";
      return end + PASTE_END.length;
    }
    let keep = 0;
    for (let length = Math.min(PASTE_END.length - 1, input.length - index); length > 0; length -= 1) {
      if (PASTE_END.startsWith(input.slice(input.length - length))) {
        keep = length;
        break;
      }
    }
    this.pasted += input.slice(index, input.length - keep);
    this.pending = input.slice(input.length - keep);
    return input.length;
  }

  /** Reads one escape sequence at `index`; returns the index after it, or undefined if incomplete. */
  private readEscape(input: string, index: number, events: InputEvent[]): number | undefined {
    const next = input[index + 1];
    if (next === undefined) return undefined;
    if (next === "[") return this.readCsi(input, index, events);
    if (next === "O") {
      const final = input[index + 2];
      if (final === undefined) return undefined;
      const name = LETTER_KEYS[final];
      if (name) events.push(key(name));
      return index + 3;
    }
    if (next === ESC) {
      const inner: InputEvent[] = [];
      const consumed = this.readEscape(input, index + 1, inner);
      if (consumed === undefined) return undefined;
      events.push(...inner.map((event) => (event.kind === "key" ? { ...event, meta: true } : event)));
      return consumed;
    }
    const character = String.fromCodePoint(input.codePointAt(index + 1)!);
    const base =
      character === "\r" ? key("enter") : character === "\x7f" || character === "\b" ? key("backspace") : undefined;
    events.push(
      base
        ? { ...base, meta: true }
        : key(character.toLowerCase(), { meta: true, shift: character !== character.toLowerCase() }),
    );
    return index + 1 + character.length;
  }

  private readCsi(input: string, index: number, events: InputEvent[]): number | undefined {
    let end = index + 2;
    while (end < input.length && input.charCodeAt(end) >= 0x20 && input.charCodeAt(end) <= 0x3f) end += 1;
    if (end >= input.length) return undefined;
    const parameters = input.slice(index + 2, end);
    const final = input[end]!;
    const after = end + 1;
    if (final === "M" && parameters === "") return this.readX10Mouse(input, after, events);
    if ((final === "M" || final === "m") && parameters.startsWith("<")) {
      const button = Number(parameters.slice(1).split(";")[0]);
      if (final === "M" && button & 64) events.push({ kind: "wheel", direction: button & 1 ? "down" : "up" });
      return after;
    }
    const [first, second] = parameters.split(";");
    if (final === "~") {
      if (first === PASTE_START) {
        this.pasting = true;
        return after;
      }
      const name = TILDE_KEYS[first ?? ""];
      if (name) events.push(key(name, modifiersOf(second)));
      return after;
    }
    const name = LETTER_KEYS[final];
    if (name) events.push(key(name, modifiersOf(second)));
    else if (final === "Z") events.push(key("tab", { shift: true }));
    return after;
  }

  /** Legacy mouse report: ESC [ M and three bytes (button, column, row, each + 32). */
  private readX10Mouse(input: string, after: number, events: InputEvent[]): number | undefined {
    if (input.length < after + 3) return undefined;
    const button = input.charCodeAt(after) - 32;
    if (button & 64) events.push({ kind: "wheel", direction: button & 1 ? "down" : "up" });
    return after + 3;
  }
}
