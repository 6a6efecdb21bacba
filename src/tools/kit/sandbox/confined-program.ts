import { toolChildEnv } from "../../../shared/child-env.js";
import { ToolError } from "../../../shared/tool-error.js";
import { type ProgramResult, type ProgramRun, runProgram } from "../processes/run-program.js";
import { type CommandPlaces, commandSandbox } from "./command-sandbox.js";
import type { SandboxLayout } from "./layout.js";

interface ConfinedRun extends Omit<ProgramRun, "env"> {
  /** The user's environment and sandbox settings, and what the program may write (its cwd is `cwd`). */
  places: Omit<CommandPlaces, "cwd">;
  /** Added to the credential-free environment made from `places.env`. */
  variables?: Record<string, string>;
  /** Added only when the program runs inside the sandbox. */
  sandboxVariables?: Record<string, string>;
}

interface ConfinedResult extends ProgramResult {
  /** The sandbox it ran in; undefined when it ran unconfined (MARVIN_SANDBOX=off, or no sandbox program). */
  layout?: SandboxLayout;
}

/** The run's result, or a ToolError when `program` could not be started (not installed, not executable). */
function started(running: Promise<ProgramResult>, program: string): Promise<ProgramResult> {
  return running.catch((error: NodeJS.ErrnoException) => {
    throw new ToolError(`${program} could not be started: ${error.message}`);
  });
}

/**
 * Runs one program (no shell) as run_command runs a command: inside the sandbox the user's settings
 * ask for, with no credential in its environment, and tracked like every program a tool starts (stopped
 * on time-out or cancel, nothing of it left running). A ToolError when the settings cannot be met or
 * the program cannot be started.
 */
export async function runConfinedProgram({
  places,
  variables,
  sandboxVariables,
  ...run
}: ConfinedRun): Promise<ConfinedResult> {
  const env = { ...toolChildEnv(places.env), ...variables };
  const placement = await commandSandbox({ ...places, cwd: run.cwd });
  if (!("launch" in placement)) return started(runProgram({ ...run, env }), run.argv[0]);
  const { launch } = placement;
  try {
    const result = await started(
      runProgram({
        ...run,
        argv: [launch.program, ...launch.prefix, ...run.argv],
        env: launch.environment({ ...env, ...sandboxVariables }),
      }),
      launch.program,
    );
    const planted = await launch.removePlantedGitControls();
    if (planted) run.onStderr(`\n${planted}\n`);
    return { ...result, layout: launch.layout };
  } finally {
    await launch.dispose();
  }
}
