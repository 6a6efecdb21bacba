import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { LlmServer } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** A project in `base` with links leading out of it to a sibling folder, `evil`. */
function projectWithEscapes(base: string): { project: string; evil: string } {
  const project = join(base, "proj");
  const evil = join(base, "proj-evil");
  mkdirSync(join(project, ".tickets"), { recursive: true });
  mkdirSync(evil);
  writeFileSync(join(evil, "secret.txt"), "top secret\n");
  symlinkSync(evil, join(project, "vendor"));
  symlinkSync(join(evil, "secret.txt"), join(project, "config.txt"));
  symlinkSync(join(evil, "planted.txt"), join(project, "log.txt"));
  return { project, evil };
}

/** The tool result the model received for `callId`, as recorded by the scripted server. */
function toolResultSent(server: LlmServer, callId: string): string {
  for (const request of server.requests) {
    const message = request.body.messages.find(
      (candidate) => candidate.role === "tool" && candidate.tool_call_id === callId,
    );
    if (message) return message.content ?? "";
  }
  throw new Error(`no tool result for ${callId} was sent to the model`);
}

const codexPatch = [
  "*** Begin Patch",
  "*** Update File: src/app.js",
  "@@",
  "-  return a + b;",
  "+  return a + b + c;",
  "*** Add File: src/extra.js",
  "+export const extra = true;",
  "*** End Patch",
].join("\n");

/** One call per way out of the sandbox, with the problem its result must name. */
const escapesFrom = (evil: string) => [
  {
    id: "esc_abs",
    name: "read_file",
    arguments: { path: join(evil, "secret.txt") },
    problem: "Absolute paths not allowed",
  },
  {
    id: "esc_dotdot",
    name: "read_file",
    arguments: { path: "../proj-evil/secret.txt" },
    problem: "Path traversal not allowed",
  },
  {
    id: "esc_dir_link",
    name: "create_file",
    arguments: { path: "vendor/dropped.txt", content: "x" },
    problem: "points outside",
  },
  {
    id: "esc_file_link",
    name: "apply_patch",
    arguments: { path: "config.txt", old_str: "top secret", new_str: "leaked" },
    problem: "points outside",
  },
  {
    id: "esc_dangling",
    name: "append_file",
    arguments: { path: "log.txt", content: "planted\n" },
    problem: "points outside",
  },
  {
    id: "esc_codex_move",
    name: "apply_patch",
    arguments: { input: "*** Begin Patch\n*** Add File: ../proj-evil/new.txt\n+x\n*** End Patch" },
    problem: "Path traversal not allowed",
  },
  {
    id: "esc_tickets",
    name: "create_file",
    arguments: { path: ".tickets/t-1.md", content: "x" },
    problem: "Use the ticket tools",
  },
];

describe("coding-mode file tools end to end", () => {
  test("creates, patches (both formats) and reads files, and refuses every sandbox escape", async ({
    tempDirs,
    llm,
  }) => {
    const base = await tempDirs.make("marvin-coding-files-");
    const { project, evil } = projectWithEscapes(base);
    const escapes = escapesFrom(evil);
    const server = await llm([
      {
        toolCalls: [
          {
            id: "call_create",
            name: "create_file",
            arguments: { path: "src/app.js", content: "export function add(a, b) {\n  return a + b;\n}\n" },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "call_replace",
            name: "apply_patch",
            arguments: { path: "src/app.js", old_str: "function add(a, b)", new_str: "function add(a, b, c = 0)" },
          },
        ],
      },
      { toolCalls: [{ id: "call_codex", name: "apply_patch", arguments: codexPatch }] },
      {
        toolCalls: [
          { id: "call_read", name: "read_file", arguments: { path: "src/app.js", start_line: 1, end_line: 2 } },
        ],
      },
      { toolCalls: escapes.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) },
      { text: "All done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "Write the add function"], {
      env: serverEnv(server.url, join(base, "home")),
      cwd: base,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("All done.");
    expect(readFileSync(join(project, "src/app.js"), "utf8")).toBe(
      "export function add(a, b, c = 0) {\n  return a + b + c;\n}\n",
    );
    expect(readFileSync(join(project, "src/extra.js"), "utf8")).toBe("export const extra = true;\n");
    expect(toolResultSent(server, "call_create")).toContain("Created src/app.js");
    expect(toolResultSent(server, "call_codex")).toBe(
      "Success. Updated the following files:\nA src/extra.js\nM src/app.js",
    );
    expect(toolResultSent(server, "call_read")).toBe(
      "1. export function add(a, b, c = 0) {\n2.   return a + b + c;\n\n[Lines 1-2 of 3.]",
    );

    for (const attempt of escapes) expect(toolResultSent(server, attempt.id), attempt.id).toContain(attempt.problem);
    expect(toolResultSent(server, "esc_abs")).toContain(`Working dir: ${project}`);
    expect(readFileSync(join(evil, "secret.txt"), "utf8")).toBe("top secret\n");
    for (const name of ["dropped.txt", "planted.txt", "new.txt"])
      expect(existsSync(join(evil, name)), name).toBe(false);
    expect(existsSync(join(project, ".tickets", "t-1.md"))).toBe(false);
  });
});
