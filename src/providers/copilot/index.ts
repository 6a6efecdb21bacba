import { randomUUID } from "node:crypto";
import type {
  CopilotClient,
  CopilotSession,
  PermissionHandler,
  SessionConfig,
  SessionEvent,
  Tool,
  ToolResultObject,
} from "@github/copilot-sdk";
import { providerChildEnv } from "../../shared/child-env.js";
import { PROVIDER_DEFAULTS, type Env, type ProviderConfig } from "../config.js";
import { ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMProvider, LLMResponse, ToolCall, ToolSchema } from "../types.js";
import {
  abortedError,
  notAuthenticatedError,
  sdkMissingError,
  sendError,
  startupError,
  startupTimeoutError,
  turnTimeoutError,
  unlessAborted,
  withTimeout,
} from "./errors.js";
import { lastUserPrompt, sessionKeyOf, systemMessageOf, toolNamesOf } from "./messages.js";
import { CopilotTurn } from "./turn.js";
import { errorMessage } from "../../shared/error-message.js";

export { isCopilotUsable } from "./usable.js";

type CopilotSdk = typeof import("@github/copilot-sdk");

const DEFAULT_STARTUP_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

export interface CopilotProviderOptions {
  /**
   * Environment the Copilot runtime process starts from (its GitHub token, HOME; other credentials
   * are removed); defaults to process.env.
   */
  env?: Env;
  /** Limit for each startup step: runtime start, auth check, session creation. */
  startupTimeoutMs?: number;
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

/**
 * GitHub Copilot through `@github/copilot-sdk`. Unlike the OpenAI-style adapters the SDK
 * runs the tool loop itself, calling back into Marvin's tools via `request.runTools`.
 * One runtime client and one session live across requests (seed 000 §2.5, §5.3).
 */
export class CopilotProvider implements LLMProvider {
  readonly name = "copilot" as const;
  readonly model: string;
  private readonly startupTimeoutMs: number;
  private sdk: CopilotSdk | null = null;
  private client: CopilotClient | null = null;
  private session: CopilotSession | null = null;
  private sessionKey: string | null = null;
  private listenerRegistered = false;
  private activeTurn: CopilotTurn | null = null;
  private readonly teardowns = new Set<Promise<void>>();
  private sessionQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: ProviderConfig,
    private readonly options: CopilotProviderOptions = {},
  ) {
    this.model = config.model || PROVIDER_DEFAULTS.copilot.model;
    this.startupTimeoutMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  async chat(request: ChatRequest): Promise<LLMResponse> {
    if (request.signal?.aborted) throw abortedError(false);
    if (this.activeTurn) {
      throw new ProviderError("Copilot is still answering the previous request.", { provider: "copilot", kind: "bad_request" });
    }
    const prompt = lastUserPrompt(request.messages);
    const turn = new CopilotTurn(request, this.model);
    this.activeTurn = turn;
    try {
      const session = await unlessAborted(this.sessionFor(request), request.signal);
      return await this.runTurn(session, turn, prompt, request.signal);
    } finally {
      if (this.activeTurn === turn) this.activeTurn = null;
    }
  }

  async destroy(): Promise<void> {
    this.activeTurn?.fail(abortedError(this.activeTurn.hasOutput));
    await this.sessionQueue;
    await this.retireSession({ abortTurn: true });
    await Promise.all(this.teardowns); // the client must outlive background teardowns
    const client = this.client;
    this.client = null;
    if (client) await stopClient(client);
  }

  private async runTurn(session: CopilotSession, turn: CopilotTurn, prompt: string, signal?: AbortSignal): Promise<LLMResponse> {
    const timeoutMs = this.config.timeoutMs;
    const timer = setTimeout(() => {
      turn.fail(turnTimeoutError(timeoutMs, turn.hasOutput));
      void this.retireSession({ abortTurn: true });
    }, timeoutMs);
    // After an abort the runtime's trailing events would leak into the next turn: start afresh.
    const onAbort = () => {
      turn.fail(abortedError(turn.hasOutput));
      void this.retireSession({ abortTurn: true });
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      else session.send({ prompt }).catch((error: unknown) => turn.fail(sendError(error, turn.hasOutput)));
      return await turn.done;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Serialized: a startup abandoned by an aborted request still finishes before the next one. */
  private sessionFor(request: ChatRequest): Promise<CopilotSession> {
    const next = this.sessionQueue.then(() => this.liveSessionFor(request));
    this.sessionQueue = next.catch(() => undefined);
    return next;
  }

  /** The live session when it was built for this tool set and system message, else a new one. */
  private async liveSessionFor(request: ChatRequest): Promise<CopilotSession> {
    const key = sessionKeyOf(request);
    if (this.session && this.sessionKey === key) return this.session;
    void this.retireSession({ abortTurn: false });
    const client = await this.startedClient();
    const sdk = this.sdk as CopilotSdk;
    let session: CopilotSession;
    try {
      session = await withTimeout(client.createSession(this.sessionConfig(request, sdk)), this.startupTimeoutMs, () =>
        startupTimeoutError("create a session", this.startupTimeoutMs),
      );
    } catch (error) {
      await this.resetClient();
      throw startupError(error);
    }
    this.session = session;
    this.sessionKey = key;
    this.registerListeners(session);
    return session;
  }

  private registerListeners(session: CopilotSession): void {
    if (this.listenerRegistered) return;
    session.on((event) => this.routeEvent(session, event));
    this.listenerRegistered = true;
  }

  private routeEvent(session: CopilotSession, event: SessionEvent): void {
    if (session !== this.session) return; // a retired session still draining
    this.activeTurn?.handle(event);
  }

  private async startedClient(): Promise<CopilotClient> {
    if (this.client) return this.client;
    const sdk = (this.sdk ??= await loadSdk());
    let client: CopilotClient | undefined;
    try {
      client = new sdk.CopilotClient({
        env: providerChildEnv("copilot", this.options.env ?? process.env),
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
    this.client = client;
    return client;
  }

  private startupStep<T>(step: Promise<T>, description: string): Promise<T> {
    return withTimeout(step, this.startupTimeoutMs, () => startupTimeoutError(description, this.startupTimeoutMs));
  }

  private async resetClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.forceStop().catch(() => undefined);
  }

  /** Forgets the session at once, then disconnects it and deletes its on-disk state in the background. */
  private async retireSession({ abortTurn }: { abortTurn: boolean }): Promise<void> {
    const session = this.session;
    const client = this.client;
    this.session = null;
    this.sessionKey = null;
    this.listenerRegistered = false;
    if (!session) return;
    const teardown = async () => {
      if (abortTurn) await session.abort().catch(() => undefined);
      await session.disconnect().catch(() => undefined);
      await client?.deleteSession(session.sessionId).catch(() => undefined);
    };
    const bounded = withTimeout(teardown(), STOP_TIMEOUT_MS, () => new Error("session teardown timed out")).catch(() => undefined);
    this.teardowns.add(bounded);
    await bounded;
    this.teardowns.delete(bounded);
  }

  private sessionConfig(request: ChatRequest, sdk: CopilotSdk): SessionConfig {
    const systemMessage = systemMessageOf(request.messages);
    return {
      clientName: "marvin",
      model: this.model,
      streaming: true,
      workingDirectory: this.options.workingDirectory,
      ...(systemMessage === undefined ? {} : { systemMessage: { mode: "replace", content: systemMessage } }),
      tools: request.tools.map((schema) => this.toSdkTool(schema)),
      // Only Marvin's tools: the SDK's built-ins (shell, file edits, web fetch) stay off.
      availableTools: new sdk.ToolSet().addCustom("*"),
      toolSearch: { enabled: false },
      onPermissionRequest: approveOnly(new Set(toolNamesOf(request))),
    };
  }

  private toSdkTool(schema: ToolSchema): Tool {
    const name = schema.function.name;
    return {
      name,
      description: schema.function.description,
      parameters: schema.function.parameters,
      overridesBuiltInTool: true,
      skipPermission: true,
      handler: (args, invocation) => this.runMarvinTool(name, args, invocation.toolCallId),
    };
  }

  /** Session tools outlive requests, so a call goes to whichever request is active now. */
  private async runMarvinTool(name: string, args: unknown, toolCallId: string): Promise<string | ToolResultObject> {
    const runTools = this.activeTurn?.runTools;
    if (!runTools) {
      return { textResultForLlm: `Tool ${name} cannot run: no Marvin request is active.`, resultType: "failure" };
    }
    const call: ToolCall = {
      id: toolCallId || `copilot_${randomUUID()}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args ?? {}) },
    };
    try {
      const [result] = await runTools([call]);
      return result ?? "";
    } catch (error) {
      const message = errorMessage(error);
      return { textResultForLlm: `Tool ${name} failed: ${message}`, resultType: "failure", error: message };
    }
  }
}

function approveOnly(toolNames: ReadonlySet<string>): PermissionHandler {
  return (request) =>
    request.kind === "custom-tool" && toolNames.has(request.toolName)
      ? { kind: "approve-once" }
      : { kind: "reject", feedback: "Only Marvin's own tools may run in this session." };
}

async function stopClient(client: CopilotClient): Promise<void> {
  try {
    await withTimeout(client.stop(), STOP_TIMEOUT_MS, () => new Error("client stop timed out"));
  } catch {
    await client.forceStop().catch(() => undefined);
  }
}
