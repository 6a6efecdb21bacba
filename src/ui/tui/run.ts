import type { FrontEndEnvironment, FrontEndOptions, SessionStarter } from "../front-end.js";

/**
 * Loads React and Ink in their production builds (the development builds cost several times
 * the CPU per frame). React picks its build from NODE_ENV when first imported, so NODE_ENV is
 * set just for that import and then put back: commands Marvin runs must not inherit it.
 */
async function loadTui(): Promise<typeof import("./start-tui.js")> {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await import("./start-tui.js");
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
}

/** The full-screen UI: `marvin` on a terminal (seed 000 §2.9). Returns the exit code. */
export async function runTui(
  options: FrontEndOptions,
  environment: FrontEndEnvironment,
  startSession: SessionStarter,
): Promise<number> {
  const { startTui } = await loadTui();
  return startTui(options, environment, startSession);
}
