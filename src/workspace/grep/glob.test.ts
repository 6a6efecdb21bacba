import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GlobOverrides, globMatches, parseGlob, splitGlobList } from "./glob.js";
import { IgnoreRules } from "./ignore-rules.js";

const matches = (glob: string, path: string, isDirectory = false) => globMatches(parseGlob(glob)!, path, isDirectory);

describe("gitignore-style globs", () => {
  it.each([
    ["*.ts", "src/deep/a.ts", true],
    ["*.ts", "src/a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["/src/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["**/fixtures", "a/b/fixtures", true],
    ["docs/**", "docs/a/b.md", true],
    ["*.{ts,tsx}", "ui/app.tsx", true],
    ["file?.txt", "file1.txt", true],
    ["file[0-9].txt", "file7.txt", true],
    ["file[!0-9].txt", "file7.txt", false],
    ["a*b", "a/b", false],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  it("applies directory-only patterns to directories", () => {
    expect(matches("build/", "build", true)).toBe(true);
    expect(matches("build/", "build", false)).toBe(false);
  });

  it("splits glob lists on commas and spaces outside braces", () => {
    expect(splitGlobList("*.ts, *.{js,mjs} !dist/**")).toEqual(["*.ts", "*.{js,mjs}", "!dist/**"]);
  });

  it("lets the last matching override decide; include globs exclude other files but not directories", () => {
    const overrides = new GlobOverrides(["*.log", "!debug.log"]);
    expect(overrides.decide("app.log", false)).toBe("include");
    expect(overrides.decide("debug.log", false)).toBe("exclude");
    expect(overrides.decide("app.ts", false)).toBe("exclude");
    expect(overrides.decide("src", true)).toBeUndefined();
  });
});

describe("IgnoreRules", () => {
  it("combines nested ignore files, anchoring, negation and .git/info/exclude", async () => {
    const root = await mkdtemp(join(tmpdir(), "marvin-ignore-"));
    try {
      await mkdir(join(root, ".git", "info"), { recursive: true });
      await mkdir(join(root, "pkg", "sub"), { recursive: true });
      await writeFile(join(root, ".git", "info", "exclude"), "secret.txt\n");
      await writeFile(join(root, ".gitignore"), "# comment\n*.log\n/dist\ntmp/\n!important.log\n");
      await writeFile(join(root, "pkg", ".gitignore"), "generated.ts\n!keep.log\n");
      const rules = await IgnoreRules.forDirectory(root, "pkg/sub");
      expect(rules.ignores("pkg/sub/x.log", false)).toBe(true);
      expect(rules.ignores("pkg/sub/keep.log", false)).toBe(false);
      expect(rules.ignores("pkg/sub/generated.ts", false)).toBe(true);
      expect(rules.ignores("pkg/sub/secret.txt", false)).toBe(true);
      expect(rules.ignores("pkg/sub/dist", true)).toBe(false);
      expect(rules.ignores("pkg/sub/tmp", true)).toBe(true);
      expect(rules.ignores("pkg/sub/tmp", false)).toBe(false);
      const top = await IgnoreRules.forDirectory(root, "");
      expect(top.ignores("dist", true)).toBe(true);
      expect(top.ignores("important.log", false)).toBe(false);
      expect(top.ignores("generated.ts", false)).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
