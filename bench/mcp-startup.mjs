#!/usr/bin/env node
// Time from starting `marvin --plain` to its first prompt, without MCP servers and with three
// stdio MCP servers configured (the dictionary server of the tests, built with the official SDK).
// Servers start in the background, so the two should not differ. Run with: node bench/mcp-startup.mjs
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = 11;
/** Allowed difference of the medians: process start-up varies by a few milliseconds from run to run. */
const TOLERANCE_MS = 15;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marvinBin = join(root, "dist", "bin", "marvin.js");
const serverScript = join(root, "tests", "support", "mcp-dictionary-server.mjs");

function makeHome(servers) {
  const home = mkdtempSync(join(tmpdir(), "marvin-bench-mcp-"));
  const config = join(home, ".config", "local-finder");
  mkdirSync(config, { recursive: true });
  if (servers > 0) {
    const entry = { command: process.execPath, args: [serverScript, "stdio"] };
    const mcpServers = Object.fromEntries(Array.from({ length: servers }, (_, index) => [`dict${index}`, entry]));
    writeFileSync(join(config, "mcp.json"), JSON.stringify({ mcpServers }));
  }
  return home;
}

/**
 * Milliseconds until the plain UI's welcome line is on stdout (without a terminal the prompt itself
 * is drawn only once input arrives; the welcome line comes right before it); then `quit`.
 */
function timeToPrompt(home) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [marvinBin, "--plain"], {
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
    let elapsed;
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      if (elapsed === undefined && output.includes("quit to leave.\n")) {
        elapsed = performance.now() - started;
        child.stdin.end("quit\n");
      }
    });
    child.on("error", reject);
    child.on("close", () => (elapsed === undefined ? reject(new Error(`no prompt:\n${output}`)) : resolve(elapsed)));
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const homes = { none: makeHome(0), three: makeHome(3) };
const times = { none: [], three: [] };
try {
  await timeToPrompt(homes.none); // warm the file cache
  for (let run = 0; run < RUNS; run += 1) {
    times.none.push(await timeToPrompt(homes.none));
    times.three.push(await timeToPrompt(homes.three));
  }
} finally {
  for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
}
const without = median(times.none);
const withServers = median(times.three);
const met = withServers <= without + TOLERANCE_MS;
console.log(`${"first prompt, no MCP servers (median)".padEnd(38)} ${without.toFixed(1)} ms`);
console.log(
  `${"first prompt, 3 MCP servers (median)".padEnd(38)} ${withServers.toFixed(1)} ms  ` +
    `(target ≤ ${(without + TOLERANCE_MS).toFixed(1)} ms: ${met ? "met" : "MISSED"})`,
);
