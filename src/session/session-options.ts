import type { ContextBudget } from "../agent/context-budget.js";
import type { Fallback } from "../providers/resilient-chat.js";
import type { Env } from "../shared/env.js";
import type { ToolRegistry } from "../tools/kit/registry.js";
import type { Extensions } from "./extensions.js";
import type { NotificationPoller } from "./notification-poll.js";
import type { ProviderFactory } from "./provider-slot.js";

/** What a Session is built from (cli/build-session.ts builds it; tests build their own). */
export interface SessionOptions {
  home: string;
  env: Env;
  /** The directory Marvin was started in (stored with the conversation for `--continue`). */
  cwd?: string;
  /**
   * Keep the conversation in the profile's sessions folder. Interactive sessions do; a
   * non-interactive run only when given an id (`--session ID`).
   */
  record?: { id?: string };
  nonInteractive: boolean;
  codingMode: boolean;
  readonly: boolean;
  workingDir: string | null;
  registry: ToolRegistry;
  /** Builds the provider for the current mode; called lazily, again after a reset. */
  createProvider: ProviderFactory;
  /** The Copilot fallback, or undefined when there is none. */
  fallbackProvider?: Fallback;
  /** Asks the person to approve a shell command; absent → approved (non-interactive). */
  confirmCommand?: (command: string) => Promise<boolean>;
  /**
   * Session-level hook run on every submission (ntfy, seed 000 invariant 12): what arrived since
   * the last poll enters the conversation as a system message. `signal` ends it after a short wait.
   */
  pollNotifications?: NotificationPoller;
  budget?: ContextBudget;
  /** Hooks, custom tools and MCP servers (seed 003): awaited before each request, hooked around each tool call. */
  extensions?: Extensions;
  /** Seconds between retries of transient provider errors (tests shorten them). */
  transientBackoffSeconds?: readonly number[];
  now?: () => Date;
}
