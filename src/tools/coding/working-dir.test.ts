import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness, type ToolHarnessOptions } from "../../../tests/support/tool-harness.js";

let home: string;
let project: string;
const open: ToolHarness[] = [];

beforeEach(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), "marvin-wd-")));
  project = join(home, "proj");
  await mkdir(join(project, "src"), { recursive: true });
  await writeFile(join(project, "README.md"), "# proj\n");
  await symlink(project, join(home, "proj-link"));
});

afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  await rm(home, { recursive: true, force: true });
});

async function harness(options: Partial<ToolHarnessOptions> = {}): Promise<ToolHarness> {
  const created = await createToolHarness({ home, codingMode: true, ...options });
  open.push(created);
  return created;
}

describe("set_working_dir / get_working_dir", () => {
  it("starts unset, and file tools say to set it", async () => {
    const tools = await harness();
    expect((await tools.call("get_working_dir", {})).result).toBe(
      "No working dir is set. Call set_working_dir with the project directory.",
    );
    const grep = await tools.call("code_grep", { pattern: "x" });
    expect(grep.isError).toBe(true);
    expect(grep.result).toContain("Call set_working_dir");
  });

  it(
    "sets the real path of an existing directory (relative to home, ~ or absolute) and shows " + "its structure",
    async () => {
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

  it("refuses missing directories and files", async () => {
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

  it("in a non-interactive run, only narrows the working dir the caller chose", async () => {
    const tools = await harness({ nonInteractive: true, workingDir: project });
    expect((await tools.call("set_working_dir", { path: "src" })).isError).toBe(false);
    for (const path of [home, "/", "..", join(home, "proj-link")]) {
      const outcome = await tools.call("set_working_dir", { path });
      expect(outcome.isError).toBe(true);
      expect(outcome.result).toContain("set_working_dir can only move into one of its subdirectories");
    }
    expect(tools.session.workingDir).toBe(join(project, "src"));
  });

  it("is offered only in coding mode", async () => {
    const tools = await harness({ codingMode: false });
    expect((await tools.call("set_working_dir", { path: project })).result).toContain("only available in coding mode");
  });
});
