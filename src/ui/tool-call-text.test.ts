import { describe, expect, it } from "vitest";
import { elapsedText, keyArguments, summarizeToolResult, toolCallLabel } from "./tool-call-text.js";

describe("keyArguments", () => {
  it("shows the command, path, URL or query of a call, names as they are and free text quoted", () => {
    expect(keyArguments({ command: "npm test", timeout: 60 })).toBe("npm test");
    expect(keyArguments({ path: "src/a.ts", old_string: "a", new_string: "b" })).toBe("src/a.ts");
    expect(keyArguments({ query: "rust async", max_results: 5 })).toBe('"rust async"');
    expect(keyArguments({ url: "https://example.org/" })).toBe("https://example.org/");
  });

  it("puts the most telling of two key arguments first, and shows at most two", () => {
    expect(keyArguments({ pattern: "TODO", path: "src", query: "x", command: "ls" })).toBe("ls  src");
    expect(keyArguments({ pattern: "TODO", path: "src" })).toBe('src  "TODO"');
    expect(keyArguments({ source_path: "a.txt", note: "n" })).toBe("a.txt");
  });

  it("falls back to the first text argument, and to nothing", () => {
    expect(keyArguments({ duration_seconds: 120, name: "tea", label: "green" })).toBe('"tea"');
    expect(keyArguments({ count: 3, name: "  " })).toBe("");
    expect(keyArguments("not json")).toBe("");
    expect(keyArguments(null)).toBe("");
    expect(keyArguments(["a"])).toBe("");
  });

  it("keeps a value on one line, without escape sequences, and cuts a long one with …", () => {
    expect(keyArguments({ command: "echo one\n\techo \x1b[31mtwo\x1b[0m" })).toBe("echo one echo two");
    const long = keyArguments({ command: `echo ${"x".repeat(200)}` });
    expect(long).toHaveLength(60);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("toolCallLabel", () => {
  it("is the tool's name and its key arguments, or the name alone", () => {
    expect(toolCallLabel("run_command", { command: "npm test" })).toBe("run_command  npm test");
    expect(toolCallLabel("timer_check", {})).toBe("timer_check");
  });
});

describe("elapsedText", () => {
  it("shows tenths of a second below a minute, then minutes and seconds", () => {
    expect(elapsedText(420)).toBe("0.4s");
    expect(elapsedText(12_345)).toBe("12.3s");
    expect(elapsedText(65_000)).toBe("1m 05s");
  });
});

describe("summarizeToolResult", () => {
  it("is the first meaningful line and how many lines follow", () => {
    expect(summarizeToolResult("\nExit code: 0 (1s)\none\ntwo")).toBe("Exit code: 0 (1s) (+2 lines)");
    expect(summarizeToolResult("")).toBe("(no output)");
  });
});
