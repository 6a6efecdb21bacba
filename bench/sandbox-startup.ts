// The start-up cost run_command's sandbox adds to one command: `true` through the real tool registry of the built
// marvin, with the sandbox off and on in turns, so that the load of the machine weighs on both alike; and, for the
// record, what bwrap itself adds, spawned bare with the same arguments.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { builtModule } from "./built.js";
import { alternate, timeChild } from "./limits.js";
import { median, ms, report, reportRatio } from "./stats.js";

type Registry = ReturnType<typeof import("../src/tools/index.js").createToolRegistry>;
type Context = ReturnType<typeof import("../src/session/standalone-tool-context.js").createToolContext>;
type SandboxModule = typeof import("../src/tools/kit/sandbox/command-sandbox.js");

const RUNS = 40;

async function timeTrue(registry: Registry, context: Context): Promise<number> {
  const started = performance.now();
  const outcome = await registry.execute("run_command", { command: "true" }, context);
  const elapsed = performance.now() - started;
  if (outcome.isError || !outcome.result.startsWith("Exit code: 0")) throw new Error(outcome.result);
  return elapsed;
}

/** What bwrap itself adds (its namespaces and mounts), with run_command's arguments, to `bash -c true`. */
async function bwrapOwnCost(home: string, project: string): Promise<number> {
  const { commandSandbox } = await builtModule<SandboxModule>("tools/kit/sandbox/command-sandbox.js");
  const placement = await commandSandbox({
    env: { PATH: process.env.PATH },
    home,
    cwd: project,
    writableRoot: project,
  });
  if (!("launch" in placement)) throw new Error(`no sandbox to launch in (${placement.unsandboxed})`);
  const { program, prefix } = placement.launch;
  try {
    const times = await alternate(RUNS, {
      bare: () => timeChild("bash", ["-c", "true"]),
      wrapped: () => timeChild(program, [...prefix, "bash", "-c", "true"]),
    });
    return median(times.wrapped) - median(times.bare);
  } finally {
    await placement.launch.dispose();
  }
}

export async function sandboxStartup(): Promise<void> {
  const { findSandboxProgram } =
    await builtModule<typeof import("../src/tools/kit/sandbox/program.js")>("tools/kit/sandbox/program.js");
  const program = await findSandboxProgram({ PATH: process.env.PATH });
  if ("missing" in program) throw new Error(`no sandbox to measure: ${program.missing}`);
  const { createToolRegistry } = await builtModule<typeof import("../src/tools/index.js")>("tools/index.js");
  const { createToolContext } = await builtModule<typeof import("../src/session/standalone-tool-context.js")>(
    "session/standalone-tool-context.js",
  );
  const home = await mkdtemp(join(tmpdir(), "marvin-bench-sandbox-"));
  try {
    const project = join(home, "project");
    execFileSync("git", ["init", "-q", project]);
    const registry = createToolRegistry();
    const contextFor = (sandbox: string) =>
      createToolContext({
        home,
        workingDir: project,
        env: { MARVIN_SANDBOX: sandbox },
        mode: { codingMode: true, nonInteractive: true },
      });
    const contexts = { off: contextFor("off"), on: contextFor("workspace-write") };
    // One run of each to warm up (the first sandboxed one probes bwrap), not counted.
    for (const context of Object.values(contexts)) await timeTrue(registry, context);
    const times = await alternate(RUNS, {
      off: () => timeTrue(registry, contexts.off),
      on: () => timeTrue(registry, contexts.on),
    });
    for (const context of Object.values(contexts)) context.close();
    const off = { label: "unsandboxed", value: median(times.off) };
    reportRatio("sandbox start-up per command", median(times.on), off, 3);
    report("  what bwrap itself adds (spawned bare)", ms(await bwrapOwnCost(home, project)));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
