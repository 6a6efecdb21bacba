import type { Env } from "../../shared/env.js";
import type { ProfileStore } from "../../state/profiles.js";
import type { UsageTracker } from "../../state/usage.js";

/** What a tool can learn about, and do to, the context window (seed 000 §4.7). */
export interface ContextBudgetView {
  /** Tokens that may still be added before the warning threshold (never negative). */
  availableTokens(): Promise<number>;
  /** True when `text` certainly fits before the warning threshold: decided from byte counts, without the tokenizer. */
  surelyFits(text: string): boolean;
  /** True once the conversation is past the hard limit: large reads must be refused. */
  pastHardLimit(): Promise<boolean>;
  countTokens(text: string): Promise<number>;
  truncateToTokens(text: string, maxTokens: number): Promise<string>;
  /** Characters read_file has returned this session, for its read budget (seed 004 §6.13B). */
  charactersRead(): number;
  addCharactersRead(count: number): void;
}

/** The session's LLM provider, as a tool that starts another agent on it needs it. */
export interface ActiveProvider {
  name: string;
  model: string;
  /** Variables holding this provider's credential: the only secrets a child agent may get. */
  credentialVariables: readonly string[];
  /** Whether its model reads images (a tool may then return some). */
  readsImages(): Promise<boolean>;
}

/** The session's countdown timers (seed 000 §2.8); each method answers with the line to show. */
export interface Timers {
  start(name: string, durationSeconds: number): string;
  describe(name: string): string;
  describeAll(): string;
  stop(name: string): string;
}

/** A long-running piece of work a tool started and the session keeps an eye on (review_codebase). */
export interface BackgroundJob {
  readonly id: string;
  readonly description: string;
  /** One line: running for 2m 10s, finished (exit 0), failed… */
  status(): string;
  /** Stops the job when the session ends. */
  cancel(): void;
}

/** The session's background jobs, which it lists in the system prompt and cancels when it ends. */
export interface BackgroundJobs {
  add(job: BackgroundJob): void;
  list(): BackgroundJob[];
}

/**
 * How much the person is asked (MARVIN_APPROVAL, `/permissions`): `ask` every command, `auto` only what
 * the sandbox cannot contain, `never` nothing (what the sandbox refuses stays refused).
 */
export type ApprovalMode = "ask" | "auto" | "never";

export const APPROVAL_MODES: readonly ApprovalMode[] = ["ask", "auto", "never"];

/** Whether a command may run unconfined because no sandbox works: yes, the person said no, or no one to ask. */
export type UnconfinedAnswer = "run" | "declined" | "nobody-to-ask";

/** The session's approvals: whom to ask, and whether to, under the conversation's mode. */
export interface Approvals {
  readonly mode: ApprovalMode;
  /** Before run_command runs `command`; `sandboxed` says whether the sandbox will contain it. */
  command(command: string, sandboxed: boolean): Promise<boolean>;
  /**
   * Before a command runs unconfined because no sandbox program works (`missing` says which): `never` asks once
   * per conversation, and refuses where no one can be asked; `ask` and `auto` ask for each command anyway.
   */
  unconfined(missing: string): Promise<UnconfinedAnswer>;
  /** After the sandbox refused `command` (`reason` says what): may it run again outside? Only `auto` asks. */
  rerunOutsideSandbox(command: string, reason: string): Promise<boolean>;
  /** Before a tool that acts beyond the sandbox (an MCP tool that may change things, a crontab line, a package install). */
  tool(name: string, action: string): Promise<boolean>;
}

/**
 * Where the session keeps what files were before Marvin changed them, per user message, so that
 * `rewind` and `undo` can put them back.
 */
export interface FileCheckpoints {
  /** `content` is what `path` held before this tool call wrote it (null: it did not exist). */
  before(path: string, content: Buffer | null): Promise<void>;
  /** What Marvin left at `path` (null: deleted), to tell later whether the person changed it since. */
  after(path: string, content: string | null): Promise<void>;
}

/** Language-server diagnostics of the files the coding tools write. */
export interface CodeDiagnostics {
  /**
   * What the language servers report about `files` (real paths inside `root`) as they are on disk now, as
   * lines to append to a tool result; "" when no server covers them. Never throws.
   */
  afterWrite(root: string, files: readonly string[]): Promise<string>;
  /**
   * Diagnostics that came after their write's result was given, each once, for files still as written then; lines
   * to append to the next tool result, "" when there are none. Never throws.
   */
  lateReports(): Promise<string>;
  /** In coding mode, starts the language servers of the working directory's project in the background. */
  warmUp(project: { codingMode: boolean; workingDir: string | null }): void;
}

/** What a child agent may spend: MARVIN_MAX_COST and MARVIN_MAX_DAILY_COST for its environment (undefined: none). */
export interface ChildCaps {
  conversation: number | undefined;
  daily: number | undefined;
}

/** One child agent's part of the conversation's spending caps, from before it starts until it has reported. */
export interface ChildAllowance {
  /**
   * Its share of what the caps leave, taken now: what is left divided among the children waiting for theirs.
   * Throws, saying why, when nothing is left.
   */
  claim(): Promise<ChildCaps>;
  /** The child ended having spent `cost` (undefined: not known, so its whole share counts as spent). */
  settle(cost: number | undefined): void;
  /** It was not started after all. */
  withdraw(): void;
}

/** The conversation's spending caps as a tool that starts child agents sees them. */
export interface ChildSpending {
  /**
   * Called when a child is asked for, before anything is awaited, so that the children asked for in one
   * answer share what is left.
   */
  enlist(): ChildAllowance;
}

/** Session services the tools use; the session implements them, tests build real ones. */
export interface ToolServices {
  /** The user's home directory (~/Notes, ~/Downloads…). */
  readonly home: string;
  readonly env: Env;
  /** Working directory of coding tools; null when none is set. */
  readonly workingDir: string | null;
  setWorkingDir(path: string): void;
  readonly profiles: ProfileStore;
  /** Name of the active profile. */
  readonly profileName: string;
  /** Switches the session to another profile (created if new) and reloads its state. */
  switchProfile(name: string): Promise<{ created: boolean }>;
  /** The LLM this session is talking to; undefined until its first request builds it. */
  readonly provider: ActiveProvider | undefined;
  readonly usage: UsageTracker;
  /** The spending caps' share for child agents; absent outside a session (no caps). */
  readonly childSpending?: ChildSpending;
  readonly timers: Timers;
  /** Background jobs (reviews) shown in the system prompt. */
  readonly jobs: BackgroundJobs;
  readonly budget: ContextBudgetView;
  /** Asks the person at the terminal, as the approval mode says; non-interactive runs never ask. */
  readonly approvals: Approvals;
  readonly diagnostics: CodeDiagnostics;
  /** One text-only LLM call that condenses `text` as `instruction` says. */
  summarize(text: string, instruction: string): Promise<string>;
  /** Ends an interactive session once the current answer is complete. */
  requestExit(message: string): void;
  /** Directories where context and history backups are written, newest location first. */
  backupDirs(): string[];
  /** Checkpoints of the files the tools change; absent when the session keeps none. */
  readonly checkpoints?: FileCheckpoints;
}
