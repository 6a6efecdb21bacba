import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const UI_PACKAGES = ["ink", "react", "marked", "string-width"];

/** Module specifiers a file loads when it is evaluated (type-only imports are erased). */
function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s)?[^;]*?\sfrom\s+["']([^"']+)["']/gm))
    if (!match[2]) specifiers.push(match[3]!);
  for (const match of source.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) specifiers.push(match[1]!);
  return specifiers;
}

function sourceFile(from: string, specifier: string): string {
  if (specifier.endsWith(".json")) return resolve(dirname(from), specifier);
  const base = resolve(dirname(from), specifier).replace(/\.js$/, "");
  const file = [".ts", ".tsx"].map((extension) => base + extension).find(existsSync);
  if (!file) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return file;
}

/** Files and packages loaded, statically, by evaluating `entry`. */
function staticClosure(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [join(SRC, entry)];
  while (pending.length) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (file.endsWith(".json")) continue; // data: imports nothing
    for (const specifier of staticImports(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) pending.push(sourceFile(file, specifier));
      else if (!specifier.startsWith("node:"))
        packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);
    }
  }
  return { files: [...files].map((file) => relative(SRC, file)), packages };
}

describe("the TUI is loaded only when it runs", () => {
  it("marvin --version loads nothing but the version lookup", () => {
    expect(staticClosure("cli/marvin.ts").files.sort()).toEqual(["cli/marvin.ts", "shared/version.ts"]);
  });

  it("marvin --version and --non-interactive load no UI library and no TUI module", () => {
    for (const entry of ["cli/main.ts", "ui/headless/run.ts"]) {
      const closure = staticClosure(entry);
      expect(closure.files.length).toBeGreaterThan(1);
      expect(closure.files.filter((file) => file.startsWith("ui/tui/"))).toEqual([]);
      expect(UI_PACKAGES.filter((name) => closure.packages.has(name))).toEqual([]);
    }
  });

  it("the plain UI does not load Ink either", () => {
    const closure = staticClosure("ui/interactive.ts");
    expect(closure.files.filter((file) => file.startsWith("ui/tui/"))).toEqual([]);
    expect(UI_PACKAGES.filter((name) => closure.packages.has(name))).toEqual([]);
  });

  it("the TUI entry loads React and Ink itself, after choosing their production builds", () => {
    const entry = staticClosure("ui/tui/run.ts");
    expect(entry.packages.has("react")).toBe(false);
    expect(entry.packages.has("ink")).toBe(false);
    const screen = staticClosure("ui/tui/start-tui.ts");
    expect(screen.packages.has("ink")).toBe(true);
    expect(screen.packages.has("react")).toBe(true);
  });
});
