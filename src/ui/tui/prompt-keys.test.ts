import { describe, expect, it } from "vitest";
import { InputHistoryBrowser } from "./input-history-browser.js";
import type { InputEvent } from "./key-parser.js";
import { EMPTY_PROMPT, type PromptOutcome, type PromptState, promptKey } from "./prompt-keys.js";

const text = (value: string): InputEvent => ({ kind: "text", text: value });
const key = (name: string, modifiers: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {}): InputEvent => ({
  kind: "key",
  name,
  ctrl: false,
  meta: false,
  shift: false,
  ...modifiers,
});
const ctrl = (name: string) => key(name, { ctrl: true });

/** Feeds events one after another, returning the final state and every effect. */
function type(events: InputEvent[], history: string[] = [], start: PromptState = EMPTY_PROMPT) {
  const browser = new InputHistoryBrowser(history);
  let state = start;
  const effects: PromptOutcome["effect"][] = [];
  for (const event of events) {
    const outcome = promptKey(state, event, browser);
    state = outcome.state;
    if (outcome.effect) effects.push(outcome.effect);
  }
  return { state, effects };
}

describe("promptKey", () => {
  it("edits with readline keys and submits on Enter, clearing the line", () => {
    const { state, effects } = type([
      text("wrld"),
      key("left"),
      key("left"),
      key("left"),
      text("o"),
      ctrl("a"),
      text("hello "),
      ctrl("e"),
      text("!"),
      key("enter"),
    ]);
    expect(effects).toEqual([{ type: "submit", text: "hello world!" }]);
    expect(state.line).toEqual({ text: "", cursor: 0 });
  });

  it("pastes multi-line text into the line without submitting; Alt+Enter adds a line break", () => {
    const { state, effects } = type([
      { kind: "paste", text: "line 1\nline 2" },
      key("enter", { meta: true }),
      text("3"),
    ]);
    expect(effects).toEqual([]);
    expect(state.line.text).toBe("line 1\nline 2\n3");
  });

  it("walks the history with ↑/↓ and gives back the draft after the newest entry", () => {
    const history = ["first", "second"];
    expect(type([text("draft"), key("up")], history).state.line.text).toBe("second");
    expect(type([text("draft"), key("up"), key("up"), key("up")], history).state.line.text).toBe("first");
    expect(type([text("draft"), key("up"), key("up"), key("down")], history).state.line.text).toBe("second");
    expect(type([text("draft"), key("up"), key("down")], history).state.line).toEqual({ text: "draft", cursor: 5 });
  });

  it("Ctrl+R finds the newest matching entry, again for older ones, and Enter submits the match", () => {
    const history = ["git status", "ls -la", "git commit -m wip", "echo hi"];
    const found = type([ctrl("r"), text("git")], history);
    expect(found.state.search).toMatchObject({ query: "git", match: 2 });
    const older = type([ctrl("r"), text("git"), ctrl("r")], history);
    expect(older.state.search?.match).toBe(0);
    expect(type([ctrl("r"), text("git"), ctrl("r"), ctrl("r")], history).state.search?.match).toBe(0);
    expect(type([ctrl("r"), text("commit"), key("enter")], history).effects).toEqual([
      { type: "submit", text: "git commit -m wip" },
    ]);
  });

  it(
    "Ctrl+R: Escape or an arrow keeps the match for editing, Ctrl+G restores the line, Backspace " +
      "shortens the query",
    () => {
      const history = ["git status", "ls -la"];
      expect(type([text("draft"), ctrl("r"), text("stat"), key("escape")], history).state).toEqual({
        line: { text: "git status", cursor: 10 },
      });
      expect(type([ctrl("r"), text("stat"), key("left")], history).state.line).toEqual({
        text: "git status",
        cursor: 9,
      });
      expect(type([text("draft"), ctrl("r"), text("stat"), ctrl("g")], history).state).toEqual({
        line: { text: "draft", cursor: 5 },
      });
      const failed = type([ctrl("r"), text("lsx")], history);
      expect(failed.state.search?.match).toBeUndefined();
      expect(type([ctrl("r"), text("lsx"), key("backspace")], history).state.search?.match).toBe(1);
    },
  );

  it("Ctrl+C interrupts; Ctrl+D exits on an empty line and deletes a character otherwise", () => {
    expect(type([ctrl("c")]).effects).toEqual([{ type: "interrupt" }]);
    expect(type([ctrl("d")]).effects).toEqual([{ type: "exit" }]);
    const deleting = type([text("abc"), key("home"), ctrl("d")]);
    expect(deleting.effects).toEqual([]);
    expect(deleting.state.line.text).toBe("bc");
  });

  it("PgUp/PgDn, Shift+↑/↓, the wheel and Ctrl+Home/End scroll without touching the line", () => {
    const { state, effects } = type([
      text("keep"),
      key("pageup"),
      key("pagedown"),
      key("up", { shift: true }),
      key("down", { shift: true }),
      { kind: "wheel", direction: "up" },
      ctrl("home"),
      ctrl("end"),
    ]);
    expect(state.line.text).toBe("keep");
    expect(effects).toEqual([
      { type: "page", direction: -1 },
      { type: "page", direction: 1 },
      { type: "scroll", lines: -3 },
      { type: "scroll", lines: 3 },
      { type: "scroll", lines: -3 },
      { type: "scroll-to", where: "top" },
      { type: "scroll-to", where: "bottom" },
    ]);
  });

  it("Shift+Tab turns plan mode on or off, keeping the line", () => {
    const { state, effects } = type([text("draft"), key("tab", { shift: true })]);
    expect(state.line.text).toBe("draft");
    expect(effects).toEqual([{ type: "toggle-plan" }]);
  });
});
