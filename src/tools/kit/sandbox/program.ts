import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import type { Env } from "../../../shared/env.js";
import { programOnPath } from "../../../shared/program-on-path.js";
import { bwrapArguments } from "./bwrap.js";
import type { SandboxLayout } from "./layout.js";

/** A sandbox program that works on this machine. */
interface SandboxProgram {
  kind: "bwrap" | "sandbox-exec";
  path: string;
}

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether bwrap can make a sandbox here with the namespaces and the dropped capabilities every command
 * gets (a container, or a system with user namespaces disabled, may forbid them): its complaint, or undefined.
 */
const probes = new Map<string, Promise<string | undefined>>();

/** The sandbox of a command that may write nothing and read everything but /tmp. */
const PROBED_LAYOUT: SandboxLayout = {
  writable: [],
  tempDir: "/tmp",
  emptied: ["/tmp"],
  readable: [],
  readOnly: [],
  gitDirs: [],
  hidden: [],
  secrets: [],
  network: false,
  cwd: "/",
};

function probe(path: string): Promise<string | undefined> {
  let known = probes.get(path);
  if (!known) {
    known = new Promise((resolve) => {
      const args = [...bwrapArguments(PROBED_LAYOUT), "true"];
      execFile(path, args, { timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) =>
        resolve(error ? stderr.trim().split("\n")[0] || error.message : undefined),
      );
    });
    probes.set(path, known);
  }
  return known;
}

/** The sandbox program of this system, or why there is none, in a sentence naming what to install. */
export async function findSandboxProgram(env: Env): Promise<SandboxProgram | { missing: string }> {
  if (process.platform === "darwin") {
    if (existsSync(SANDBOX_EXEC)) return { kind: "sandbox-exec", path: SANDBOX_EXEC };
    return { missing: `${SANDBOX_EXEC} is missing (it comes with macOS)` };
  }
  if (process.platform !== "linux") return { missing: `Marvin has no sandbox for ${process.platform}` };
  const path = await programOnPath(env, "bwrap");
  if (!path) return { missing: "bwrap is not installed (package bubblewrap: apt install bubblewrap)" };
  const complaint = await probe(path);
  if (complaint) return { missing: `bwrap cannot make a sandbox on this machine (${complaint})` };
  return { kind: "bwrap", path };
}
