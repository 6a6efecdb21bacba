import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Imports point one way, from the entry point down to the helpers (see README, "Project
 * layout"). A folder may import from any folder ranked below it, never from one ranked the
 * same or above. Tests are exempt: they wire real pieces together.
 */
const LAYERS: Record<string, number> = {
  cli: 8,
  ui: 7,
  session: 6,
  agent: 5,
  tools: 3,
  providers: 3,
  state: 1,
  workspace: 2,
  shared: 0,
};

const SOURCE_ROOT = resolve(import.meta.dirname, "../../src");
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function topFolder(path: string): string {
  return relative(SOURCE_ROOT, path).split(/[\\/]/)[0]!;
}

/** `from → to` for every import that points sideways or up. */
function upwardImports(): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(SOURCE_ROOT)) {
    const layer = topFolder(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = topFolder(resolve(dirname(file), specifier!));
      if (target === layer) continue;
      const allowed = LAYERS[layer] !== undefined && LAYERS[target] !== undefined && LAYERS[target]! < LAYERS[layer]!;
      if (!allowed) problems.push(`${relative(SOURCE_ROOT, file)} → ${specifier}`);
    }
  }
  return problems;
}

/**
 * src/tools/ holds the shared kit (registry, define-tool, http, html, geo…) and one folder per tool family, each
 * with a folder per domain (tools/places/weather) or the family's domain itself (tools/tickets). Every family may
 * use the kit, and the domains of a family may share code; other families are off limits, and so is every family
 * to the kit.
 */
const KIT = "kit";
const TOOLS_ROOT = join(SOURCE_ROOT, "tools");

function toolFamily(path: string): string | undefined {
  const parts = relative(TOOLS_ROOT, path).split(/[\\/]/);
  return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
}

/** `from → to` for every import from one tool family into another, or from the kit into a family. */
function crossFamilyImports(): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(TOOLS_ROOT)) {
    const family = toolFamily(file);
    if (!family) continue;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = toolFamily(resolve(dirname(file), specifier!));
      if (!target || target === family || target === KIT) continue;
      problems.push(`${relative(SOURCE_ROOT, file)} → ${specifier}`);
    }
  }
  return problems;
}

/** Static imports only (`import … from`, `export … from`, `import "…"`), type-only ones included. */
const STATIC_IMPORT =
  /^\s*(?:import|export)\s[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm;

/** The file a relative specifier names: `./x.js` is `./x.ts` or `./x.tsx` in the sources. */
function importedFile(from: string, specifier: string): string {
  const path = resolve(dirname(from), specifier);
  const stem = path.replace(/\.js$/, "");
  return [`${stem}.ts`, `${stem}.tsx`, path].find((candidate) => existsSync(candidate)) ?? path;
}

/** Every import circle among the source files, each as `a → b → … → a`, found by depth-first search. */
function importCircles(): string[] {
  const files = sourceFiles(SOURCE_ROOT);
  const imports = new Map(
    files.map((file) => [
      file,
      [...readFileSync(file, "utf8").matchAll(STATIC_IMPORT)].map(([, from, bare]) =>
        importedFile(file, (from ?? bare)!),
      ),
    ]),
  );
  const circles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const onPath = path.indexOf(file);
    if (onPath >= 0) {
      circles.push([...path.slice(onPath), file].map((step) => relative(SOURCE_ROOT, step)).join(" → "));
      return;
    }
    if (done.has(file) || !imports.has(file)) return;
    path.push(file);
    for (const target of imports.get(file)!) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of files) visit(file);
  return circles;
}

/** Files of `folder` that import Node's file system: the agent loop decides, the session layer reads and writes. */
function fileSystemImports(folder: string): string[] {
  return sourceFiles(join(SOURCE_ROOT, folder)).filter((file) =>
    /from\s*["']node:fs(?:\/promises)?["']/.test(readFileSync(file, "utf8")),
  );
}

describe("layering", () => {
  it("gives every top-level source folder a layer", () => {
    const folders = readdirSync(SOURCE_ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => LAYERS[name] === undefined)).toEqual([]);
  });

  it("has no import pointing sideways or back up", () => {
    expect(upwardImports()).toEqual([]);
  });

  it("has no import circle (static imports, type-only ones included)", () => {
    expect(importCircles()).toEqual([]);
  });

  it("leaves file I/O out of the agent layer", () => {
    expect(fileSystemImports("agent").map((file) => relative(SOURCE_ROOT, file))).toEqual([]);
  });

  it("keeps tool families apart: shared helpers live in tools/kit, workspace or shared", () => {
    expect(crossFamilyImports()).toEqual([]);
  });
});
