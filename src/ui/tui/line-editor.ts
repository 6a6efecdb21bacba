/** The input line: its text and the cursor position (a UTF-16 index on a code-point boundary). */
export interface LineState {
  text: string;
  cursor: number;
}

export const EMPTY_LINE: LineState = { text: "", cursor: 0 };

export function lineOf(text: string): LineState {
  return { text, cursor: text.length };
}

function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const low = text.charCodeAt(index - 1);
  const isLowSurrogate = low >= 0xdc00 && low <= 0xdfff;
  return isLowSurrogate && index >= 2 ? index - 2 : index - 1;
}

function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const code = text.codePointAt(index)!;
  return index + (code > 0xffff ? 2 : 1);
}

/** Start of the word before the cursor (readline: spaces first, then non-spaces). */
function wordStartBefore(text: string, index: number): number {
  let position = index;
  while (position > 0 && /\s/.test(text[position - 1]!)) position -= 1;
  while (position > 0 && !/\s/.test(text[position - 1]!)) position -= 1;
  return position;
}

function wordEndAfter(text: string, index: number): number {
  let position = index;
  while (position < text.length && /\s/.test(text[position]!)) position += 1;
  while (position < text.length && !/\s/.test(text[position]!)) position += 1;
  return position;
}

function lineStart(text: string, index: number): number {
  return text.lastIndexOf("\n", index - 1) + 1;
}

function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline < 0 ? text.length : newline;
}

/** Readline-style edits. Every function is pure: it returns the new state. */
export const edit = {
  insert: ({ text, cursor }: LineState, inserted: string): LineState => ({
    text: text.slice(0, cursor) + inserted + text.slice(cursor),
    cursor: cursor + inserted.length,
  }),
  left: (state: LineState): LineState => ({ ...state, cursor: previousBoundary(state.text, state.cursor) }),
  right: (state: LineState): LineState => ({ ...state, cursor: nextBoundary(state.text, state.cursor) }),
  wordLeft: (state: LineState): LineState => ({ ...state, cursor: wordStartBefore(state.text, state.cursor) }),
  wordRight: (state: LineState): LineState => ({ ...state, cursor: wordEndAfter(state.text, state.cursor) }),
  /** Home / Ctrl+A: start of the current line of a multi-line input. */
  home: (state: LineState): LineState => ({ ...state, cursor: lineStart(state.text, state.cursor) }),
  /** End / Ctrl+E. */
  end: (state: LineState): LineState => ({ ...state, cursor: lineEnd(state.text, state.cursor) }),
  backspace: ({ text, cursor }: LineState): LineState => {
    const start = previousBoundary(text, cursor);
    return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
  },
  delete: ({ text, cursor }: LineState): LineState => ({
    text: text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)),
    cursor,
  }),
  /** Ctrl+U: delete from the start of the line to the cursor. */
  killToStart: ({ text, cursor }: LineState): LineState => {
    const start = lineStart(text, cursor);
    return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
  },
  /** Ctrl+K: delete from the cursor to the end of the line. */
  killToEnd: ({ text, cursor }: LineState): LineState => ({
    text: text.slice(0, cursor) + text.slice(lineEnd(text, cursor)),
    cursor,
  }),
  /** Ctrl+W: delete the word before the cursor. */
  killWordBefore: ({ text, cursor }: LineState): LineState => {
    const start = wordStartBefore(text, cursor);
    return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
  },
  /** Alt+D: delete the word after the cursor. */
  killWordAfter: ({ text, cursor }: LineState): LineState => ({
    text: text.slice(0, cursor) + text.slice(wordEndAfter(text, cursor)),
    cursor,
  }),
};
