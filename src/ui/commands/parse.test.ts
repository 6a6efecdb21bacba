import { describe, expect, it } from "vitest";
import { parseInput } from "./parse.js";

describe("parseInput outside shell mode", () => {
  it.each([
    ["", { kind: "empty" }],
    ["   ", { kind: "empty" }],
    ["quit", { kind: "exit" }],
    ["EXIT", { kind: "exit" }],
    ["help", { kind: "help" }],
    ["!help", { kind: "help" }],
    ["!shell", { kind: "toggle-shell" }],
    ["!sh", { kind: "toggle-shell" }],
    ["!code", { kind: "toggle-coding" }],
    ["preferences", { kind: "preferences" }],
    ["Profiles", { kind: "profiles" }],
    ["usage", { kind: "usage" }],
    ["saved", { kind: "saved" }],
    ["!voice", { kind: "unavailable", feature: "voice" }],
    ["!v", { kind: "unavailable", feature: "voice" }],
    ["!v 10", { kind: "unavailable", feature: "voice" }],
    ["!blender", { kind: "unavailable", feature: "blender" }],
    ["!pro explain monads", { kind: "pro", prompt: "explain monads" }],
    ["!pro", { kind: "pro", prompt: "" }],
    ["!model", { kind: "model", args: [] }],
    ["!model  groq   llama-3.1-8b", { kind: "model", args: ["groq", "llama-3.1-8b"] }],
    ["!ls -la", { kind: "shell", command: "ls -la" }],
    ["!vim notes.md", { kind: "shell", command: "vim notes.md" }],
    ["!codex --help", { kind: "shell", command: "codex --help" }],
    ["!", { kind: "shell", command: "" }],
    ["cap", { kind: "cap", daily: false }],
    ["Cap 1.50", { kind: "cap", daily: false, amount: "1.50" }],
    ["cap $2", { kind: "cap", daily: false, amount: "$2" }],
    ["cap off", { kind: "cap", daily: false, amount: "off" }],
    ["cap daily", { kind: "cap", daily: true }],
    ["cap  daily  10", { kind: "cap", daily: true, amount: "10" }],
    ["!cap 3", { kind: "cap", daily: false, amount: "3" }],
    ["!cap deploy production", { kind: "shell", command: "cap deploy production" }],
    ["cap the list at five items", { kind: "message", text: "cap the list at five items" }],
    ["thinking", { kind: "thinking" }],
    ["Thinking high", { kind: "thinking", level: "high" }],
    ["!thinking off", { kind: "thinking", level: "off" }],
    ["thinking about dinner tonight", { kind: "message", text: "thinking about dinner tonight" }],
    ["show my usage please", { kind: "message", text: "show my usage please" }],
    ["  what's the weather?  ", { kind: "message", text: "what's the weather?" }],
  ])("%j", (line, expected) => {
    expect(parseInput(line, false)).toEqual(expected);
  });
});

describe("parseInput in shell mode", () => {
  it.each([
    ["ls -la", { kind: "shell", command: "ls -la" }],
    ["usage", { kind: "shell", command: "usage" }],
    ["!sh", { kind: "toggle-shell" }],
    ["!git status", { kind: "shell", command: "git status" }],
    ["!code", { kind: "toggle-coding" }],
    ["cap 2", { kind: "shell", command: "cap 2" }],
    ["!cap 2", { kind: "cap", daily: false, amount: "2" }],
    ["quit", { kind: "exit" }],
    ["exit", { kind: "exit" }],
  ])("%j", (line, expected) => {
    expect(parseInput(line, true)).toEqual(expected);
  });
});
