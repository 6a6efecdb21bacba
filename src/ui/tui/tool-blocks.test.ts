import { stripVTControlCharacters as plain } from "node:util";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../agent/events.js";
import { ChatStore } from "./chat-store.js";
import { EntryLineRenderer } from "./entry-lines.js";
import { COLOR_THEME, MONOCHROME_THEME } from "./theme.js";
import { DIFF_PREVIEW_LINES } from "./tool-block-lines.js";

function chat(theme = MONOCHROME_THEME) {
  let clock = 0;
  const store = new ChatStore({ clock: () => clock, frameMs: 0 });
  const renderer = new EntryLineRenderer(theme);
  return {
    store,
    advance: (ms: number) => (clock += ms),
    lines: (width = 60) => renderer.render(store.entries, width, clock).map((line) => plain(line)),
    styled: (width = 60) => renderer.render(store.entries, width, clock),
  };
}

const start = (callId: string, name: string, input: unknown): AgentEvent => ({
  type: "tool_start",
  turn: 1,
  callId,
  name,
  arguments: JSON.stringify(input),
  input,
});

const end = (callId: string, name: string, result: string, details?: unknown): AgentEvent => ({
  type: "tool_end",
  turn: 1,
  callId,
  name,
  arguments: "{}",
  input: {},
  result,
  isError: false,
  ...(details === undefined ? {} : { details }),
  elapsedMs: 1234,
});

const output = (callId: string, text: string): AgentEvent => ({
  type: "tool_progress",
  turn: 1,
  callId,
  name: "run_command",
  message: text.trim().split("\n").at(-1)!,
  output: text,
});

describe("tool blocks", () => {
  it("stream a running command's last output lines under its header, and fold them away when it ends", () => {
    const { store, advance, lines } = chat();
    store.apply({ type: "tool_calls", turn: 1, names: ["run_command"] });
    store.apply(start("c", "run_command", { command: "npm test", timeout: 60 }));
    advance(1500);
    store.apply(output("c", "line 1\nline 2\n"));
    expect(lines()).toEqual(["⏳ run_command  npm test · 1.5s", "  │ line 1", "  │ line 2"]);
    store.apply(output("c", Array.from({ length: 10 }, (_, index) => `test ${index + 1}\n`).join("")));
    expect(lines()).toEqual([
      "⏳ run_command  npm test · 1.5s",
      ...["5", "6", "7", "8", "9", "10"].map((number) => `  │ test ${number}`),
    ]);
    store.apply(end("c", "run_command", "Exit code: 0 (1s)\nline 1\nline 2"));
    expect(lines(70)).toEqual(["✓ run_command  npm test · 1.2s · Exit code: 0 (1s) (+2 lines)"]);
    expect(lines(40)).toEqual(["✓ run_command  npm test · 1.2s · Exit c…"]);
  });

  it("keep a progress message on the header line", () => {
    const { store, lines } = chat();
    store.apply(start("a", "launch_agent", { task: "look" }));
    store.apply({ type: "tool_progress", turn: 1, callId: "a", name: "launch_agent", message: "two\nlines" });
    expect(lines()).toEqual(['⏳ launch_agent  "look" · 0.0s · two lines']);
  });

  it("expand the latest finished call with its whole result, collapse it again, and expand or collapse all", () => {
    const { store, lines } = chat();
    store.apply({ type: "tool_calls", turn: 1, names: ["read_file", "read_file"] });
    store.apply(start("a", "read_file", { path: "a.txt" }));
    store.apply(start("b", "read_file", { path: "b.txt" }));
    store.apply(end("a", "read_file", "alpha\nsecond a"));
    store.apply(end("b", "read_file", "beta\nsecond b"));
    const folded = ["✓ read_file  a.txt · 1.2s · alpha (+1 lines)", "✓ read_file  b.txt · 1.2s · beta (+1 lines)"];
    expect(lines()).toEqual(folded);
    store.toggleBlocks("latest");
    expect(lines()).toEqual([...folded, "  │ beta", "  │ second b"]);
    store.toggleBlocks("latest");
    expect(lines()).toEqual(folded);
    store.toggleBlocks("all");
    expect(lines()).toEqual([folded[0], "  │ alpha", "  │ second a", folded[1], "  │ beta", "  │ second b"]);
    store.toggleBlocks("all");
    expect(lines()).toEqual(folded);
  });

  it("expand the reasoning folded above an answer with the same keys", () => {
    const { store, lines } = chat();
    store.apply({ type: "reasoning_delta", turn: 1, text: "First thought.\n\nSecond thought." });
    store.apply({ type: "text_delta", turn: 1, text: "Answer." });
    store.flush();
    expect(lines()[0]).toBe("💭 First thought. Second thought.");
    store.toggleBlocks("latest");
    expect(lines().slice(0, 3)).toEqual(["💭 First thought.", "", "Second thought."]);
    store.toggleBlocks("latest");
    expect(lines()[0]).toBe("💭 First thought. Second thought.");
  });

  it("show an edit's diff in colour, changed words highlighted, and fold a long one past a screenful", () => {
    const { store, lines, styled } = chat(COLOR_THEME);
    const diff = "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n keep\n-const a = 41;\n+const a = 42;\n";
    store.apply({ type: "tool_calls", turn: 1, names: ["edit_file"] });
    store.apply(start("e", "edit_file", { path: "a.ts", old_string: "41", new_string: "42" }));
    store.apply(end("e", "edit_file", "Edited a.ts", { diff }));
    expect(lines()).toEqual([
      "✓ edit_file  a.ts · 1.2s · Edited a.ts",
      "  --- a/a.ts",
      "  +++ b/a.ts",
      "  @@ -1,2 +1,2 @@",
      "   keep",
      "  -const a = 41;",
      "  +const a = 42;",
    ]);
    const [removed, added] = styled().slice(-2);
    const { diffRemoved, diffRemovedWord, diffAdded, diffAddedWord } = COLOR_THEME;
    expect(removed).toBe(`  ${diffRemoved("-const a = ")}${diffRemovedWord("41")}${diffRemoved(";")}`);
    expect(added).toBe(`  ${diffAdded("+const a = ")}${diffAddedWord("42")}${diffAdded(";")}`);

    const long = `@@ -0,0 +1,50 @@\n${Array.from({ length: 50 }, (_, index) => `+line ${index + 1}`).join("\n")}\n`;
    store.apply(start("w", "write_file", { path: "b.txt" }));
    store.apply(end("w", "write_file", "Wrote b.txt", { diff: long }));
    const shown = lines().slice(7);
    expect(shown).toHaveLength(DIFF_PREVIEW_LINES + 2);
    expect(shown.at(-2)).toBe(`  +line ${DIFF_PREVIEW_LINES - 1}`);
    expect(shown.at(-1)).toBe(`  … ${51 - DIFF_PREVIEW_LINES} more lines, Ctrl+O expands`);
    store.toggleBlocks("latest");
    expect(lines().slice(7)).toHaveLength(52);
    expect(lines().at(-1)).toBe("  +line 50");
  });
});
