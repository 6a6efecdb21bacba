import { ContextBudget } from "../agent/context-budget.js";
import type { Env } from "../shared/env.js";
import { configPaths } from "../state/paths.js";
import { DEFAULT_PROFILE, ProfileStore } from "../state/profiles.js";
import { UsageTracker } from "../state/usage.js";
import type { ToolContext, ToolMode, ToolProgress } from "../tools/kit/define-tool.js";
import { JobBoard } from "../tools/kit/job-board.js";
import type { ActiveProvider, Approvals, CodeDiagnostics } from "../tools/kit/tool-services.js";
import { TimerStore } from "../tools/organiser/timers/timer-store.js";
import { SessionApprovals } from "./approvals.js";
import { backupDirsOf } from "./backup-dirs.js";

interface ToolContextOptions {
  /** The user's home: profiles, notes and downloads live under it. */
  home: string;
  /**
   * Added to HOME (the given home) and PATH (this process's, so tools find git and bash); nothing
   * else is inherited, so no credential reaches a tool unless given here.
   */
  env?: Env;
  /** Default: none. */
  workingDir?: string | null;
  /**
   * Default as the CLI decides: coding mode when there is a working dir or the run is
   * non-interactive; interactive; not read-only.
   */
  mode?: Partial<ToolMode>;
  /** Default: a signal that never aborts. */
  signal?: AbortSignal;
  /** Default: "main". */
  profileName?: string;
  /** The LLM of the session; default: none yet. */
  provider?: ActiveProvider;
  /** Default: the standard thresholds, over an empty conversation. */
  budget?: ContextBudget;
  /** Default: nothing asks (`never`), as in non-interactive runs. */
  approvals?: Approvals;
  /** Default: fails, saying there is no LLM. */
  summarize?: (text: string, instruction: string) => Promise<string>;
  /** Default: progress is dropped. */
  onProgress?: (update: ToolProgress) => void;
  /** Language servers asked after each write; default: none (no session, no servers). */
  diagnostics?: CodeDiagnostics;
}

const NO_DIAGNOSTICS: CodeDiagnostics = {
  afterWrite: async () => "",
  lateReports: async () => "",
  warmUp: () => undefined,
};

/** A tool context that also shows what the tools asked of the session. */
interface BuiltToolContext extends ToolContext {
  /** The message exit_app left, once it has been called. */
  readonly exitRequested: string | undefined;
  /** Cancels the background jobs and timers the tools started. */
  close(): void;
}

/**
 * A complete tool context without a Session: real profile store over `home`, real usage,
 * timers, jobs and context budget. For tests and for running a tool on its own:
 * `const context = createToolContext({ home, workingDir })`.
 */
export function createToolContext(options: ToolContextOptions): BuiltToolContext {
  const { home } = options;
  const workingDir = options.workingDir ?? null;
  const nonInteractive = options.mode?.nonInteractive ?? false;
  const mode: ToolMode = {
    codingMode: options.mode?.codingMode ?? (nonInteractive || workingDir !== null),
    nonInteractive,
    readonly: options.mode?.readonly ?? false,
  };
  const profiles = new ProfileStore(configPaths(home));
  const state: { workingDir: string | null; profileName: string; exitRequested?: string } = {
    workingDir,
    profileName: options.profileName ?? DEFAULT_PROFILE,
  };
  const timers = new TimerStore();
  const jobs = new JobBoard();
  const noLlm = () =>
    Promise.reject(new Error("No LLM is available in this tool context (createToolContext was given no summarize)."));
  return {
    home,
    env: { HOME: home, PATH: process.env.PATH, ...options.env },
    signal: options.signal ?? new AbortController().signal,
    mode,
    get workingDir() {
      return state.workingDir;
    },
    setWorkingDir: (path) => {
      state.workingDir = path;
    },
    profiles,
    get profileName() {
      return state.profileName;
    },
    switchProfile: async (name) => {
      // As in a session: a sub-agent's switch never changes the profile the user's next session opens.
      const result = mode.nonInteractive ? await profiles.ensure(name) : await profiles.setActive(name);
      state.profileName = name;
      return result;
    },
    provider: options.provider,
    usage: new UsageTracker(),
    timers,
    jobs,
    budget: (options.budget ?? new ContextBudget()).view(),
    approvals: options.approvals ?? new SessionApprovals("never", undefined),
    diagnostics: options.diagnostics ?? NO_DIAGNOSTICS,
    summarize: options.summarize ?? noLlm,
    onProgress: options.onProgress ?? (() => undefined),
    requestExit: (message) => {
      state.exitRequested = message;
    },
    get exitRequested() {
      return state.exitRequested;
    },
    backupDirs: () => backupDirsOf(profiles, state.profileName, state.workingDir),
    close: () => {
      jobs.cancelAll();
      timers.clear();
    },
  };
}
