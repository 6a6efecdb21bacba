import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/providers/registry.js";
import { createToolRegistry } from "../../src/tools/index.js";
import { REPO_ROOT } from "../support/run-marvin.js";

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");

/** The `## Configuration` section, up to the next top-level heading. */
function configurationSection(): string {
  const start = README.indexOf("\n## Configuration\n");
  expect(start, "README has a ## Configuration section").toBeGreaterThanOrEqual(0);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** Backticked names in the first column of the section's tables (`A`, `B` / `C` → A, B, C). */
function tableVariables(section: string): string[] {
  const names: string[] = [];
  for (const line of section.split("\n")) {
    if (!line.startsWith("|") || /^\|[-| ]+\|$/.test(line)) continue;
    const firstCell = line.split("|")[1]!;
    names.push(...[...firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
  }
  return names;
}

/** Every backticked SHOUTING_SNAKE name anywhere in the README: settings mentioned in prose count too. */
function proseVariables(): string[] {
  return [...README.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((match) => match[1]!);
}

/** The code under src/ (tests and comments left out: a name only mentioned there is not read). */
function sourceCode(): string {
  const files = readdirSync(join(REPO_ROOT, "src"), { recursive: true, encoding: "utf8" }).filter(
    (path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path),
  );
  return files
    .map((path) => readFileSync(join(REPO_ROOT, "src", path), "utf8"))
    .map((text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, ""))
    .join("\n");
}

describe("the README documents only settings the code reads", () => {
  const code = sourceCode();
  const tables = tableVariables(configurationSection());

  it("finds the configuration tables", () => {
    expect(tables).toEqual(expect.arrayContaining(["LLM_PROVIDER", "GEMINI_API_KEY", "MARVIN_DEPTH", "EDITOR"]));
  });

  it.each([...new Set([...tables, ...proseVariables()])])("%s is read by the code in src/", (name) => {
    expect(code).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

/** Set by Marvin itself rather than by the person, so not a setting to document. */
const NOT_SETTINGS = new Map([["NODE_ENV", "the full-screen UI sets it to production for React's build"]]);

/** Variables the code reads: `env.NAME`, `env["NAME"]`, and the names services and providers declare. */
function variablesRead(code: string): string[] {
  const reads = code.matchAll(
    /\benv\??\.([A-Z][A-Z0-9_]*)\b|\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]|[eE]nv(?:Var)?: "([A-Z][A-Z0-9_]*)"/g,
  );
  return [...new Set([...reads].map((match) => match[1] ?? match[2] ?? match[3]!))].sort();
}

describe("the README documents every setting the code reads", () => {
  const read = variablesRead(sourceCode());

  it("finds the variables the code reads", () => {
    expect(read).toEqual(expect.arrayContaining(["LLM_PROVIDER", "MARVIN_WHISPER_URL", "GROQ_API_KEY", "NO_COLOR"]));
  });

  it.each(read.filter((name) => !NOT_SETTINGS.has(name)))("%s is in the README", (name) => {
    expect(README).toMatch(new RegExp(`\`${name}[\`=]`));
  });
});

describe("the README documents every provider's settings", () => {
  const tables = tableVariables(configurationSection());
  const settings = PROVIDERS.flatMap(({ name, defaults }) =>
    [defaults.modelEnv, defaults.urlEnv, defaults.keyEnv].flatMap((setting) => (setting ? [[name, setting]] : [])),
  );

  it.each(settings)("%s: %s", (_provider, setting) => {
    expect(tables).toContain(setting);
  });
});

describe("package.json", () => {
  it("states no tool count other than the registry's", () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { description: string };
    const { description } = manifest;
    const claimed = /(\d+)\s+tools/.exec(description);
    if (claimed) expect(Number(claimed[1])).toBe(createToolRegistry().names().length);
  });
});
