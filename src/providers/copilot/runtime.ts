import type { CopilotClient, CopilotSession, SessionConfig } from "@github/copilot-sdk";
import { childEnvWith } from "../../shared/child-env.js";
import type { Env } from "../../shared/env.js";
import { copilotCredentialVariables } from "./credentials.js";
import { notAuthenticatedError, sdkMissingError, startupError, startupTimeoutError, withTimeout } from "./errors.js";

export type CopilotSdk = typeof import("@github/copilot-sdk");

const STOP_TIMEOUT_MS = 5_000;

export interface CopilotRuntimeOptions {
  /**
   * Environment the Copilot runtime process starts from (its GitHub token, HOME; other credentials
   * are removed); defaults to process.env.
   */
  env?: Env;
  /** Limit for each startup step: runtime start, auth check, session creation. */
  startupTimeoutMs: number;
  /** Directory the Copilot session works in; defaults to the current directory. */
  workingDirectory?: string;
}

async function loadSdk(): Promise<CopilotSdk> {
  try {
    return await import("@github/copilot-sdk");
  } catch (error) {
    throw sdkMissingError(error);
  }
}

async function stopClient(client: CopilotClient): Promise<void> {
  try {
    await withTimeout(client.stop(), STOP_TIMEOUT_MS, () => new Error("client stop timed out"));
  } catch {
    await client.forceStop().catch(() => undefined);
  }
}

/** The Copilot runtime's environment: no credential but its own. */
function copilotRuntimeEnv(env: Env): Record<string, string> {
  return childEnvWith(env, copilotCredentialVariables(env));
}

/**
 * The Copilot runtime process behind `@github/copilot-sdk`: started (and signed in) on first use, its sessions
 * created within the startup limit and torn down in the background, stopped last.
 */
export class CopilotRuntime {
  private sdk: CopilotSdk | null = null;
  private running: CopilotClient | null = null;
  private readonly teardowns = new Set<Promise<void>>();

  constructor(private readonly options: CopilotRuntimeOptions) {}

  /** The running client, if one started. */
  get client(): CopilotClient | null {
    return this.running;
  }

  async started(): Promise<CopilotClient> {
    if (this.running) return this.running;
    this.sdk ??= await loadSdk();
    const sdk = this.sdk;
    let client: CopilotClient | undefined;
    try {
      client = new sdk.CopilotClient({
        env: copilotRuntimeEnv(this.options.env ?? process.env),
        logLevel: "error",
        workingDirectory: this.options.workingDirectory,
      });
      await this.startupStep(client.start(), "start");
      const status = await this.startupStep(client.getAuthStatus(), "report its sign-in status");
      if (!status.isAuthenticated) throw notAuthenticatedError(status.statusMessage);
    } catch (error) {
      if (client) void client.forceStop().catch(() => undefined);
      throw startupError(error);
    }
    this.running = client;
    return client;
  }

  /** A new session of `client`; a client that cannot make one is let go. */
  async createSession(client: CopilotClient, config: (sdk: CopilotSdk) => SessionConfig): Promise<CopilotSession> {
    try {
      const created = client.createSession(config(this.sdk as CopilotSdk));
      return await this.startupStep(created, "create a session");
    } catch (error) {
      await this.resetClient();
      throw startupError(error);
    }
  }

  /** Disconnects a session and deletes its on-disk state, within a time limit. */
  async tearDown(
    session: CopilotSession,
    client: CopilotClient | null,
    { abortTurn }: { abortTurn: boolean },
  ): Promise<void> {
    const teardown = async () => {
      if (abortTurn) await session.abort().catch(() => undefined);
      await session.disconnect().catch(() => undefined);
      await client?.deleteSession(session.sessionId).catch(() => undefined);
    };
    const timedOut = () => new Error("session teardown timed out");
    const bounded = withTimeout(teardown(), STOP_TIMEOUT_MS, timedOut).catch(() => undefined);
    this.teardowns.add(bounded);
    await bounded;
    this.teardowns.delete(bounded);
  }

  /** Stops the runtime once the sessions' teardowns are over (they need the client). */
  async stop(): Promise<void> {
    await Promise.all(this.teardowns);
    const client = this.running;
    this.running = null;
    if (client) await stopClient(client);
  }

  private startupStep<T>(step: Promise<T>, description: string): Promise<T> {
    const limit = this.options.startupTimeoutMs;
    return withTimeout(step, limit, () => startupTimeoutError(description, limit));
  }

  private async resetClient(): Promise<void> {
    const client = this.running;
    this.running = null;
    if (client) await client.forceStop().catch(() => undefined);
  }
}
