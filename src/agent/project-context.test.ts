import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { instructionCandidates, loadProjectContext } from "./project-context.js";

const dirs = new TempDirs();
let home: string;
let project: string;

beforeEach(async () => {
  home = await dirs.make("marvin-home-");
  project = await dirs.make("marvin-project-");
});
afterEach(() => dirs.cleanup());

async function put(path: string, content: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, content);
}

const homeInstructions = () => join(home, ".marvin", "instructions", `${project.slice(1)}.md`);

describe("instructionCandidates", () => {
  it("looks in .marvin-instructions, .marvin/instructions.md, then ~/.marvin/instructions/<path>.md", () => {
    expect(instructionCandidates("/home/ada/app/", "/home/ada")).toEqual([
      "/home/ada/app/.marvin-instructions",
      "/home/ada/app/.marvin/instructions.md",
      "/home/ada/.marvin/instructions/home/ada/app.md",
    ]);
  });
});

describe("loadProjectContext", () => {
  it("finds nothing in an empty project", async () => {
    expect(await loadProjectContext(project, home)).toEqual({ instructions: undefined, documents: [] });
  });

  it("prefers .marvin-instructions over the other places", async () => {
    await put(join(project, ".marvin-instructions"), "from the project root");
    await put(join(project, ".marvin", "instructions.md"), "from .marvin");
    await put(homeInstructions(), "from home");
    expect((await loadProjectContext(project, home)).instructions).toEqual({ name: join(project, ".marvin-instructions"), content: "from the project root" });
  });

  it("falls back to .marvin/instructions.md, then to the per-path file in the home directory", async () => {
    await put(homeInstructions(), "from home");
    expect((await loadProjectContext(project, home)).instructions).toEqual({ name: homeInstructions(), content: "from home" });
    await put(join(project, ".marvin", "instructions.md"), "from .marvin");
    expect((await loadProjectContext(project, home)).instructions?.content).toBe("from .marvin");
  });

  it("skips an empty instructions file", async () => {
    await put(join(project, ".marvin-instructions"), "  \n");
    await put(join(project, ".marvin", "instructions.md"), "real ones");
    expect((await loadProjectContext(project, home)).instructions?.content).toBe("real ones");
  });

  it("loads .marvin/spec.md, ux.md and design.md in that order when present", async () => {
    await put(join(project, ".marvin", "design.md"), "# Design");
    await put(join(project, ".marvin", "spec.md"), "# Spec");
    expect((await loadProjectContext(project, home)).documents).toEqual([
      { name: ".marvin/spec.md", content: "# Spec" },
      { name: ".marvin/design.md", content: "# Design" },
    ]);
  });

  it("cuts a huge document and says so", async () => {
    await put(join(project, ".marvin", "spec.md"), "s".repeat(50_000));
    const [spec] = (await loadProjectContext(project, home)).documents;
    expect(spec!.content).toBe(`${"s".repeat(40_000)}\n[… truncated; read the file for the rest]`);
  });
});
