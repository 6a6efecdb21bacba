import { describe, expect, it } from "vitest";
import type { CustomCommand } from "./custom-commands.js";
import { type ParsedInput, parseInput } from "./parse.js";

/** The parse as a short comparable shape: `command NAME ARGS`, `shell …`, `message …`. */
function shape(parsed: ParsedInput): string {
  switch (parsed.kind) {
    case "empty":
      return "empty";
    case "command":
      return `command ${parsed.command.name}${parsed.args ? ` ${parsed.args}` : ""}`;
    case "custom":
      return `custom ${parsed.command.name}${parsed.args ? ` ${parsed.args}` : ""}`;
    case "unknown":
      return `unknown ${parsed.name} [${parsed.suggestions.join(", ")}]`;
    case "shell":
      return `shell ${parsed.command}`;
    case "message":
      return `message ${parsed.text}`;
  }
}

const STANDUP: CustomCommand = { name: "standup", description: "Daily standup", template: "Write notes." };

describe("parseInput outside shell mode", () => {
  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["quit", "command exit"],
    ["EXIT", "command exit"],
    ["/exit", "command exit"],
    ["/quit", "command exit"],
    ["help", "command help"],
    ["!help", "command help"],
    ["/help", "command help"],
    ["/HELP", "command help"],
    ["!shell", "command shell"],
    ["!sh", "command shell"],
    ["/sh", "command shell"],
    ["!code", "command code"],
    ["preferences", "command preferences"],
    ["Profiles", "command profiles"],
    ["usage", "command usage"],
    ["saved", "command saved"],
    ["clear", "command clear"],
    ["/clear", "command clear"],
    ["/compact", "command compact"],
    ["/sessions", "command sessions"],
    ["resume", "command resume"],
    ["resume 3", "command resume 3"],
    ["/resume abc-1", "command resume abc-1"],
    ["resume the story where we left it", "message resume the story where we left it"],
    ["/mcp trust", "command mcp trust"],
    ["mcp", "command mcp"],
    ["!voice", "command voice"],
    ["!v", "command v"],
    ["!v 10", "command v 10"],
    ["!v -p file", "shell v -p file"],
    ["/voice", "command voice"],
    ["!blender", "command blender"],
    ["!pro explain monads", "command pro explain monads"],
    ["/pro explain monads", "command pro explain monads"],
    ["!pro", "command pro"],
    ["!model", "command model"],
    ["!model  groq   llama-3.1-8b", "command model groq   llama-3.1-8b"],
    ["/model groq", "command model groq"],
    ["!ls -la", "shell ls -la"],
    ["!vim notes.md", "shell vim notes.md"],
    ["!codex --help", "shell codex --help"],
    ["!clear", "shell clear"],
    ["!", "shell "],
    ["cap", "command cap"],
    ["Cap 1.50", "command cap 1.50"],
    ["cap $2", "command cap $2"],
    ["cap off", "command cap off"],
    ["cap daily", "command cap daily"],
    ["cap  daily  10", "command cap daily  10"],
    ["!cap 3", "command cap 3"],
    ["!cap deploy production", "shell cap deploy production"],
    ["/cap deploy production", "command cap deploy production"],
    ["cap the list at five items", "message cap the list at five items"],
    ["show my usage please", "message show my usage please"],
    ["  what's the weather?  ", "message what's the weather?"],
    ["/standup short one", "custom standup short one"],
    ["/mdoel", "unknown mdoel [model]"],
    ["/hlep", "unknown hlep [help, lsp]"],
    ["/etc/hosts is odd", "unknown etc/hosts []"],
    ["/", "unknown  []"],
  ])("%j", (line, expected) => {
    expect(shape(parseInput(line, false, [STANDUP]))).toBe(expected);
  });
});

describe("parseInput in shell mode", () => {
  it.each([
    ["ls -la", "shell ls -la"],
    ["usage", "shell usage"],
    ["/usr/bin/env", "shell /usr/bin/env"],
    ["/help", "shell /help"],
    ["!sh", "command shell"],
    ["!git status", "shell git status"],
    ["!code", "command code"],
    ["cap 2", "shell cap 2"],
    ["!cap 2", "command cap 2"],
    ["quit", "command exit"],
    ["exit", "command exit"],
  ])("%j", (line, expected) => {
    expect(shape(parseInput(line, true))).toBe(expected);
  });
});
