import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { ToolHarnessPool } from "../../tests/support/tool-harness.js";
import { configPaths } from "../state/paths.js";
import { createToolRegistry } from "./index.js";
import { type AnyToolDef, TOOL_EFFECTS, type ToolMode } from "./kit/define-tool.js";

const everyTool = async (): Promise<AnyToolDef[]> => {
  const registry = createToolRegistry();
  return Promise.all(registry.names().map(async (name) => (await registry.definition(name))!));
};

const READ_ONLY_MODES: ToolMode[] = [
  { codingMode: true, nonInteractive: true, readonly: true },
  { codingMode: true, nonInteractive: false, readonly: true },
  { codingMode: false, nonInteractive: false, readonly: true },
];

// Which tools each mode offers, read-only included, is pinned by the reviewed schema snapshot (tool-schemas.test.ts).
describe("every tool declares what it changes", () => {
  it("has an effect: read, session, write, or a function of the arguments", async () => {
    const tools = await everyTool();
    expect(tools.length).toBeGreaterThan(40);
    for (const tool of tools) {
      const declared = typeof tool.effect === "function" || TOOL_EFFECTS.includes(tool.effect);
      expect(declared, `${tool.name}: ${String(tool.effect)}`).toBe(true);
    }
  });

  it("offers a read-only agent only the tools declared not to write, in every mode", async () => {
    const registry = createToolRegistry();
    const effects = new Map((await everyTool()).map((tool) => [tool.name, tool.effect]));
    for (const mode of READ_ONLY_MODES) {
      const offered = registry.schemas(mode).map((schema) => schema.function.name);
      const fitting = registry.names({ ...mode, readonly: false });
      const declaredNotWriting = fitting.filter((name) => effects.get(name) !== "write");
      expect(offered).toEqual(declaredNotWriting);
    }
  });
});

const dirs = new TempDirs();
const harnesses = new ToolHarnessPool();
let home: string;
let project: string;

beforeEach(async () => {
  const base = await dirs.make("marvin-readonly-");
  home = join(base, "home");
  project = join(base, "project");
  await mkdir(home);
  await mkdir(project);
});

afterEach(async () => {
  await harnesses.closeAll();
  await dirs.cleanup();
});

/** Every file and folder under `dir` with its content, to compare before and after. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    result[path] = entry.isFile() ? await readFile(path, "utf8") : entry.isDirectory() ? "(dir)" : "(other)";
  }
  return result;
}

describe("a read-only agent", () => {
  it("is refused the tools that used to leak, and nothing on disk or in the user's state changes", async () => {
    const writer = await harnesses.open({ home, workingDir: project, codingMode: true });
    await writer.ok("write_note", { path: "plan.md", content: "one\ntwo\n" });
    const ticket = /^Created ticket (\S+):/.exec(await writer.ok("create_ticket", { title: "Existing" }))![1]!;
    await writer.ok("create_ticket", { title: "Other" });
    await writer.ok("save_place", { label: "home", address: "1 Main St" });
    await writeFile(configPaths(home).lastProfile, "main\n");

    const before = { home: await snapshot(home), project: await snapshot(project) };
    const reviewer = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      nonInteractive: true,
      readonly: true,
    });
    const offered = createToolRegistry()
      .schemas(reviewer.session.mode)
      .map((schema) => schema.function.name);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["write_note", { path: "plan.md", content: "overwritten" }],
      ["notes_mkdir", { path: "new-folder" }],
      ["file_apply_patch", { path: "plan.md", patch: "DELETE 1" }],
      ["create_ticket", { title: "From the reviewer" }],
      ["ticket_start", { ticket_id: ticket }],
      ["ticket_close", { ticket_id: ticket }],
      ["ticket_add_note", { ticket_id: ticket, note: "reviewed" }],
      ["ticket_add_dep", { ticket_id: ticket, depends_on: "Other" }],
      ["save_place", { label: "work", address: "2 Side St" }],
      ["remove_place", { label: "home" }],
      ["update_preferences", { key: "budget", value: "high" }],
      ["switch_profile", { profile_name: "reviewer" }],
      ["compact_history", { target_tokens: 200 }],
      ["review_codebase", {}],
      ["create_file", { path: "new.txt", content: "x" }],
      ["run_command", { command: "touch ran.txt" }],
    ];
    for (const [name, args] of attempts) {
      expect(offered, name).not.toContain(name);
      const outcome = await reviewer.call(name, args);
      const refusal = `${name} is disabled: this is a read-only agent (MARVIN_READONLY=1)`;
      expect(outcome, name).toEqual({ isError: true, result: expect.stringContaining(refusal) });
    }
    expect(await reviewer.failure("git_branch", { name: "topic" })).toContain(
      "git_branch was refused: this is a read-only agent",
    );
    expect(reviewer.session.profileName).toBe("main");
    expect({ home: await snapshot(home), project: await snapshot(project) }).toEqual(before);
  });

  it("still reads notes, tickets and places", async () => {
    const writer = await harnesses.open({ home, workingDir: project, codingMode: true });
    await writer.ok("write_note", { path: "plan.md", content: "the plan\n" });
    await writer.ok("create_ticket", { title: "Existing" });
    await writer.ok("save_place", { label: "home", address: "1 Main St" });
    const reviewer = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      nonInteractive: true,
      readonly: true,
    });
    expect(await reviewer.ok("read_note", { path: "plan.md" })).toBe("the plan\n");
    expect(await reviewer.ok("ticket_list", {})).toContain("Existing");
    expect(await reviewer.ok("list_places", {})).toContain("1 Main St");
    expect(await reviewer.ok("timer_start", { name: "review" })).toBe("Stopwatch 'review' started.");
  });
});
