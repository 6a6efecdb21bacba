import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const MAX_LINE = 120;
/** A source file longer than this does more than one job: split it. */
const MAX_SOURCE_LINES = 400;
/** Files kept shorter still: the Session only composes its parts. */
const LINE_LIMITS: Record<string, number> = { "src/session/session.ts": 320 };

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "data" || entry.name === "__snapshots__" ? [] : codeFiles(path);
    return /\.(tsx?|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const FILES = ["src", "tests", "bench", "scripts"].flatMap((dir) => codeFiles(join(ROOT, dir)));
const isTest = (path: string) => /\.test\.tsx?$/.test(path);
const sourceOf = new Map(FILES.map((path) => [path, readFileSync(path, "utf8")]));

describe("code rules", () => {
  // A regular expression literal on a line of its own may run longer: splitting it would hide what it matches.
  it(`keeps lines within ${MAX_LINE} characters`, () => {
    const long: string[] = [];
    for (const [path, text] of sourceOf) {
      text.split("\n").forEach((line, index) => {
        if (line.length > MAX_LINE && !line.trimStart().startsWith("/"))
          long.push(`${relative(ROOT, path)}:${index + 1}`);
      });
    }
    expect(long).toEqual([]);
  });

  it(`keeps every source file under src/ within ${MAX_SOURCE_LINES} lines (session.ts within 320)`, () => {
    const long: string[] = [];
    for (const [path, text] of sourceOf) {
      const name = relative(ROOT, path);
      if (!name.startsWith("src") || isTest(path)) continue;
      const lines = text.trimEnd().split("\n").length;
      if (lines > (LINE_LIMITS[name] ?? MAX_SOURCE_LINES)) long.push(`${name}: ${lines} lines`);
    }
    expect(long).toEqual([]);
  });

  it("exports nothing that no other file uses", () => {
    const declaration =
      /^export (?:declare )?(?:async )?(?:const|let|function\*?|class|type|interface|enum) ([\w$]+)/gm;
    const unused: string[] = [];
    for (const [path, text] of sourceOf) {
      if (!relative(ROOT, path).startsWith("src") || isTest(path)) continue;
      for (const [, name] of text.matchAll(declaration)) {
        const word = new RegExp(`\\b${name!.replace(/\$/g, "\\$")}\\b`);
        const usedElsewhere = [...sourceOf].some(([other, otherText]) => other !== path && word.test(otherText));
        if (!usedElsewhere) unused.push(`${relative(ROOT, path)}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
