import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";

const test = base.extend<{
  /** Holds proj/ (with src/ and README.md) and proj-link, a symlink to it. */
  home: string;
  project: string;
  /** A coding session over `home`. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  home: async ({ tempDirs }, use) => {
    const home = await tempDirs.make("marvin-wd-");
    await mkdir(join(home, "proj", "src"), { recursive: true });
    await writeFile(join(home, "proj", "README.md"), "# proj\n");
    await symlink(join(home, "proj"), join(home, "proj-link"));
    await use(home);
  },
  project: async ({ home }, use) => use(join(home, "proj")),
  harness: async ({ harnesses, home }, use) =>
    use((options = {}) => harnesses.open({ home, codingMode: true, ...options })),
});

describe("set_working_dir / get_working_dir", () => {
  test("starts unset, and file tools say to set it", async ({ harness }) => {
    const tools = await harness();
    expect((await tools.call("get_working_dir", {})).result).toBe(
      "No working dir is set. Call set_working_dir with the project directory.",
    );
    const grep = await tools.call("code_grep", { pattern: "x" });
    expect(grep.isError).toBe(true);
    expect(grep.result).toContain("Call set_working_dir");
  });

  test(
    "sets the real path of an existing directory (relative to home, ~ or absolute) and shows " + "its structure",
    async ({ project, harness }) => {
      const tools = await harness();
      const outcome = await tools.call("set_working_dir", { path: "proj-link" });
      expect(outcome.result).toBe(`Working dir set to ${project}\n\nProject structure:\nsrc/\nREADME.md`);
      expect(tools.session.workingDir).toBe(project);
      expect((await tools.call("get_working_dir", {})).result).toBe(`Working dir: ${project}`);
      await tools.call("set_working_dir", { path: "src" });
      expect(tools.session.workingDir).toBe(join(project, "src"));
      await tools.call("set_working_dir", { path: "~/proj" });
      expect(tools.session.workingDir).toBe(project);
    },
  );

  test("refuses missing directories and files", async ({ home, project, harness }) => {
    const tools = await harness();
    const missing = await tools.call("set_working_dir", { path: join(home, "nope") });
    expect(missing).toEqual({
      isError: true,
      result:
        `Error in set_working_dir: ${join(home, "nope")} does not exist. Give an existing directory (absolute, ` +
        `or relative to ${home}).`,
    });
    const file = await tools.call("set_working_dir", { path: join(project, "README.md") });
    expect(file.result).toContain("is a file, not a directory");
    expect(tools.session.workingDir).toBeNull();
  });

  test("in a non-interactive run, only narrows the working dir the caller chose", async ({
    home,
    project,
    harness,
  }) => {
    const tools = await harness({ nonInteractive: true, workingDir: project });
    expect((await tools.call("set_working_dir", { path: "src" })).isError).toBe(false);
    for (const path of [home, "/", "..", join(home, "proj-link")]) {
      const outcome = await tools.call("set_working_dir", { path });
      expect(outcome.isError).toBe(true);
      expect(outcome.result).toContain("set_working_dir can only move into one of its subdirectories");
    }
    expect(tools.session.workingDir).toBe(join(project, "src"));
  });

  test("is offered only in coding mode", async ({ project, harness }) => {
    const tools = await harness({ codingMode: false });
    expect((await tools.call("set_working_dir", { path: project })).result).toContain("only available in coding mode");
  });
});
