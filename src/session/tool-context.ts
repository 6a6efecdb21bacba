import type { ContextBudget } from "../agent/context-budget.js";
import { providerCredentialVariables } from "../providers/credentials.js";
import type { ProviderName } from "../providers/types.js";
import type { Env } from "../shared/env.js";
import type { ProfileStore } from "../state/profiles.js";
import type { UsageTracker } from "../state/usage.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import type {
  Approvals,
  BackgroundJobs,
  ChildSpending,
  CodeDiagnostics,
  FileCheckpoints,
  Timers,
} from "../tools/kit/tool-services.js";

/** What a tool call sees of its session (the Session implements it). */
export interface SessionView {
  readonly mode: ToolMode;
  readonly workingDir: string | null;
  setWorkingDir(path: string): void;
  readonly profiles: ProfileStore;
  readonly profileName: string;
  switchProfile(name: string): Promise<{ created: boolean }>;
  readonly providerInfo: { name: ProviderName; model: string } | undefined;
  readsImages(): Promise<boolean>;
  readonly usage: UsageTracker;
  readonly spending: { readonly children: ChildSpending };
  readonly services: { timers: Timers; jobs: BackgroundJobs; approvals: Approvals; diagnostics: CodeDiagnostics };
  readonly budget: ContextBudget;
  summarize(text: string, instruction: string): Promise<string>;
  requestExit(message: string): void;
  backupDirs(): string[];
  readonly checkpoints: FileCheckpoints | undefined;
}

/** What a session keeps to itself but hands to its tools. */
interface SessionSurroundings {
  home: string;
  env: Env;
}

/**
 * The context of one tool call: a live view of the session (working dir, profile and provider
 * are read when the tool asks, so a change made by an earlier tool is seen) plus its services.
 */
export function sessionToolContext(
  session: SessionView,
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
    setWorkingDir: (path) => session.setWorkingDir(path),
    profiles: session.profiles,
    get profileName() {
      return session.profileName;
    },
    switchProfile: (name) => session.switchProfile(name),
    get provider() {
      const active = session.providerInfo;
      if (!active) return undefined;
      const credentialVariables = providerCredentialVariables(active.name, surroundings.env);
      return { ...active, credentialVariables, readsImages: () => session.readsImages() };
    },
    usage: session.usage,
    childSpending: session.spending.children,
    ...session.services,
    budget: session.budget.view(),
    summarize: (text, instruction) => session.summarize(text, instruction),
    requestExit: (message) => session.requestExit(message),
    backupDirs: () => session.backupDirs(),
    checkpoints: session.checkpoints,
  };
}
