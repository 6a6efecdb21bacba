import { errorMessage } from "../shared/error-message.js";
import type { FrontEndEnvironment, FrontEndOptions, SessionStarter } from "./front-end.js";

type RunTui = (
  options: FrontEndOptions,
  environment: FrontEndEnvironment,
  startSession: SessionStarter,
) => Promise<number>;

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
export async function runInteractive(
  options: FrontEndOptions,
  environment: FrontEndEnvironment,
  startSession: SessionStarter,
): Promise<number> {
  const { runPlain } = await import("./plain/run.js");
  if (options.plain || !process.stdout.isTTY || !process.stdin.isTTY)
    return runPlain(options, environment, startSession);
  const runTui = await loadTui();
  if (typeof runTui === "function") return runTui(options, environment, startSession);
  process.stdout.write(`[System] The full-screen UI is not available (${runTui}); using the plain UI.\n`);
  return runPlain(options, environment, startSession);
}
