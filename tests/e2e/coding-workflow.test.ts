import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { contextNoteOf, type RecordedRequest, userWords } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** Pids of the processes whose working directory is `dir` (the language servers Marvin started there). */
function processesIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const toolsOf = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.function.name);
const lastUserWords = (request: RecordedRequest) => userWords(request.body.messages.at(-1)!.content);

describe("plan mode in the plain UI (built marvin, stdin)", () => {
  test("offers no tool that writes until the plan is approved, then carries it out", async ({ llm, home }) => {
    const project = join(home, "proj");
    mkdirSync(project);
    const server = await llm([
      { text: "Plan:\n1. Create notes.txt" },
      { text: "Plan:\n1. Create notes.txt with 'hello'" },
      {
        text: "Creating it.",
        toolCalls: [{ id: "w1", name: "create_file", arguments: { path: "notes.txt", content: "hello\n" } }],
      },
      { text: "Done." },
    ]);
    const stdin = ["plan", "make a notes file", "say hello in it", "plan approve", "quit", ""].join("\n");
    const run = await runMarvin(["--plain", "--working-dir", project], {
      env: serverEnv(server.url, home),
      cwd: project,
      stdin,
      timeoutMs: 60_000,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Plan mode on: Marvin only looks");
    expect(run.stdout).toContain("plan> make a notes file");
    expect(run.stdout).toContain("Plan approved: Marvin carries it out with every tool.");
    const [first, second, approved, afterTool] = server.requests;
    for (const planning of [first!, second!]) {
      expect(toolsOf(planning)).toContain("read_file");
      for (const writer of ["create_file", "append_file", "apply_patch", "run_command"])
        expect(toolsOf(planning)).not.toContain(writer);
      expect(contextNoteOf(planning.body.messages.at(-1)!.content)).toContain("Plan mode is on");
    }
    expect(lastUserWords(second!)).toBe("say hello in it");
    expect(lastUserWords(approved!)).toBe("The plan is approved. Carry it out now.");
    expect(toolsOf(approved!)).toEqual(expect.arrayContaining(["create_file", "apply_patch", "run_command"]));
    expect(afterTool!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "w1" });
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("hello\n");
  });
});

describe("diagnostics after edits (built marvin, real typescript-language-server)", () => {
  test("the tool result of create_file carries the compiler's error", { timeout: 120_000 }, async ({ llm, home }) => {
    const project = join(home, "ts-proj");
    mkdirSync(project);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    const server = await llm([
      {
        text: "",
        toolCalls: [
          { id: "c1", name: "create_file", arguments: { path: "a.ts", content: "export const a: number = 'x';\n" } },
        ],
      },
      { text: "Written." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "write a.ts"], {
      env: serverEnv(server.url, home, { MARVIN_LSP: "on", MARVIN_LSP_WAIT: "40" }),
      cwd: project,
      timeoutMs: 100_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = server.requests[1]!.body.messages.find((message) => message.tool_call_id === "c1")!.content;
    expect(result).toMatch(/a\.ts:1:14: Type 'string' is not assignable to type 'number'\. \(typescript 2322\)/);
    expect(existsSync(join(project, "a.ts"))).toBe(true);
    expect(processesIn(project)).toEqual([]); // the server and its tsserver processes ended with marvin
  });
});
