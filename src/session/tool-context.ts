import { providerCredentialVariables } from "../providers/credentials.js";
import type { Env } from "../shared/env.js";
import type { ToolContext } from "../tools/define-tool.js";
import type { Session } from "./session.js";

/** What a session keeps to itself but hands to its tools. */
interface SessionSurroundings {
  home: string;
  env: Env;
  /** Asks the person to approve a shell command; absent → approved (non-interactive). */
  confirmCommand?: (command: string) => Promise<boolean>;
}

/**
 * The context of one tool call: a live view of the session (working dir, profile and provider
 * are read when the tool asks, so a change made by an earlier tool is seen) plus its services.
 */
export function sessionToolContext(
  session: Session,
  surroundings: SessionSurroundings,
  signal: AbortSignal,
  onProgress: ToolContext["onProgress"],
): ToolContext {
  return {
    signal,
    mode: session.mode,
    onProgress,
    home: surroundings.home,
    env: surroundings.env,
    get workingDir() {
      return session.workingDir;
    },
    setWorkingDir: (path) => {
      session.workingDir = path;
    },
    profiles: session.profiles,
    get profileName() {
      return session.profileName;
    },
    switchProfile: (name) => session.switchProfile(name),
    get provider() {
      const active = session.providerInfo;
      return active && { ...active, credentialVariables: providerCredentialVariables(active.name, surroundings.env) };
    },
    usage: session.usage,
    timers: session.timers,
    jobs: session.jobs,
    budget: session.budget.view(),
    confirmCommand: (command) => surroundings.confirmCommand?.(command) ?? Promise.resolve(true),
    summarize: (text, instruction) => session.summarize(text, instruction),
    requestExit: (message) => {
      session.exitRequested = message;
    },
    backupDirs: () => session.backupDirs(),
  };
}
