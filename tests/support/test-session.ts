import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { ContextBudget } from "../../src/agent/context-budget.js";
import { resolveProviderConfig } from "../../src/providers/config.js";
import { createProvider } from "../../src/providers/create.js";
import type { ProviderConfig } from "../../src/providers/descriptor.js";
import type { AskPerson } from "../../src/session/approvals.js";
import { Session } from "../../src/session/session.js";
import type { Env } from "../../src/shared/env.js";
import { type AnyToolDef, defineTool } from "../../src/tools/kit/define-tool.js";
import { ToolRegistry } from "../../src/tools/kit/registry.js";

/** Temporary directories of one test file, removed together. */
export class TempDirs {
  private readonly made: string[] = [];

  /** A fresh directory (real path, so symlinked /tmp does not confuse path checks). */
  async make(prefix = "marvin-unit-"): Promise<string> {
    const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    this.made.push(path);
    return path;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.made.splice(0).map((path) => rm(path, { recursive: true, force: true })));
  }
}

/** Env for the openai-compat provider talking to a scripted server. */
export function scriptedEnv(url: string, home: string, extra: Env = {}): Env {
  return {
    HOME: home,
    OPENAI_COMPAT_URL: url,
    OPENAI_COMPAT_API_KEY: "test-key",
    OPENAI_COMPAT_MODEL: "gpt-4o-mini",
    ...extra,
  };
}

/** Provider config for a scripted server, with optional timeouts in milliseconds. */
export function scriptedConfig(url: string, home: string, extra: Env = {}): ProviderConfig {
  return resolveProviderConfig("openai-compat", {
    env: scriptedEnv(url, home, extra),
    home,
    codingMode: false,
    nonInteractive: true,
  });
}

export function registryOf(tools: AnyToolDef[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return registry;
}

export interface TestSessionOptions {
  home: string;
  tools?: AnyToolDef[];
  registry?: ToolRegistry;
  /** Scripted LLM server; absent → creating the provider fails with a clear message. */
  llmUrl?: string;
  nonInteractive?: boolean;
  codingMode?: boolean;
  readonly?: boolean;
  workingDir?: string | null;
  budget?: ContextBudget;
  env?: Env;
  now?: () => Date;
  /** Answers run_command confirmations; absent → approved, as in non-interactive runs. */
  askApproval?: AskPerson;
  /** Keep the conversation in the profile's sessions folder (and its file checkpoints). */
  record?: { id?: string };
}

/** A real Session over a temporary home with the given tools, not yet started. */
export function createTestSession(options: TestSessionOptions): Session {
  // Language servers only where a test asks for them: others write code files without waiting for one.
  const extra: Env = { MARVIN_LSP: "off", ...options.env };
  const env: Env = options.llmUrl ? scriptedEnv(options.llmUrl, options.home, extra) : { HOME: options.home, ...extra };
  return new Session({
    home: options.home,
    env,
    nonInteractive: options.nonInteractive ?? false,
    codingMode: options.codingMode ?? false,
    readonly: options.readonly ?? false,
    workingDir: options.workingDir ?? null,
    registry: options.registry ?? registryOf(options.tools ?? []),
    budget: options.budget,
    transientBackoffSeconds: [0.01, 0.01],
    now: options.now,
    askApproval: options.askApproval,
    record: options.record,
    createProvider: async (codingMode, model) => {
      if (!options.llmUrl) throw new Error("No LLM provider is configured for this test.");
      return createProvider(
        resolveProviderConfig("openai-compat", { env, home: options.home, codingMode, model, nonInteractive: true }),
        env,
      );
    },
  });
}

/** Twenty long messages of an earlier exchange, enough to pass a 15,000-token compaction threshold. */
export function fillConversation(session: Session): void {
  const filler = "lorem ipsum dolor sit amet ".repeat(200);
  for (let index = 0; index < 20; index++)
    session.messages.push({ role: index % 2 ? "assistant" : "user", content: `${index}: ${filler}` });
}

/** A tool that only answers "found": for tests of the loop around tools, not of a tool. */
export const lookupTool = defineTool({
  name: "lookup",
  effect: "read",
  description: "Looks up.",
  parameters: z.object({}),
  handler: async () => "found",
});
