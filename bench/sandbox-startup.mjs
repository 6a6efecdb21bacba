// The start-up cost run_command's sandbox adds to one command: `true` through the real tool
// registry (built dist/), RUNS times with the sandbox off and on, alternately so that the load of
// the machine weighs on both alike; the difference of the medians, and how much of it is bwrap's own.
// Run: npm run build && node bench/sandbox-startup.mjs
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createToolContext } from "../dist/session/standalone-tool-context.js";
import { createToolRegistry } from "../dist/tools/index.js";
import { commandSandbox } from "../dist/tools/kit/sandbox/command-sandbox.js";
import { findSandboxProgram } from "../dist/tools/kit/sandbox/program.js";

const RUNS = 50;
const TARGET_MS = 20;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A non-interactive coding context in `project` with MARVIN_SANDBOX=`sandbox`. */
const contextFor = (home, project, sandbox) =>
  createToolContext({
    home,
    workingDir: project,
    env: { MARVIN_SANDBOX: sandbox },
    mode: { codingMode: true, nonInteractive: true },
  });

async function timeTrue(registry, context) {
  const started = performance.now();
  const outcome = await registry.execute("run_command", { command: "true" }, context);
  const elapsed = performance.now() - started;
  if (outcome.isError || !outcome.result.startsWith("Exit code: 0")) throw new Error(outcome.result);
  return elapsed;
}

/** How long `argv` takes from spawn to exit. */
async function timeSpawn(argv) {
  const started = performance.now();
  const child = spawn(argv[0], argv.slice(1), { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return performance.now() - started;
}

/** What bwrap itself adds (its namespaces and mounts), with run_command's arguments, to `bash -c true`. */
async function bwrapOwnCost(project) {
  const places = { env: { PATH: process.env.PATH }, home, cwd: project, writableRoot: project };
  const placement = await commandSandbox(places);
  const times = { bare: [], wrapped: [] };
  try {
    for (let run = 0; run < RUNS; run++) {
      times.bare.push(await timeSpawn(["bash", "-c", "true"]));
      const { program, prefix } = placement.launch;
      times.wrapped.push(await timeSpawn([program, ...prefix, "bash", "-c", "true"]));
    }
  } finally {
    await placement.launch.dispose();
  }
  return median(times.wrapped) - median(times.bare);
}

const home = await mkdtemp(join(tmpdir(), "marvin-bench-sandbox-"));
try {
  const program = await findSandboxProgram({ PATH: process.env.PATH });
  if ("missing" in program) {
    console.log(`sandbox start-up: skipped, ${program.missing}`);
  } else {
    const project = join(home, "project");
    execFileSync("git", ["init", "-q", project]);
    const registry = createToolRegistry();
    const contexts = { off: contextFor(home, project, "off"), on: contextFor(home, project, "workspace-write") };
    const times = { off: [], on: [] };
    // One run of each to warm up (the first sandboxed one probes bwrap), not counted.
    for (let run = 0; run <= RUNS; run++) {
      for (const side of ["off", "on"]) {
        const elapsed = await timeTrue(registry, contexts[side]);
        if (run > 0) times[side].push(elapsed);
      }
    }
    for (const context of Object.values(contexts)) context.close();
    const [off, on] = [median(times.off), median(times.on)];
    console.log(
      `run_command \`true\`, median of ${RUNS}: ${off.toFixed(1)} ms unsandboxed, ${on.toFixed(1)} ms in bwrap`,
    );
    const added = on - off;
    const verdict = added < TARGET_MS ? "met" : "MISSED";
    const figure = `${added.toFixed(1)} ms  (target < ${TARGET_MS} ms: ${verdict})`;
    console.log(`${"sandbox start-up per command".padEnd(38)} ${figure}`);
    const own = await bwrapOwnCost(project);
    console.log(`  of which bwrap itself (spawned bare, same arguments): ${own.toFixed(1)} ms`);
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
