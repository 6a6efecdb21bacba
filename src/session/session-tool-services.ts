import { configPaths } from "../state/paths.js";
import { LanguageServers } from "../tools/coding/lsp/language-servers.js";
import { JobBoard } from "../tools/kit/job-board.js";
import { stopLiveCommands } from "../tools/kit/processes/live-commands.js";
import { TimerStore } from "../tools/organiser/timers/timer-store.js";
import { initialApprovalMode, SessionApprovals } from "./approvals.js";
import type { SessionOptions } from "./session-options.js";

/**
 * What a session lends its tools and closes with them: who approves, timers, background jobs,
 * language servers, and the processes run_command left running.
 */
export class SessionToolServices {
  /** Who is asked before commands and tools run, and how much (`/permissions`). */
  readonly approvals: SessionApprovals;
  readonly timers: TimerStore;
  readonly jobs = new JobBoard();
  /** Language servers started by the coding tools' writes; `lsp` lists them. */
  readonly diagnostics: LanguageServers;

  constructor(options: SessionOptions, notice: (text: string, level: "info" | "warning") => void) {
    this.approvals = new SessionApprovals(initialApprovalMode(options.env, !!options.askApproval), options.askApproval);
    this.timers = new TimerStore((name) => notice(`⏰ Timer '${name}' is done.`, "info"));
    this.diagnostics = new LanguageServers({
      env: options.env,
      configPath: configPaths(options.home).lspConfig,
      notice: (text) => notice(text, "info"),
    });
  }

  async close(): Promise<void> {
    this.timers.clear();
    this.jobs.cancelAll();
    await this.diagnostics.close();
    await stopLiveCommands();
  }
}
