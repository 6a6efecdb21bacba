import { Session } from "../../src/agent/session.js";
import { resolveProviderConfig } from "../../src/providers/config.js";
import { createProvider } from "../../src/providers/create.js";
import { createToolRegistry } from "../../src/tools/index.js";
import type { ToolOutcome } from "../../src/tools/registry.js";

export interface ToolHarnessOptions {
  home: string;
  workingDir?: string | null;
  codingMode?: boolean;
  nonInteractive?: boolean;
  readonly?: boolean;
  env?: Record<string, string | undefined>;
  /** Answers run_command confirmations; absent → approved, as in non-interactive runs. */
  confirmCommand?: (command: string) => Promise<boolean>;
  /** URL of a scripted LLM server for tools that summarise; absent → no provider. */
  llmUrl?: string;
}

export interface ToolHarness {
  session: Session;
  /** Runs a tool through the real registry, as the agent loop does. */
  call(name: string, args: unknown): Promise<ToolOutcome>;
  close(): Promise<void>;
}

/** A real session and tool registry over a temporary home, for calling tools directly. */
export async function createToolHarness(options: ToolHarnessOptions): Promise<ToolHarness> {
  const env = { HOME: options.home, PATH: process.env.PATH, ...options.env };
  if (options.llmUrl) Object.assign(env, { OPENAI_COMPAT_URL: options.llmUrl, OPENAI_COMPAT_API_KEY: "test-key", OPENAI_COMPAT_MODEL: "gpt-4o-mini" });
  const registry = createToolRegistry();
  const session = new Session({
    home: options.home,
    env,
    nonInteractive: options.nonInteractive ?? false,
    codingMode: options.codingMode ?? false,
    readonly: options.readonly ?? false,
    workingDir: options.workingDir ?? null,
    registry,
    createProvider: async (codingMode) => {
      if (!options.llmUrl) throw new Error("No LLM provider is configured for this test.");
      return createProvider(resolveProviderConfig("openai-compat", { env, home: options.home, codingMode, nonInteractive: true }), env);
    },
    confirmCommand: options.confirmCommand,
  });
  await session.start();
  return {
    session,
    call: (name, args) => registry.execute(name, typeof args === "string" ? args : JSON.stringify(args), session.toolContext(new AbortController().signal)),
    close: () => session.close(),
  };
}
