import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above this file with a package.json (also right when compiled for bench/). */
function findRepoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
/** The bundled CLI, exactly what `npm link` installs. */
export const MARVIN_BIN = join(REPO_ROOT, "dist", "bin", "marvin.js");
/** Recorded fixtures of the conformance tests (tests/conformance/data/README.md). */
export const CONFORMANCE_DATA = join(REPO_ROOT, "tests", "conformance", "data");

export interface MarvinRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stderr lines without the trailing empty one. */
  stderrLines: string[];
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  cwd?: string;
  timeoutMs?: number;
  /** Another marvin.js to run (an installed package's); default MARVIN_BIN. */
  bin?: string;
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = "marvin-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Env for a marvin child talking to a scripted server: nothing inherited but PATH. */
export function serverEnv(
  url: string,
  home: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LLM_PROVIDER: "openai-compat",
    OPENAI_COMPAT_URL: url,
    OPENAI_COMPAT_API_KEY: "test-key",
    OPENAI_COMPAT_MODEL: "gpt-4o-mini",
    // Language servers only where a test asks for them: others write code files without waiting for one.
    MARVIN_LSP: "off",
    ...extra,
  };
}

/** Spawns the built `marvin` as a user would, collecting its output and exit code. */
export function runMarvin(args: string[], options: RunOptions = {}): Promise<MarvinRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [options.bin ?? MARVIN_BIN, ...args], {
      cwd: options.cwd,
      env: (options.env ?? { PATH: process.env.PATH }) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `marvin ${args.join(" ")} did not exit within ${options.timeoutMs ?? 30_000} ms\nstdout: ` +
            `${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({
        code,
        stdout,
        stderr,
        stderrLines: stderr.split("\n").filter((line, index, all) => line !== "" || index < all.length - 1),
      });
    });
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  });
}

/** Parses the MARVIN_COST line, asserting it is the last line of stderr. */
export function costOf(run: MarvinRun): Record<string, unknown> & {
  session_cost: number;
  llm_turns: number;
  model_turns: Record<string, number>;
  model_cost: Record<string, number>;
} {
  const last = run.stderrLines.at(-1) ?? "";
  if (!last.startsWith("MARVIN_COST:"))
    throw new Error(`last stderr line is not MARVIN_COST: ${JSON.stringify(last)}\nstderr: ${run.stderr}`);
  return JSON.parse(last.slice("MARVIN_COST:".length));
}

/** Output with the durations of tool calls (` · 0.1s · `) written as ` · …s · `, so it can be compared exactly. */
export function steadyTimings(text: string): string {
  return text.replace(/ · \d+\.\ds · /g, " · …s · ");
}
