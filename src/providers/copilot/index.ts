import { randomUUID } from "node:crypto";
import type { CopilotClient, CopilotSession, SessionEvent, ToolResultObject } from "@github/copilot-sdk";
import type { ProviderConfig } from "../descriptor.js";
import { ProviderError } from "../provider-error.js";
import { messageText } from "../transcript.js";
import type { ChatRequest, LLMProvider, LLMResponse, ProviderEvent } from "../types.js";
import { abortedError, sendError, startupError, turnTimeoutError, unlessAborted } from "./errors.js";
import {
  continuesDialogue,
  type DialogueEntry,
  dialogueOf,
  earlierImageAttachments,
  earlierMessages,
  imageAttachments,
  lastUserMessage,
  latestToolResults,
  promptWithContextUpdate,
  promptWithEarlierConversation,
  systemContextUpdate,
  systemMessageOf,
  toolSetKeyOf,
} from "./messages.js";
import { CopilotRuntime, type CopilotRuntimeOptions } from "./runtime.js";
import { sessionConfig } from "./session-config.js";
import { CopilotTurn } from "./turn.js";

export { isCopilotUsable } from "./usable.js";

const DEFAULT_STARTUP_TIMEOUT_MS = 20_000;
/** Dialogue entries remembered per session: enough to recognise any request's earlier messages. */
const HELD_DIALOGUE_ENTRIES = 400;

/** What the live session holds: the system context it was given and the dialogue so far. */
interface HeldConversation {
  system: string;
  dialogue: DialogueEntry[];
}

/** The session a request goes to, the prompt to send it, and what the session holds once it has answered. */
interface TurnPlan {
  session: CopilotSession;
  prompt: string;
  /** Images of the conversation so far, for a new session told it. */
  earlierImages: ReturnType<typeof earlierImageAttachments>;
  system: string;
  dialogueBefore: DialogueEntry[];
}

/** How the runtime starts; the startup limit has a default. */
type CopilotProviderOptions = Partial<CopilotRuntimeOptions>;

/**
 * GitHub Copilot through `@github/copilot-sdk`. The SDK runs a tool loop of its own: each
 * round of calls it asks for ends a stream with `tool_calls` (see ./turn.ts), and the next
 * request, with their results appended, hands those results back to it. One runtime client
 * and one session live across requests (seed 000 §2.5, §5.3): the session keeps the
 * conversation, so each request sends only its newest user message, led by whatever changed
 * in Marvin's system context since the last one. A new session (other tools, an answer the
 * session never gave, after a cancel) first hears the conversation so far. Standalone
 * requests (summaries) get a session of their own.
 */
export class CopilotProvider implements LLMProvider {
  readonly name = "copilot" as const;
  readonly model: string;
  readonly local = false;
  private readonly runtime: CopilotRuntime;
  private session: CopilotSession | null = null;
  private sessionKey: string | null = null;
  private held: HeldConversation | null = null;
  private listenerRegistered = false;
  private activeTurn: CopilotTurn | null = null;
  /** Keeps the active turn's final answer as part of the dialogue its session holds. */
  private holdAnswer: (answer: LLMResponse) => void = () => undefined;
  private sessionQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: ProviderConfig,
    private readonly options: CopilotProviderOptions = {},
  ) {
    this.model = config.model;
    this.runtime = new CopilotRuntime({
      ...options,
      startupTimeoutMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    });
  }

  async *stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    try {
      if (request.signal?.aborted) throw abortedError(false);
      if (request.standalone) yield* this.standaloneStream(request);
      else yield* this.conversationStream(request);
    } catch (error) {
      // Only failures before the round's events began reach this point: those end with their own done or error.
      yield { type: "error", error: error instanceof ProviderError ? error : startupError(error) };
    }
  }

  /** A request of the conversation: the next round of the turn it continues, else a new turn. */
  private async *conversationStream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const waiting = this.activeTurn;
    if (waiting && waiting.awaitedCallIds.length > 0) {
      if (waiting.resume(latestToolResults(request.messages), request.tools.length > 0)) {
        yield* this.followActiveTurn(waiting, request.signal);
        return;
      }
      // Marvin went on without those results (a cancel, the round limit): that turn is over.
      waiting.fail(abortedError(waiting.hasOutput));
      this.activeTurn = null;
      void this.retireSession({ abortTurn: true });
    }
    if (this.activeTurn) {
      throw new ProviderError("Copilot is still answering the previous request.", {
        provider: "copilot",
        kind: "bad_request",
      });
    }
    const asked = lastUserMessage(request.messages);
    const prompt = asked.content;
    const turn = new CopilotTurn(this.model, request.tools.length > 0);
    this.activeTurn = turn;
    let plan: TurnPlan;
    try {
      plan = await unlessAborted(this.sessionFor(request), request.signal);
    } catch (error) {
      this.activeTurn = null;
      throw error;
    }
    this.holdAnswer = (answer) => {
      if (plan.session !== this.session) return;
      const exchange = dialogueOf([
        { role: "user", content: prompt },
        { role: "assistant", content: answer.content },
      ]);
      const dialogue = [...plan.dialogueBefore, ...exchange].slice(-HELD_DIALOGUE_ENTRIES);
      this.held = { system: plan.system, dialogue };
    };
    this.send(plan.session, turn, plan.prompt, [...plan.earlierImages, ...imageAttachments(asked)]);
    yield* this.followActiveTurn(turn, request.signal);
  }

  /** A round of the conversation's turn; the turn stops being active once it ended (answered or failed). */
  private async *followActiveTurn(turn: CopilotTurn, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    try {
      for await (const event of this.followTurn(turn, signal)) {
        if (event.type === "done" && event.response.finishReason !== "tool_calls") this.holdAnswer(event.response);
        yield event;
      }
    } finally {
      if (this.activeTurn === turn && turn.awaitedCallIds.length === 0) this.activeTurn = null;
    }
  }

  /** A request outside the conversation: a session of its own, without tools, gone afterwards. */
  private async *standaloneStream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const prompt = messageText(lastUserMessage(request.messages));
    const started = this.sessionQueue.then(() => this.runtime.started());
    this.sessionQueue = started.catch(() => undefined);
    const client = await unlessAborted(started, request.signal);
    const session = await this.createSession(client, { ...request, tools: [] });
    const turn = new CopilotTurn(this.model, false);
    const unsubscribe = session.on((event) => turn.handle(event));
    try {
      this.send(session, turn, prompt);
      // On a timeout or an abort the turn fails at once; the session goes in any case.
      yield* this.followTurn(turn, request.signal);
    } finally {
      unsubscribe();
      await this.runtime.tearDown(session, client, { abortTurn: true });
    }
  }

  async destroy(): Promise<void> {
    this.activeTurn?.fail(abortedError(this.activeTurn.hasOutput));
    await this.sessionQueue;
    await this.retireSession({ abortTurn: true });
    await this.runtime.stop();
  }

  private send(session: CopilotSession, turn: CopilotTurn, prompt: string, images = imageAttachments()): void {
    session
      .send({ prompt, ...(images.length > 0 ? { attachments: images } : {}) })
      .catch((error: unknown) => turn.fail(sendError(error, turn.hasOutput)));
  }

  /**
   * Passes on the turn's current round, within the request's time limit (tools Marvin runs between rounds do not
   * count). On a timeout or an abort the turn fails and a conversation's session is let go: the runtime's
   * trailing events would leak into the next turn.
   */
  private async *followTurn(turn: CopilotTurn, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const stop = (error: ProviderError) => {
      turn.fail(error);
      if (turn === this.activeTurn) void this.retireSession({ abortTurn: true });
    };
    const timeoutMs = this.config.timeoutMs;
    const timer = setTimeout(() => stop(turnTimeoutError(timeoutMs, turn.hasOutput)), timeoutMs);
    const onAbort = () => stop(abortedError(turn.hasOutput));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      yield* turn.events();
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Serialized: a startup abandoned by an aborted request still finishes before the next one. */
  private sessionFor(request: ChatRequest): Promise<TurnPlan> {
    const next = this.sessionQueue.then(() => this.planTurn(request));
    this.sessionQueue = next.catch(() => undefined);
    return next;
  }

  /** The live session when it holds this conversation and tool set, else a new one told the conversation so far. */
  private async planTurn(request: ChatRequest): Promise<TurnPlan> {
    // The context note goes to the model with the words, but the dialogue the session holds keeps only the words.
    const prompt = messageText(lastUserMessage(request.messages));
    const system = systemMessageOf(request.messages) ?? "";
    const earlier = earlierMessages(request.messages);
    const held = this.held;
    const sameTools = this.sessionKey === toolSetKeyOf(request);
    if (this.session && held && sameTools && continuesDialogue(held.dialogue, dialogueOf(earlier))) {
      const update = systemContextUpdate(held.system, system);
      const nextPrompt = promptWithContextUpdate(prompt, update);
      return { session: this.session, prompt: nextPrompt, earlierImages: [], system, dialogueBefore: held.dialogue };
    }
    void this.retireSession({ abortTurn: false });
    const session = await this.createSession(await this.runtime.started(), request);
    this.session = session;
    this.sessionKey = toolSetKeyOf(request);
    this.held = { system, dialogue: [] };
    this.registerListeners(session);
    const firstPrompt = promptWithEarlierConversation(prompt, earlier);
    const earlierImages = earlierImageAttachments(earlier);
    return { session, prompt: firstPrompt, earlierImages, system, dialogueBefore: dialogueOf(earlier) };
  }

  private createSession(client: CopilotClient, request: ChatRequest): Promise<CopilotSession> {
    const { workingDirectory } = this.options;
    const runTool = (name: string, args: unknown, toolCallId: string) => this.runMarvinTool(name, args, toolCallId);
    return this.runtime.createSession(client, (sdk) =>
      sessionConfig(request, sdk, { model: this.model, workingDirectory, runTool }),
    );
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

  /** Forgets the session at once, then disconnects it and deletes its on-disk state in the background. */
  private async retireSession({ abortTurn }: { abortTurn: boolean }): Promise<void> {
    const session = this.session;
    this.session = null;
    this.sessionKey = null;
    this.held = null;
    this.listenerRegistered = false;
    if (session) await this.runtime.tearDown(session, this.runtime.client, { abortTurn });
  }

  /** Session tools outlive requests, so a call goes to whichever turn is active now; Marvin's loop runs it. */
  private async runMarvinTool(name: string, args: unknown, toolCallId: string): Promise<string | ToolResultObject> {
    const turn = this.activeTurn;
    if (!turn) {
      return { textResultForLlm: `Tool ${name} cannot run: no Marvin request is active.`, resultType: "failure" };
    }
    return turn.requestTool(toolCallId || `copilot_${randomUUID()}`, name, args);
  }
}
