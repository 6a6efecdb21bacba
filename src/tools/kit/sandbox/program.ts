import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import type { Env } from "../../../shared/env.js";
import { programOnPath } from "../../../shared/program-on-path.js";

/** A sandbox program that works on this machine. */
interface SandboxProgram {
  kind: "bwrap" | "sandbox-exec";
  path: string;
}

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
const PROBE_TIMEOUT_MS = 5_000;

/** Whether bwrap can make a sandbox here (a container may forbid namespaces): its complaint, or undefined. */
const probes = new Map<string, Promise<string | undefined>>();

function probe(path: string): Promise<string | undefined> {
  let known = probes.get(path);
  if (!known) {
    known = new Promise((resolve) => {
      const args = ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--proc", "/proc", "--", "true"];
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
