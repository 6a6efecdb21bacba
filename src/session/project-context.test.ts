import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { instructionCandidates, loadProjectContext } from "./project-context.js";

/** `outside`: a folder outside the working dir, with credentials in it. */
const test = base.extend<{ outside: string }>({
  outside: async ({ tempDirs }, use) => {
    const outside = await tempDirs.make("marvin-outside-");
    await writeFile(join(outside, "credentials"), "aws_secret_access_key = hunter2\n");
    await use(outside);
  },
});

async function put(path: string, content: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, content);
}

const homeInstructions = (home: string, project: string) =>
  join(home, ".marvin", "instructions", `${project.slice(1)}.md`);

describe("instructionCandidates", () => {
  test("looks in .marvin-instructions, .marvin/instructions.md, then ~/.marvin/instructions/<path>.md", () => {
    expect(instructionCandidates("/home/ada/app/", "/home/ada")).toEqual([
      "/home/ada/app/.marvin-instructions",
      "/home/ada/app/.marvin/instructions.md",
      "/home/ada/.marvin/instructions/home/ada/app.md",
    ]);
  });
});

describe("loadProjectContext", () => {
  test("finds nothing in an empty project", async ({ home, workspace: project }) => {
    expect(await loadProjectContext(project, home)).toEqual({
      instructions: undefined,
      agentInstructions: [],
      documents: [],
      warnings: [],
    });
  });

  test("prefers .marvin-instructions over the other places", async ({ home, workspace: project }) => {
    await put(join(project, ".marvin-instructions"), "from the project root");
    await put(join(project, ".marvin", "instructions.md"), "from .marvin");
    await put(homeInstructions(home, project), "from home");
    expect((await loadProjectContext(project, home)).instructions).toEqual({
      name: join(project, ".marvin-instructions"),
      content: "from the project root",
    });
  });

  test("falls back to .marvin/instructions.md, then to the per-path file in the home directory", async ({
    home,
    workspace: project,
  }) => {
    await put(homeInstructions(home, project), "from home");
    expect((await loadProjectContext(project, home)).instructions).toEqual({
      name: homeInstructions(home, project),
      content: "from home",
    });
    await put(join(project, ".marvin", "instructions.md"), "from .marvin");
    expect((await loadProjectContext(project, home)).instructions?.content).toBe("from .marvin");
  });

  test("skips an empty instructions file", async ({ home, workspace: project }) => {
    await put(join(project, ".marvin-instructions"), "  \n");
    await put(join(project, ".marvin", "instructions.md"), "real ones");
    expect((await loadProjectContext(project, home)).instructions?.content).toBe("real ones");
  });

  test("loads .marvin/spec.md, ux.md and design.md in that order when present", async ({
    home,
    workspace: project,
  }) => {
    await put(join(project, ".marvin", "design.md"), "# Design");
    await put(join(project, ".marvin", "spec.md"), "# Spec");
    expect((await loadProjectContext(project, home)).documents).toEqual([
      { name: ".marvin/spec.md", content: "# Spec" },
      { name: ".marvin/design.md", content: "# Design" },
    ]);
  });

  test("cuts a huge document and says so", async ({ home, workspace: project }) => {
    await put(join(project, ".marvin", "spec.md"), "s".repeat(50_000));
    const [spec] = (await loadProjectContext(project, home)).documents;
    expect(spec!.content).toBe(`${"s".repeat(40_000)}\n[… truncated; read the file for the rest]`);
  });
});

describe("AGENTS.md and CLAUDE.md", () => {
  test("reads them from the repository root down to the working dir, CLAUDE.md where AGENTS.md is missing", async ({
    home,
    workspace: repository,
  }) => {
    execFileSync("git", ["init", "-q", repository]);
    const workingDir = join(repository, "packages", "app");
    await put(join(repository, "AGENTS.md"), "root rules");
    await put(join(repository, "CLAUDE.md"), "not read: AGENTS.md is there");
    await put(join(repository, "packages", "CLAUDE.md"), "packages rules");
    await put(join(workingDir, "AGENTS.md"), "app rules");
    expect((await loadProjectContext(workingDir, home)).agentInstructions).toEqual([
      { name: join(repository, "AGENTS.md"), content: "root rules" },
      { name: join(repository, "packages", "CLAUDE.md"), content: "packages rules" },
      { name: join(workingDir, "AGENTS.md"), content: "app rules" },
    ]);
  });

  test("outside a repository only the working dir's own counts", async ({ home, workspace: parent }) => {
    const workingDir = join(parent, "app");
    await put(join(parent, "AGENTS.md"), "parent rules");
    await put(join(workingDir, "CLAUDE.md"), "app rules");
    expect((await loadProjectContext(workingDir, home)).agentInstructions).toEqual([
      { name: join(workingDir, "CLAUDE.md"), content: "app rules" },
    ]);
  });

  test("never reads an AGENTS.md that is a symlink leading out of the repository", async ({
    home,
    workspace: project,
    outside,
  }) => {
    execFileSync("git", ["init", "-q", project]);
    await symlink(join(outside, "credentials"), join(project, "AGENTS.md"));
    await put(join(project, "CLAUDE.md"), "not read either: AGENTS.md is there");
    const context = await loadProjectContext(project, home);
    expect(context.agentInstructions).toEqual([]);
    expect(JSON.stringify(context)).not.toContain("hunter2");
    expect(context.warnings).toEqual([
      expect.stringMatching(/^Not loading AGENTS\.md into the system prompt: .*outside the working dir/),
    ]);
  });
});

describe("loadProjectContext through the sandbox", () => {
  test("never reads a file a symlink leads out to, and says which one it skipped", async ({
    home,
    workspace: project,
    outside,
  }) => {
    await mkdir(join(project, ".marvin"));
    await symlink(join(outside, "credentials"), join(project, ".marvin", "spec.md"));
    await symlink(join(outside, "credentials"), join(project, ".marvin-instructions"));
    await symlink("../../outside-dir/x.md", join(project, ".marvin", "ux.md"));
    await put(join(project, ".marvin", "instructions.md"), "real ones");
    const context = await loadProjectContext(project, home);
    expect(JSON.stringify(context.documents)).not.toContain("hunter2");
    expect(context.documents).toEqual([]);
    expect(context.instructions).toEqual({ name: join(project, ".marvin", "instructions.md"), content: "real ones" });
    expect(context.warnings).toHaveLength(3);
    expect(context.warnings[0]).toMatch(
      /^Not loading \.marvin-instructions into the system prompt: .*symbolic link.*outside the working dir/,
    );
    expect(context.warnings[1]).toContain(".marvin/spec.md");
    expect(context.warnings[2]).toContain(".marvin/ux.md");
  });

  test("never reads through a .marvin folder that is itself a symlink leading out", async ({
    home,
    workspace: project,
    outside,
  }) => {
    await writeFile(join(outside, "spec.md"), "secret spec");
    await writeFile(join(outside, "instructions.md"), "secret instructions");
    await symlink(outside, join(project, ".marvin"));
    const context = await loadProjectContext(project, home);
    expect(context.instructions).toBeUndefined();
    expect(context.documents).toEqual([]);
    expect(context.warnings.join("\n")).toContain("outside the working dir");
  });

  test("skips a FIFO, a directory and a device without opening them", async ({ home, workspace: project }) => {
    await mkdir(join(project, ".marvin", "design.md"), { recursive: true });
    execFileSync("mkfifo", [join(project, ".marvin", "spec.md")]);
    execFileSync("mkfifo", [join(project, ".marvin-instructions")]);
    await symlink("/dev/zero", join(project, ".marvin", "ux.md"));
    const context = await loadProjectContext(project, home);
    expect(context).toMatchObject({ instructions: undefined, documents: [] });
    expect(context.warnings).toEqual([
      expect.stringContaining(".marvin-instructions is a named pipe (FIFO), not a regular file"),
      expect.stringContaining(".marvin/spec.md is a named pipe (FIFO), not a regular file"),
      expect.stringMatching(/\.marvin\/ux\.md.*outside the working dir/),
      expect.stringContaining(".marvin/design.md is a directory, not a regular file"),
    ]);
  });

  test(
    "follows symlinks that stay inside the working dir, and reads the user's own home instructions " +
      "wherever they link",
    async ({ home, workspace: project, outside }) => {
      await put(join(project, "docs", "spec.md"), "# Spec kept in docs");
      await mkdir(join(project, ".marvin"), { recursive: true });
      await symlink("../docs/spec.md", join(project, ".marvin", "spec.md"));
      await mkdir(join(homeInstructions(home, project), ".."), { recursive: true });
      await writeFile(join(outside, "mine.md"), "my own instructions");
      await symlink(join(outside, "mine.md"), homeInstructions(home, project));
      const context = await loadProjectContext(project, home);
      expect(context.documents).toEqual([{ name: ".marvin/spec.md", content: "# Spec kept in docs" }]);
      expect(context.instructions).toEqual({ name: homeInstructions(home, project), content: "my own instructions" });
      expect(context.warnings).toEqual([]);
    },
  );
});
