import type { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent } from "../agent/events.js";
import { type LoopResult, runToolLoop } from "../agent/loop.js";
import type { ToolCall } from "../providers/types.js";
import { argumentsValue, type ToolArguments } from "../shared/tool-arguments.js";
import type { ProfileStore } from "../state/profiles.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import type { JobBoard } from "../tools/kit/job-board.js";
import { imageRefusal, type MessageAttachments, userMessage } from "./attachments.js";
import type { ChatLogKeeper } from "./chat-log-keeper.js";
import type { Compactor } from "./compactor.js";
import type { ConversationFrame } from "./conversation-frame.js";
import type { ConversationRecord } from "./conversation-record.js";
import type { ModelAccess } from "./model-access.js";
import { pollForNotifications } from "./notification-poll.js";
import type { ProviderFactory, ProviderSlot } from "./provider-slot.js";
import type { SessionOptions } from "./session-options.js";
import { gatherSystemPromptInput } from "./system-prompt.js";
import type { ToolOffer } from "./tool-offer.js";

/** What the runner reads from its session each time it runs a message (the Session implements it). */
export interface RunnerSession {
  readonly mode: ToolMode;
  readonly maxRounds: number;
  readonly codingMode: boolean;
  readonly workingDir: string | null;
  readonly planning: boolean;
  readonly profileName: string;
  notify(text: string, level?: "info" | "warning"): void;
  toolContext(signal: AbortSignal, onProgress: ToolContext["onProgress"]): ToolContext;
}

/** The parts of a session a message run works with. */
interface RunnerParts {
  options: SessionOptions;
  session: RunnerSession;
  conversation: ConversationRecord;
  frame: ConversationFrame;
  chatLog: ChatLogKeeper;
  profiles: ProfileStore;
  model: ModelAccess;
  providers: ProviderSlot;
  tools: ToolOffer;
  compactor: Compactor;
  budget: ContextBudget;
  jobs: JobBoard;
  emit(event: AgentEvent): void;
}

/**
 * Runs a session's messages one after another: frames the conversation (system message, context
 * note), runs the tool loop on the session's model, records the exchange in the chat log.
 */
export class MessageRunner {
  #busy = false;
  #controller: AbortController | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly parts: RunnerParts) {}

  get busy(): boolean {
    return this.#busy;
  }

  /** The signal of the message being answered, if one is. */
  get signal(): AbortSignal | undefined {
    return this.#controller?.signal;
  }

  /** Cancels the in-flight request; the partial answer is kept. */
  abort(): void {
    this.#controller?.abort(new Error("Cancelled by the user"));
  }

  /** Runs one message; a message sent while busy waits for the current one to finish. */
  submit(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    return this.enqueue(() => this.run(text, attachments));
  }

  /** Runs one message on another provider (`!pro`); the session's own provider is back for the next one. */
  submitOnce(text: string, createProvider: ProviderFactory): Promise<LoopResult> {
    const codingMode = () => this.parts.session.codingMode;
    return this.enqueue(() => this.parts.providers.borrow(createProvider, codingMode, () => this.run(text)));
  }

  /** Condenses the conversation now (`compact`), after what is queued. */
  compactNow(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    return this.enqueue(async () => {
      await this.frameConversation();
      return this.parts.compactor.compactInPlace(this.parts.conversation.messages);
    });
  }

  /** Runs `work` after what is queued; a failure does not stop what comes next. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * `attachments` (files the message mentions, images) go with the text to the model, not in the chat log. Images to
   * a model that cannot read them are refused before anything is sent.
   */
  private async run(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    const { options, session, conversation, tools } = this.parts;
    this.#busy = true;
    this.#controller = new AbortController();
    const signal = this.#controller.signal;
    try {
      const poll = options.pollNotifications;
      const profile = this.parts.profiles.paths(session.profileName);
      const notify = (text: string, level: "info" | "warning") => session.notify(text, level);
      const notifications = poll ? await pollForNotifications(poll, profile, signal, notify) : [];
      await options.extensions?.ready();
      await options.extensions?.hooks.runStarted(text);
      const context = await this.frameConversation(notifications);
      // After `!code` or a profile switch the slot builds the provider for the new mode first.
      const model = await this.parts.model.forConversation(conversation.cacheKey);
      if (model && attachments.images?.length && !(await this.parts.providers.readsImages(options.env)))
        return this.refused(imageRefusal(model.model));
      conversation.addUserMessage(userMessage(text, attachments, context));
      if (!model) return this.failedStart();
      const result = await runToolLoop(
        { messages: conversation.messages, maxRounds: session.maxRounds, signal },
        {
          ...model,
          tools: {
            schemas: () => tools.schemas(session.mode),
            execute: (call, args, signal, onProgress) => this.executeTool(call, args, signal, onProgress),
          },
          budget: this.parts.budget,
          compact: (messages) => this.parts.compactor.compact(messages),
          emit: this.parts.emit,
        },
      );
      await this.recordExchange(text, result);
      return result;
    } finally {
      this.#busy = false;
      this.#controller = undefined;
      await this.parts.providers.settle();
    }
  }

  /** Puts the conversation's system message first and returns the context note for the next user message. */
  private async frameConversation(notifications: readonly string[] = []): Promise<string> {
    const { options, session } = this.parts;
    const input = await gatherSystemPromptInput({
      paths: this.parts.profiles.paths(session.profileName),
      profileName: session.profileName,
      chatLog: this.parts.chatLog,
      codingMode: session.codingMode,
      nonInteractive: options.nonInteractive,
      workingDir: session.workingDir,
      home: options.home,
      backgroundJobs: this.parts.jobs.summaries(),
      notice: (text) => session.notify(text),
    });
    const note = { notifications, planning: session.planning, now: options.now?.() ?? new Date() };
    return this.parts.frame.apply(this.parts.conversation.messages, input, note);
  }

  private failedStart(): LoopResult {
    return this.refused(this.parts.providers.failure);
  }

  /** Ends a run that sent nothing, saying why. */
  private refused(message: string): LoopResult {
    this.parts.emit({ type: "error", message });
    this.parts.emit({ type: "agent_end", reason: "error", text: "", rounds: 0 });
    return { reason: "error", text: "", rounds: 0, error: message };
  }

  /** Appends the exchange to the profile's chat log (interactive sessions only). */
  private async recordExchange(text: string, result: LoopResult): Promise<void> {
    const { options, chatLog, session } = this.parts;
    if (options.nonInteractive) return;
    const exchange = { text, answer: result.text, error: result.error };
    if (await chatLog.record(this.parts.profiles.paths(session.profileName).chatLog, exchange))
      this.parts.frame.chatLogAppended(chatLog.entries);
  }

  private executeTool(call: ToolCall, args: ToolArguments, signal: AbortSignal, onProgress: ToolContext["onProgress"]) {
    const name = call.function.name;
    const run = () => this.parts.options.registry.run(name, args, this.parts.session.toolContext(signal, onProgress));
    const hooks = this.parts.options.extensions?.hooks;
    return hooks && !hooks.empty ? hooks.aroundTool({ id: call.id, name, input: argumentsValue(args) }, run) : run();
  }
}
