import type { CliArgs } from "../cli/args.js";
import { errorMessage } from "../shared/error-message.js";

export interface InteractiveEnvironment {
  env: Record<string, string | undefined>;
  home: string;
  cwd: string;
}

type RunTui = (args: CliArgs, environment: InteractiveEnvironment) => Promise<number>;

async function loadTui(): Promise<RunTui | string> {
  try {
    // A literal specifier, so the bundler makes the TUI (and Ink) a lazily loaded chunk.
    const module: { runTui?: RunTui } = await import("./tui/run.js");
    return typeof module.runTui === "function" ? module.runTui : "the full-screen UI module has no runTui";
  } catch (error) {
    return errorMessage(error).split("\n")[0]!;
  }
}

/**
 * Picks the front end: the plain readline UI with `--plain` or when stdin or stdout is
 * not a terminal, else the full-screen TUI (falling back to plain, with a note, if it cannot load).
 */
export async function runInteractive(args: CliArgs, environment: InteractiveEnvironment): Promise<number> {
  const { runPlain } = await import("./plain/run.js");
  if (args.plain || !process.stdout.isTTY || !process.stdin.isTTY) return runPlain(args, environment);
  const runTui = await loadTui();
  if (typeof runTui === "function") return runTui(args, environment);
  process.stdout.write(`[System] The full-screen UI is not available (${runTui}); using the plain UI.\n`);
  return runPlain(args, environment);
}
