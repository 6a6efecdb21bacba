import { delimiter, isAbsolute, join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { ToolError } from "../../../shared/tool-error.js";

/** What a sandboxed command may write: the working dir and its temp folder, or only the temp folder. */
type SandboxPolicy = "workspace-write" | "read-only";

/**
 * How commands are confined, from MARVIN_SANDBOX, MARVIN_SANDBOX_NETWORK, MARVIN_SANDBOX_WRITABLE and
 * MARVIN_SANDBOX_READABLE.
 */
export interface SandboxSettings {
  /** Undefined: MARVIN_SANDBOX=off, commands run with the user's full rights. */
  policy: SandboxPolicy | undefined;
  /** MARVIN_SANDBOX=require: refuse to run a command when no sandbox program works. */
  required: boolean;
  network: boolean;
  /** Extra folders the command may write to (absolute). */
  writable: string[];
  /** Folders (or files) of the hidden home, or of the emptied temp folders, the command may read (absolute). */
  readable: string[];
  /** One line for each setting that was not understood and left at its default. */
  ignored: string[];
}

const MODES = ["workspace-write", "read-only", "off", "require"] as const;
const NETWORK_VALUES = ["on", "off"];

/** The absolute paths a setting lists (`~/…` under `home`); a ToolError naming `setting` for a relative one. */
function listedFolders(setting: string, value: string | undefined, home: string): string[] {
  const folders = (value ?? "").split(delimiter).map((entry) => entry.trim());
  return folders.filter(Boolean).map((entry) => {
    const path = entry === "~" || entry.startsWith("~/") ? join(home, entry.slice(1)) : entry;
    if (!isAbsolute(path))
      throw new ToolError(`${setting} lists ${entry}: give absolute paths (or ~/…), separated by ${delimiter}`);
    return path;
  });
}

/** The sandbox settings of `env`; a ToolError naming the setting when one is not understood (fails closed). */
export function sandboxSettings(env: Env, home: string): SandboxSettings {
  const mode = (env.MARVIN_SANDBOX?.trim().toLowerCase() || "workspace-write") as (typeof MODES)[number];
  if (!MODES.includes(mode)) {
    throw new ToolError(
      `MARVIN_SANDBOX=${env.MARVIN_SANDBOX} is not understood: use ${MODES.join(", ")}. Commands are refused ` +
        "until it is set right.",
    );
  }
  const network = env.MARVIN_SANDBOX_NETWORK?.trim().toLowerCase() || "off";
  const networkProblem = `MARVIN_SANDBOX_NETWORK=${env.MARVIN_SANDBOX_NETWORK} is not understood: use on or off.`;
  const ignored = NETWORK_VALUES.includes(network) ? [] : [`${networkProblem} Commands get no network.`];
  return {
    policy: mode === "off" ? undefined : mode === "read-only" ? "read-only" : "workspace-write",
    required: mode === "require",
    network: network === "on",
    writable: listedFolders("MARVIN_SANDBOX_WRITABLE", env.MARVIN_SANDBOX_WRITABLE, home),
    readable: listedFolders("MARVIN_SANDBOX_READABLE", env.MARVIN_SANDBOX_READABLE, home),
    ignored,
  };
}
