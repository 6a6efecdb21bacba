import type { ProviderName } from "../providers/types.js";
import type { Extensions } from "../session/extensions.js";
import type { Session } from "../session/session.js";
import type { Env } from "../shared/env.js";
import type { CustomCommand } from "./commands/custom-commands.js";

/** What a front end is asked to do, as the command line said it. */
export interface FrontEndOptions {
  /** Asked first (interactive) or the whole task (non-interactive). */
  prompt?: string;
  /** The `--model` given, kept for `!model` and `!pro`. */
  model?: string;
  plain?: boolean;
  output?: "text" | "jsonl";
  /** `--provider`: chosen by the person, so a resumed conversation keeps it. */
  provider?: ProviderName;
  /** `--continue`: the latest conversation started in this directory. */
  continueLatest?: boolean;
  /** `--resume [ID]`: "" asks which one. */
  resume?: string;
  /** `--session ID`: the conversation's id, continued when it exists. */
  session?: string;
}

/** Where the front end runs. */
export interface FrontEndEnvironment {
  env: Env;
  home: string;
  cwd: string;
}

/** How the front end takes part in starting the session: where notices go, who confirms commands. */
export interface SessionHooks {
  /** Shown to the person (stderr in non-interactive mode); must not throw. */
  notice: (text: string) => void;
  /** Asks the person to approve a shell command; absent → approved. */
  confirmCommand?: (command: string) => Promise<boolean>;
}

export interface StartedSession {
  session: Session;
  providerName: ProviderName;
  /** MCP servers, hooks and custom tools (absent in tests that build a bare session). */
  extensions?: Extensions;
  /** `/name` prompt templates of the user's commands folder. */
  customCommands?: readonly CustomCommand[];
}

/**
 * Builds and starts the session; supplied by `cli/`, which owns the wiring (provider choice,
 * tool registry, listeners). Throws with a message for the person when it cannot.
 */
export type SessionStarter = (hooks: SessionHooks) => Promise<StartedSession>;
