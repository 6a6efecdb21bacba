import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { ToolError } from "../../../shared/tool-error.js";
import { bwrapArguments } from "./bwrap.js";
import { type SandboxLayout, sandboxLayout } from "./layout.js";
import { plantedControlsSweeper } from "./planted-controls.js";
import { findSandboxProgram } from "./program.js";
import { seatbeltProfile } from "./seatbelt.js";
import { type SandboxSettings, sandboxSettings } from "./settings.js";
import { withoutSocketVariables } from "./socket-variables.js";

/** How to start one command inside the sandbox: `program` with `prefix`, then the command's own argv. */
export interface SandboxedLaunch {
  program: string;
  prefix: string[];
  layout: SandboxLayout;
  /** Whether `program` reports on an fd whether it started the command (bubblewrap's --json-status-fd). */
  reportsStart: boolean;
  /** The command's environment made from `base`: the private TMPDIR, and no variable that leads to a socket. */
  environment(base: Record<string, string>): Record<string, string>;
  /** Removes the private temp folder. */
  dispose(): Promise<void>;
  /** After the command: removes git controls it created; the line that says so, undefined when none. */
  removePlantedGitControls(): Promise<string | undefined>;
  /** The same, at once (when Marvin exits). */
  disposeNow(): void;
}

/**
 * Where a command runs: inside the sandbox, or outside it and why (MARVIN_SANDBOX=off, or no sandbox program:
 * `missing` says which and how to install it).
 */
type CommandSandbox =
  | { launch: SandboxedLaunch }
  | { unsandboxed: "off" }
  | { unsandboxed: "missing"; missing: string };

/**
 * What becomes of commands when no sandbox program works, under the approval mode: each one asked (`ask`,
 * `auto`), one question before the first (`never` with someone to ask), or refused (no one to ask).
 */
export type WithoutSandbox = "each-asked" | "asked-once" | "refused";

export interface CommandPlaces {
  env: Env;
  home: string;
  cwd: string;
  /** The folder writable under workspace-write (the working dir); null: none. */
  writableRoot: string | null;
  /** The program needs the network (a package install): allowed whatever MARVIN_SANDBOX_NETWORK says. */
  needsNetwork?: boolean;
}

/** The one line said when commands must run without a sandbox although one was asked for; undefined otherwise. */
async function missingSandboxWarning(
  settings: SandboxSettings,
  env: Env,
  without: WithoutSandbox,
): Promise<string | undefined> {
  if (!settings.policy) return undefined;
  const found = await findSandboxProgram(env);
  if (!("missing" in found)) return undefined;
  if (settings.required) return `Commands are refused: MARVIN_SANDBOX=require, but ${found.missing}.`;
  if (without === "refused")
    return (
      `Commands are refused: ${found.missing}, and no one can be asked to let them run without a sandbox. ` +
      "Install it, or set MARVIN_SANDBOX=off to run them unconfined."
    );
  if (without === "asked-once")
    return (
      `Commands would run without a sandbox: ${found.missing}. Marvin asks once before the first one; install it ` +
      "to keep commands inside the working dir, or set MARVIN_SANDBOX=off to run them unconfined without asking."
    );
  return (
    `Commands run without a sandbox: ${found.missing}. Install it to keep commands inside the working dir, or set ` +
    "MARVIN_SANDBOX=off to run them unconfined without this warning."
  );
}

/**
 * What to say once when a session starts: sandbox settings that are not understood and, when commands
 * may run from the start (`commandsNow`), that no sandbox program works and what becomes of commands.
 */
export async function sandboxStartNotices(
  env: Env,
  home: string,
  commandsNow: boolean,
  without: WithoutSandbox,
): Promise<string[]> {
  let settings: SandboxSettings;
  try {
    settings = sandboxSettings(env, home);
  } catch (error) {
    return [errorMessage(error)];
  }
  const missing = commandsNow ? await missingSandboxWarning(settings, env, without) : undefined;
  return missing ? [...settings.ignored, missing] : settings.ignored;
}

/**
 * Decides how a command in `places.cwd` runs under the user's sandbox settings, and prepares its
 * sandbox (a private temp folder). A ToolError when a setting is wrong, or when MARVIN_SANDBOX=require
 * and no sandbox program works.
 */
export async function commandSandbox(places: CommandPlaces): Promise<CommandSandbox> {
  const settings = sandboxSettings(places.env, places.home);
  if (!settings.policy) return { unsandboxed: "off" };
  const program = await findSandboxProgram(places.env);
  if ("missing" in program) {
    if (!settings.required) return { unsandboxed: "missing", missing: program.missing };
    throw new ToolError(
      `Commands are refused: MARVIN_SANDBOX=require, but ${program.missing}. Tell the user; do not retry.`,
    );
  }
  const tempDir = await mkdtemp(join(tmpdir(), "marvin-sandbox-"));
  const network = settings.network || places.needsNetwork === true;
  const layout = sandboxLayout({ ...settings, network }, { ...places, tempDir });
  const prefix = program.kind === "bwrap" ? bwrapArguments(layout) : ["-p", seatbeltProfile(layout)];
  return {
    launch: {
      program: program.path,
      prefix,
      layout,
      reportsStart: program.kind === "bwrap",
      environment: (base) => ({ ...withoutSocketVariables(base), TMPDIR: tempDir }),
      dispose: () => rm(tempDir, { recursive: true, force: true }),
      removePlantedGitControls: plantedControlsSweeper(layout.gitDirs),
      disposeNow: () => rmSync(tempDir, { recursive: true, force: true }),
    },
  };
}
