import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import type { AgentEvent } from "../../agent/events.js";
import { createAuditLog, formatArguments } from "./audit-log.js";

const test = base.extend<{ dir: string }>({
  dir: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-audit-")),
});

/** A finished call whose arguments were `input` (sent as its JSON text). */
function toolEnd(name: string, input: unknown, result: string, elapsedMs = 42): AgentEvent {
  const args = JSON.stringify(input);
  return {
    type: "tool_end",
    turn: 1,
    callId: `id-${name}`,
    name,
    arguments: args,
    input,
    result,
    isError: false,
    elapsedMs,
  };
}

async function lines(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("formatArguments", () => {
  test("writes key=value pairs joined by ', ' as the original does", () => {
    expect(formatArguments({ path: "src/main.ts", content: "import { App" })).toBe(
      "path=src/main.ts, content=import { App",
    );
    expect(formatArguments({ n: 5, flags: ["a"], opts: { x: true } })).toBe('n=5, flags=["a"], opts={"x":true}');
    expect(formatArguments({})).toBe("");
  });

  test("keeps raw text as it came, and writes other values as JSON", () => {
    expect(formatArguments("*** Begin Patch")).toBe("*** Begin Patch");
    expect(formatArguments([1, 2])).toBe("[1,2]");
  });

  test("cuts the arguments to 200 characters", () => {
    expect(formatArguments({ content: "x".repeat(500) })).toHaveLength(200);
  });
});

describe("createAuditLog (MARVIN_SUBAGENT_LOG)", () => {
  test("appends one JSON line per finished tool call with ts, tool, args, result and elapsed_ms", async ({ dir }) => {
    const path = join(dir, "audit.jsonl");
    await writeFile(path, '{"earlier":"line"}\n');
    const audit = createAuditLog(path, () => undefined);
    audit.listener({ type: "tool_start", turn: 1, callId: "a", name: "create_file", arguments: "{}", input: {} });
    const created = { path: "src/main.ts", content: "import { App } from './app';" };
    audit.listener(toolEnd("create_file", created, "Created src/main.ts (2847 bytes)"));
    audit.listener(toolEnd("run_command", { command: "npm test" }, "r".repeat(1000), 1500));
    await audit.flush();
    const [earlier, first, second] = await lines(path);
    expect(earlier).toEqual({ earlier: "line" });
    expect(Object.keys(first!)).toEqual(["ts", "tool", "args", "result", "elapsed_ms"]);
    expect(first).toMatchObject({
      tool: "create_file",
      args: "path=src/main.ts, content=import { App } from './app';",
      result: "Created src/main.ts (2847 bytes)",
      elapsed_ms: 42,
    });
    expect(first!.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Math.abs(Date.parse(first!.ts as string) - Date.now())).toBeLessThan(60_000);
    expect(second).toMatchObject({
      tool: "run_command",
      args: "command=npm test",
      result: "r".repeat(400),
      elapsed_ms: 1500,
    });
  });

  test("creates the log owner-only: it quotes the conversation", async ({ dir }) => {
    const path = join(dir, "audit.jsonl");
    const audit = createAuditLog(path, () => undefined);
    audit.listener(toolEnd("read_file", { path: "diary.md" }, "Dear diary"));
    await audit.flush();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  test("reports a failing write once and never throws", async ({ dir }) => {
    const warnings: string[] = [];
    const audit = createAuditLog(join(dir, "missing-dir", "audit.jsonl"), (text) => warnings.push(text));
    audit.listener(toolEnd("a", {}, "x"));
    audit.listener(toolEnd("b", {}, "y"));
    await audit.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Cannot write the tool audit log");
  });
});
