import type { InputHistoryBrowser } from "./input-history-browser.js";
import type { InputEvent, KeyEvent } from "./key-parser.js";
import { EMPTY_LINE, edit, type LineState, lineOf } from "./line-editor.js";
import { type ReverseSearchState, searchOlder, searchResult, startSearch, updateQuery } from "./reverse-search.js";

/** The input area: the line being edited and, during Ctrl+R, the search. */
export interface PromptState {
  line: LineState;
  search?: ReverseSearchState;
}

export const EMPTY_PROMPT: PromptState = { line: EMPTY_LINE };

/** What a key asks of the rest of the UI, beyond editing the input line. */
export type PromptEffect =
  | { type: "submit"; text: string }
  /** Ctrl+C. */
  | { type: "interrupt" }
  /** Ctrl+D on an empty line. */
  | { type: "exit" }
  | { type: "scroll"; lines: number }
  | { type: "page"; direction: -1 | 1 }
  | { type: "scroll-to"; where: "top" | "bottom" }
  /** Ctrl+L. */
  | { type: "redraw" }
  /** Shift+Tab: plan mode on or off. */
  | { type: "toggle-plan" };

export interface PromptOutcome {
  state: PromptState;
  effect?: PromptEffect;
}

/** Lines scrolled by one wheel notch or Shift+↑/↓. */
const WHEEL_LINES = 3;

const CTRL_EDITS: Record<string, (line: LineState) => LineState> = {
  a: edit.home,
  e: edit.end,
  b: edit.left,
  f: edit.right,
  u: edit.killToStart,
  k: edit.killToEnd,
  w: edit.killWordBefore,
  h: edit.backspace,
};

const META_EDITS: Record<string, (line: LineState) => LineState> = {
  b: edit.wordLeft,
  f: edit.wordRight,
  d: edit.killWordAfter,
  backspace: edit.killWordBefore,
};

const PLAIN_EDITS: Record<string, (line: LineState) => LineState> = {
  left: edit.left,
  right: edit.right,
  home: edit.home,
  end: edit.end,
  backspace: edit.backspace,
  delete: edit.delete,
};

function lineEdit(key: KeyEvent): ((line: LineState) => LineState) | undefined {
  if (key.ctrl && (key.name === "left" || key.name === "right"))
    return key.name === "left" ? edit.wordLeft : edit.wordRight;
  if (key.ctrl) return CTRL_EDITS[key.name];
  if (key.meta) return META_EDITS[key.name];
  return PLAIN_EDITS[key.name];
}

/** Keys that scroll the chat area whatever the input line holds. */
function scrollEffect(key: KeyEvent): PromptEffect | undefined {
  if (key.name === "pageup" || key.name === "pagedown")
    return { type: "page", direction: key.name === "pageup" ? -1 : 1 };
  if (key.shift && (key.name === "up" || key.name === "down"))
    return { type: "scroll", lines: key.name === "up" ? -WHEEL_LINES : WHEEL_LINES };
  if (key.ctrl && (key.name === "home" || key.name === "end"))
    return { type: "scroll-to", where: key.name === "home" ? "top" : "bottom" };
  return undefined;
}

function searchKey(
  state: PromptState,
  search: ReverseSearchState,
  event: InputEvent,
  browser: InputHistoryBrowser,
): PromptOutcome {
  const history = browser.lines;
  const accept = (): PromptState => ({ line: lineOf(searchResult(history, search)) });
  if (event.kind === "text" || event.kind === "paste")
    return { state: { ...state, search: updateQuery(history, search, search.query + event.text.replace(/\n/g, " ")) } };
  if (event.kind === "wheel")
    return { state, effect: { type: "scroll", lines: event.direction === "up" ? -WHEEL_LINES : WHEEL_LINES } };
  if (event.ctrl && event.name === "r") return { state: { ...state, search: searchOlder(history, search) } };
  if (event.ctrl && (event.name === "g" || event.name === "c")) return { state: { line: lineOf(search.original) } };
  if (event.name === "escape") return { state: accept() };
  if (event.name === "backspace" && !event.meta)
    return { state: { ...state, search: updateQuery(history, search, search.query.slice(0, -1)) } };
  if (event.name === "enter") {
    const text = searchResult(history, search);
    browser.reset();
    return { state: EMPTY_PROMPT, effect: { type: "submit", text } };
  }
  const scroll = scrollEffect(event);
  if (scroll) return { state, effect: scroll };
  // Any other key (arrows, Ctrl+A/E…) ends the search with the match in the line, then acts on it.
  return promptKey(accept(), event, browser);
}

function browse(state: PromptState, entry: string | undefined): PromptOutcome {
  return entry === undefined ? { state } : { state: { line: lineOf(entry) } };
}

/**
 * One input event applied to the input area (readline keys, ↑/↓ history, Ctrl+R search),
 * plus the effect it asks for. Pure apart from the history browser's position.
 */
export function promptKey(state: PromptState, event: InputEvent, browser: InputHistoryBrowser): PromptOutcome {
  if (state.search) return searchKey(state, state.search, event, browser);
  switch (event.kind) {
    case "text":
    case "paste":
      return { state: { line: edit.insert(state.line, event.text) } };
    case "wheel":
      return { state, effect: { type: "scroll", lines: event.direction === "up" ? -WHEEL_LINES : WHEEL_LINES } };
    case "key":
      break;
  }
  const scroll = scrollEffect(event);
  if (scroll) return { state, effect: scroll };
  if (event.ctrl) {
    switch (event.name) {
      case "c":
        return { state, effect: { type: "interrupt" } };
      case "d":
        return state.line.text ? { state: { line: edit.delete(state.line) } } : { state, effect: { type: "exit" } };
      case "r":
        return { state: { ...state, search: startSearch(state.line.text) } };
      case "l":
        return { state, effect: { type: "redraw" } };
      case "p":
        return browse(state, browser.older(state.line.text));
      case "n":
        return browse(state, browser.newer());
    }
  }
  if (event.name === "tab" && event.shift) return { state, effect: { type: "toggle-plan" } };
  if (event.name === "enter" && event.meta) return { state: { line: edit.insert(state.line, "\n") } };
  if (event.name === "enter") {
    browser.reset();
    return { state: EMPTY_PROMPT, effect: { type: "submit", text: state.line.text } };
  }
  if (event.name === "up" && !event.ctrl && !event.meta) return browse(state, browser.older(state.line.text));
  if (event.name === "down" && !event.ctrl && !event.meta) return browse(state, browser.newer());
  const change = lineEdit(event);
  return change ? { state: { line: change(state.line) } } : { state };
}
