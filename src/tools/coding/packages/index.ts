import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { formatDuration } from "../../../shared/duration.js";
import { withScratchDir } from "../../../shared/scratch-dir.js";
import { CreatedVenvs } from "../../../state/created-venvs.js";
import { configPaths } from "../../../state/paths.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { HeadTailBuffer } from "../../kit/processes/head-tail-buffer.js";
import type { ProgramResult } from "../../kit/processes/run-program.js";
import { realWorkingDir } from "../../kit/require-working-dir.js";
import { runConfinedProgram } from "../../kit/sandbox/confined-program.js";
import { sandboxRefusal } from "../../kit/sandbox/refusal.js";
import { packageArguments } from "./package-specs.js";
import { findInstaller, type Installer, type ProjectVenv, projectVenv, VENV_DIR } from "./project-venv.js";

const HEAD_CHARS = 2_000;
const TAIL_CHARS = 8_000;
/** The registry's limit is the install's own plus time for the person to confirm. */
const CONFIRMATION_ALLOWANCE_MS = 10 * 60_000;

type Argv = [string, ...string[]];

/**
 * In the sandbox the user's caches are read-only: uv and pip work without one (uv in the private temp
 * folder), so nothing an install runs can leave files behind for the installs of other projects.
 */
const NO_CACHE = { UV_NO_CACHE: "1", PIP_NO_CACHE_DIR: "1" };

/**
 * pip and uv without any configuration file: not the user's, and above all not one a repository
 * brings along (`.venv/pip.conf`, `uv.toml`, `[tool.uv]` in pyproject.toml) that could point them at
 * another index; never asking for input, never downloading a Python.
 */
function installerVariables(venv: ProjectVenv): Record<string, string> {
  return {
    PIP_CONFIG_FILE: "/dev/null",
    PIP_NO_INPUT: "1",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    UV_NO_CONFIG: "1",
    UV_PYTHON_DOWNLOADS: "never",
    VIRTUAL_ENV: venv.dir,
  };
}

interface Step {
  /** What the step does, for progress and errors: "Creating .venv", "pip install". */
  label: string;
  argv: Argv;
}

/** The programs to run, in order. `-I` keeps Python from importing a `venv` or `pip` module lying in the cwd. */
function steps(installer: Installer, venv: ProjectVenv, packages: string[]): Step[] {
  const creating = `Creating ${VENV_DIR}`;
  if (installer.kind === "uv") {
    const python = installer.python ? ["--python", installer.python] : [];
    const install: Argv = [installer.uv, "pip", "install", "--no-config", "--python", venv.python, ...packages];
    const create: Step = { label: creating, argv: [installer.uv, "venv", "--no-config", ...python, venv.dir] };
    return [...(venv.exists ? [] : [create]), { label: "uv pip install", argv: install }];
  }
  const pip = ["-m", "pip", "install", "--no-input", "--disable-pip-version-check"];
  const install: Argv = [venv.python, "-I", ...pip, ...packages];
  const create: Step = { label: creating, argv: [installer.python, "-I", "-m", "venv", venv.dir] };
  return [...(venv.exists ? [] : [create]), { label: "pip install", argv: install }];
}

function failure(step: Step, result: ProgramResult, timeoutSeconds: number): string {
  const took = formatDuration(result.elapsedMs);
  if (result.timedOut)
    return `${step.label} timed out after ${timeoutSeconds}s and was stopped. Raise timeout to wait longer.`;
  if (result.aborted) return `${step.label} was cancelled after ${took}.`;
  const how = result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`;
  const hint = step.argv.includes("venv")
    ? " If it says ensurepip is not available, Python's venv module is missing (Debian: apt install python3-venv)."
    : "";
  return `${step.label} failed (${how}, after ${took}).${hint}`;
}

/** Runs the steps in the sandbox, one after the other; a ToolError saying what failed at the first that fails. */
async function runSteps(
  plan: Step[],
  cwd: string,
  venv: ProjectVenv,
  output: HeadTailBuffer,
  timeoutSeconds: number,
  context: ToolContext,
): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (const step of plan) {
    context.onProgress({ message: step.label });
    const result = await runConfinedProgram({
      argv: step.argv,
      cwd,
      places: { env: context.env, home: context.home, writableRoot: dirname(venv.dir), needsNetwork: true },
      variables: installerVariables(venv),
      sandboxVariables: NO_CACHE,
      signal: context.signal,
      timeoutMs: Math.max(1, deadline - Date.now()),
      onStdout: (text) => output.append(text),
      onStderr: (text) => output.append(text),
    });
    if (result.exitCode !== 0) {
      const refusal = result.layout && sandboxRefusal("", output.text(), result.layout, context.home);
      const lines = [failure(step, result, timeoutSeconds), output.text().trim(), ...(refusal ? [refusal.line] : [])];
      throw new ToolError(lines.join("\n"));
    }
  }
}

const installPackages = defineTool({
  name: "install_packages",
  effect: "write",
  description:
    "Install Python packages into the project's virtual environment (.venv in the working dir, created when " +
    "missing) with uv, or python3's venv and pip. The user may be asked to confirm. Returns the installer's output.",
  codingOnly: true,
  timeoutMs: (args) => args.timeout * 1000 + CONFIRMATION_ALLOWANCE_MS,
  parameters: z.object({
    packages: z
      .array(z.string())
      .min(1)
      .max(50)
      .describe("Requirements (requests, numpy>=1.26, uvicorn[standard]) or ./paths of wheels, sdists or projects"),
    timeout: z.number().int().min(1).max(3600).default(600).describe("Seconds before the install is stopped"),
  }),
  handler: async (args, context) => {
    const root = await realWorkingDir(context);
    if (!existsSync(root))
      throw new ToolError(`The working dir ${root} no longer exists. Call set_working_dir with an existing directory.`);
    const packages = await packageArguments(root, args.packages);
    const installer = await findInstaller(context.env);
    const createdVenvs = new CreatedVenvs(configPaths(context.home).createdVenvs);
    const venv = await projectVenv(root, createdVenvs);
    const plan = steps(installer, venv, packages);
    const install = plan.at(-1)!.label;
    const into = venv.exists ? VENV_DIR : `${VENV_DIR}, created first`;
    // Beyond the sandbox's usual reach (the network, code from the index runs): asked where approvals ask.
    if (!(await context.approvals.tool("install_packages", `${install} ${args.packages.join(" ")} into ${into}`))) {
      return "The user declined the install. Do not try again; ask the user what to do instead.";
    }
    const output = new HeadTailBuffer(HEAD_CHARS, TAIL_CHARS);
    return withScratchDir("marvin-install-", async (cwd) => {
      try {
        await runSteps(plan, cwd, venv, output, args.timeout, context);
      } finally {
        // What Marvin's own install left (a package may bring a .pth along) is Marvin's.
        if (existsSync(join(venv.dir, "pyvenv.cfg"))) await createdVenvs.record(venv.dir);
      }
      return `Installed into ${VENV_DIR} with ${install}: ${args.packages.join(", ")}.\n${output.text().trim()}`;
    });
  },
});

/** Python packages (seed 002 §4.15). */
export const packageTools = [installPackages];
