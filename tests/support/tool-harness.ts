import { expect } from "vitest";
import type { AskPerson } from "../../src/session/approvals.js";
import type { Session } from "../../src/session/session.js";
import type { Env } from "../../src/shared/env.js";
import { createToolRegistry } from "../../src/tools/index.js";
import type { ToolOutcome, ToolProgress } from "../../src/tools/kit/define-tool.js";
import { createTestSession } from "./test-session.js";

export interface ToolHarnessOptions {
  home: string;
  workingDir?: string | null;
  codingMode?: boolean;
  nonInteractive?: boolean;
  readonly?: boolean;
  env?: Env;
  /** Answers approval questions; absent → nobody is asked, as in non-interactive runs. */
  askApproval?: AskPerson;
  /** URL of a scripted LLM server for tools that summarise; absent → no provider. */
  llmUrl?: string;
  /** Keep the conversation in the profile's sessions folder (and its file checkpoints). */
  record?: { id?: string };
}

export interface ToolHarness {
  session: Session;
  /** Progress the tools reported, in order, over every call of this harness. */
  readonly progress: ToolProgress[];
  /** Runs a tool through the real registry, as the agent loop does. */
  call(name: string, args: unknown): Promise<ToolOutcome>;
  /** Runs a tool that must succeed; returns its text. */
  ok(name: string, args: unknown): Promise<string>;
  /** Runs a tool that must fail; returns its error text. */
  failure(name: string, args: unknown): Promise<string>;
  close(): Promise<void>;
}

/** A real session and the full tool registry over a temporary home, for calling tools directly. */
export async function createToolHarness(options: ToolHarnessOptions): Promise<ToolHarness> {
  const registry = createToolRegistry();
  const session = createTestSession({ ...options, env: { PATH: process.env.PATH, ...options.env }, registry });
  await session.start();
  const progress: ToolProgress[] = [];
  const call = (name: string, args: unknown) => {
    const context = session.toolContext(new AbortController().signal, (update) => progress.push(update));
    return registry.execute(name, typeof args === "string" ? args : JSON.stringify(args), context);
  };
  const expectOutcome = async (name: string, args: unknown, isError: boolean) => {
    const outcome = await call(name, args);
    expect(outcome.isError, outcome.result).toBe(isError);
    return outcome.result;
  };
  return {
    session,
    progress,
    call,
    ok: (name, args) => expectOutcome(name, args, false),
    failure: (name, args) => expectOutcome(name, args, true),
    close: () => session.close(),
  };
}

/** The harnesses one test opens, closed together in afterEach. */
export class ToolHarnessPool {
  private readonly opened: ToolHarness[] = [];

  async open(options: ToolHarnessOptions): Promise<ToolHarness> {
    const harness = await createToolHarness(options);
    this.opened.push(harness);
    return harness;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.splice(0).map((harness) => harness.close()));
  }
}
