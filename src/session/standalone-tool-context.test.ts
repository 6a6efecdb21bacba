import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { configPaths } from "../state/paths.js";
import { createToolRegistry } from "../tools/index.js";
import { createToolContext } from "./standalone-tool-context.js";

const tools = createToolRegistry();

describe("createToolContext", () => {
  test("makes a coding context from a working dir, in which file and shell tools run for real", async ({
    home,
    workspace: project,
  }) => {
    const context = createToolContext({ home, workingDir: project });
    expect(context.mode).toEqual({ codingMode: true, nonInteractive: false, readonly: false });
    const created = await tools.execute("create_file", { path: "a.txt", content: "hello\n" }, context);
    expect(created.isError).toBe(false);
    expect(await readFile(join(project, "a.txt"), "utf8")).toBe("hello\n");
    const ran = await tools.execute("run_command", { command: "cat a.txt" }, context);
    expect(ran).toMatchObject({ isError: false, result: expect.stringContaining("hello") });
  });

  test("makes a chat context without one: notes go to ~/Notes and coding tools are not offered", async ({ home }) => {
    const context = createToolContext({ home });
    expect(context.mode.codingMode).toBe(false);
    expect((await tools.execute("write_note", { path: "pasta", content: "boil water" }, context)).isError).toBe(false);
    expect(await readFile(join(home, "Notes", "pasta.md"), "utf8")).toBe("boil water");
    const refused = await tools.execute("read_file", { path: "a.txt" }, context);
    expect(refused.result).toContain("only available in coding mode");
  });

  test("keeps what tools change: working dir, profile, exit request", async ({ home, workspace: project }) => {
    const context = createToolContext({ home, workingDir: project });
    await mkdir(join(project, "src"));
    await tools.execute("set_working_dir", { path: "src" }, context);
    expect(context.workingDir).toBe(join(project, "src"));
    expect((await tools.execute("switch_profile", { profile_name: "work" }, context)).isError).toBe(false);
    expect(context.profileName).toBe("work");
    expect(await readFile(configPaths(home).lastProfile, "utf8")).toBe("work\n");
    await tools.execute("exit_app", { message: "Bye." }, context);
    expect(context.exitRequested).toBe("Bye.");
  });

  test("lets a sub-agent switch profile without changing the one the user's next session opens", async ({ home }) => {
    const context = createToolContext({ home, mode: { nonInteractive: true } });
    expect(context.mode).toEqual({ codingMode: true, nonInteractive: true, readonly: false });
    await tools.execute("switch_profile", { profile_name: "work" }, context);
    expect(context.profileName).toBe("work");
    await expect(readFile(configPaths(home).lastProfile, "utf8")).rejects.toThrow(/ENOENT/);
  });

  test("writes backups to the working dir's .marvin/logs first, then the profile's logs", ({
    home,
    workspace: project,
  }) => {
    const profileLogs = join(configPaths(home).profilesDir, "main", "logs");
    expect(createToolContext({ home }).backupDirs()).toEqual([profileLogs]);
    const projectLogs = join(project, ".marvin", "logs");
    expect(createToolContext({ home, workingDir: project }).backupDirs()).toEqual([projectLogs, profileLogs]);
  });

  test("approves commands, and has no LLM unless given one", async ({ home }) => {
    const context = createToolContext({ home });
    expect(context.approvals.mode).toBe("never");
    expect(await context.approvals.command("rm -rf build", false)).toBe(true);
    await expect(context.summarize("text", "shorten")).rejects.toThrow("No LLM is available in this tool context");
    const summarizing = createToolContext({ home, summarize: async (text) => `short: ${text.slice(0, 4)}` });
    expect(await summarizing.summarize("long text", "shorten")).toBe("short: long");
  });

  test("passes no credential of this process to tools: only HOME, PATH and what it is given", ({ home }) => {
    const context = createToolContext({ home, env: { MARVIN_WEATHER_URL: "http://127.0.0.1:1" } });
    expect(context.env).toEqual({ HOME: home, PATH: process.env.PATH, MARVIN_WEATHER_URL: "http://127.0.0.1:1" });
  });
});
