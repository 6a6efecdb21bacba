import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxLayout } from "./layout.js";
import { sandboxSettings } from "./settings.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(...parts: string[]): string {
  const path = join(...parts);
  mkdirSync(path, { recursive: true });
  return path;
}

describe("the sandbox layout", () => {
  it("puts back toolchains on PATH in /tmp: a node_modules for its .bin, a whole folder only outside the home", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "marvin-layout-")));
    made.push(root);
    const home = folder(root, "home");
    const project = folder(home, "proj");
    const nodeBin = folder(root, "repo", "node_modules", ".bin");
    const localBin = folder(home, ".local", "bin");
    const env = { HOME: home, PATH: `${nodeBin}:${localBin}:/usr/bin` };
    const layout = sandboxLayout(sandboxSettings(env, home), {
      cwd: project,
      writableRoot: project,
      tempDir: folder(root, "temp"),
      home,
      env,
    });
    expect(layout.emptied).toContain(realpathSync(tmpdir()));
    expect(layout.readable).toEqual(expect.arrayContaining([join(root, "repo", "node_modules"), localBin]));
    expect(layout.readable).not.toContain(join(home, ".local"));
  });
});
