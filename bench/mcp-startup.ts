// Time from starting `marvin --plain` to its welcome line, without MCP servers and with three stdio MCP servers
// configured (the dictionary server of the tests, built with the official SDK), in turns. Servers start in the
// background, so the two should not differ.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { WELCOME_HINT } from "../src/ui/commands/welcome-hint.js";
import { MARVIN_BIN, REPO_ROOT } from "../tests/support/run-marvin.js";
import { alternate, within } from "./limits.js";
import { median, reportRatio } from "./stats.js";

const RUNS = 9;
const SERVER_SCRIPT = join(REPO_ROOT, "tests", "support", "mcp-dictionary-server.mjs");
const START_LIMIT_MS = 20_000;

function makeHome(servers: number): string {
  const home = mkdtempSync(join(tmpdir(), "marvin-bench-mcp-"));
  const config = join(home, ".config", "local-finder");
  mkdirSync(config, { recursive: true });
  if (servers > 0) {
    const entry = { command: process.execPath, args: [SERVER_SCRIPT, "stdio"] };
    const mcpServers = Object.fromEntries(Array.from({ length: servers }, (_, index) => [`dict${index}`, entry]));
    writeFileSync(join(config, "mcp.json"), JSON.stringify({ mcpServers }));
  }
  return home;
}

/**
 * Milliseconds until the plain UI's welcome line, which ends with WELCOME_HINT, is on stdout (without a terminal
 * the prompt itself is drawn only once input arrives; the welcome line comes right before it); then `/exit`.
 */
async function timeToWelcome(home: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [MARVIN_BIN, "--plain"], {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      LLM_PROVIDER: "openai-compat",
      OPENAI_COMPAT_URL: "http://127.0.0.1:9",
      OPENAI_COMPAT_API_KEY: "bench",
      OPENAI_COMPAT_MODEL: "bench-model",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  const welcomed = new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (!output.includes(`${WELCOME_HINT}\n`)) return;
      resolve(performance.now() - started);
      child.stdin.end("/exit\n");
    });
    child.on("error", reject);
    child.on("close", (code) => reject(new Error(`marvin --plain exited (${code}) before its welcome:\n${output}`)));
  });
  const exited = new Promise((resolve) => child.on("close", resolve));
  const kill = () => child.kill("SIGKILL");
  const elapsed = await within(`the plain UI's welcome line ("${WELCOME_HINT}")`, START_LIMIT_MS, welcomed, kill);
  await within("marvin --plain to exit after /exit", START_LIMIT_MS, exited, kill);
  return elapsed;
}

export async function mcpStartup(): Promise<void> {
  const homes = { none: makeHome(0), three: makeHome(3) };
  try {
    await timeToWelcome(homes.none); // warm the file cache
    const times = await alternate(RUNS, {
      none: () => timeToWelcome(homes.none),
      three: () => timeToWelcome(homes.three),
    });
    const without = { label: "no MCP servers", value: median(times.none) };
    reportRatio("first prompt, 3 MCP servers", median(times.three), without, 1.1);
  } finally {
    for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
  }
}
