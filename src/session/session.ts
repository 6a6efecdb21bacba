import { randomUUID } from "node:crypto";
import { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent, AgentEventListener, EventSink } from "../agent/events.js";
import { type LoopResult, reportUsage, runToolLoop } from "../agent/loop.js";
import { finalAnswer } from "../providers/final-answer.js";
import type { ChatStream } from "../providers/resilient-chat.js";
import { parseThinkingLevel, THINKING_LEVELS } from "../providers/thinking-level.js";
import type { LLMProvider, Message, ProviderName, ThinkingLevel, ToolCall } from "../providers/types.js";
import { errorMessage } from "../shared/error-message.js";
import { argumentsValue, type ToolArguments } from "../shared/tool-arguments.js";
import type { ChatLogEntry } from "../state/chat-log.js";
import { configPaths } from "../state/paths.js";
import { ProfileStore } from "../state/profiles.js";
import { UsageTracker } from "../state/usage.js";
import { LanguageServers } from "../tools/coding/lsp/language-servers.js";
import { stopLiveCommands } from "../tools/coding/shell/live-commands.js";
import { CORE_TOOLS } from "../tools/families.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import { JobBoard } from "../tools/kit/job-board.js";
import { TimerStore } from "../tools/organiser/timers/timer-store.js";
import { isDirectory } from "../workspace/regular-file.js";
import { initialApprovalMode, SessionApprovals } from "./approvals.js";
import { imageRefusal, type MessageAttachments, userMessage } from "./attachments.js";
import { backupDirForWrite, backupDirsOf } from "./backup-dirs.js";
import { ChatLogKeeper } from "./chat-log-keeper.js";
import { ConversationCheckpoints } from "./checkpoints/conversation-checkpoints.js";
import { Compactor } from "./compactor.js";
import { ConversationFrame } from "./conversation-frame.js";
import { ConversationSpending } from "./conversation-spending.js";
import { EventHub } from "./event-hub.js";
import { usageRecorder } from "./listeners/usage-recorder.js";
import { pollForNotifications } from "./notification-poll.js";
import { type ProviderFactory, ProviderSlot } from "./provider-slot.js";
import { SessionJournal } from "./saved-sessions/journal.js";
import { countsAsMessage, type NumberedUserMessage, numberUserMessages } from "./saved-sessions/session-file.js";
import { type LoadedSession, maxSessionsSetting, SessionStore } from "./saved-sessions/session-store.js";
import type { SessionOptions } from "./session-options.js";
import { gatherSystemPromptInput } from "./system-prompt.js";
import { type SessionView, sessionToolContext } from "./tool-context.js";
import { ToolOffer } from "./tool-offer.js";

export const INTERACTIVE_ROUNDS = 10;
export const CODING_ROUNDS = 50;
/** Chat-log entries the front ends show when an interactive session starts. */
export const RECENT_CHAT_ENTRIES = 20;

/**
 * State and lifecycle of one conversation (seed 000 §2.2): builds the system message,
 * runs the loop, persists history (interactive only), and fans events out to subscribers.
 * Front ends subscribe; they never reach into the loop.
 */
export class Session implements SessionView {
  readonly usage: UsageTracker;
  /** What the conversation and today have cost; MARVIN_MAX_COST and MARVIN_MAX_DAILY_COST. */
  readonly spending: ConversationSpending;
  /** Who is asked before commands and tools run, and how much (`/permissions`). */
  readonly approvals: SessionApprovals;
  readonly timers: TimerStore;
  readonly jobs = new JobBoard();
  /** Language servers started by the coding tools' writes; `lsp` lists them. */
  readonly diagnostics: LanguageServers;
  readonly profiles: ProfileStore;
  readonly budget: ContextBudget;
  readonly messages: Message[] = [];
  codingMode: boolean;
  profileName = "main";
  #workingDir: string | null;
  #exitRequested: string | undefined;
  #planning = false;
  private readonly events = new EventHub();
  private readonly providers: ProviderSlot;
  private busyFlag = false;
  private controller: AbortController | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly chatLog: ChatLogKeeper;
  private journal: SessionJournal | undefined;
  /** The system message in front of the conversation, and the context note of each new message. */
  private readonly frame = new ConversationFrame();
  private store: SessionStore | undefined;
  /** The tools this conversation offers the model: a core, then the families it loaded. */
  private readonly tools: ToolOffer;
  private readonly compactor: Compactor;
  /** The prompt-cache key of a conversation that is not saved (a saved one uses its id). */
  private unsavedConversationKey = randomUUID();
  /** What the tools changed in files, per user message, for `rewind` and `undo`; kept beside the session file. */
  #checkpoints: ConversationCheckpoints | undefined;
  /** How hard the model thinks (`MARVIN_THINKING`, `thinking`); undefined: the provider's own default. */
  #thinking: ThinkingLevel | undefined;

  constructor(private readonly options: SessionOptions) {
    this.codingMode = options.codingMode || options.nonInteractive;
    this.#workingDir = options.workingDir;
    this.usage = new UsageTracker(options.now);
    const notice = (text: string) => this.events.notice(text);
    const usagePath = configPaths(options.home).usage;
    this.spending = new ConversationSpending(this.usage, options.env, !options.nonInteractive, usagePath, notice);
    this.chatLog = new ChatLogKeeper(notice, options.now);
    this.approvals = new SessionApprovals(initialApprovalMode(options.env, !!options.askApproval), options.askApproval);
    this.profiles = new ProfileStore(configPaths(options.home));
    this.budget = options.budget ?? new ContextBudget();
    this.#thinking = parseThinkingLevel(options.env.MARVIN_THINKING ?? "");
    this.providers = new ProviderSlot({
      create: options.createProvider,
      fallback: options.fallbackProvider,
      transientBackoffSeconds: options.transientBackoffSeconds,
      notice,
    });
    this.timers = new TimerStore((name) => this.events.notice(`⏰ Timer '${name}' is done.`, "info"));
    this.compactor = new Compactor({
      budget: this.budget,
      emit: (event) => this.emit(event),
      checkSpending: () => this.spending.check(),
      backupDir: () => backupDirForWrite(this.profiles, this.profileName, this.workingDir, notice),
      summarize: (text, instruction) => this.summarize(text, instruction),
      onCompacted: () => this.frame.invalidate(),
    });
    this.diagnostics = new LanguageServers({
      env: options.env,
      configPath: configPaths(options.home).lspConfig,
      notice: (text) => this.events.notice(text, "info"),
    });
    this.tools = new ToolOffer(options.registry, CORE_TOOLS, options.env.MARVIN_TOOLS?.trim().toLowerCase() === "all");
    this.subscribe(usageRecorder(this.usage));
    this.subscribe((event) => {
      if (event.type === "tool_end") this.tools.noteCall(event.name, event.input, this.mode);
    });
    if (options.extensions) this.subscribe(options.extensions.hooks.listener);
  }

  get busy(): boolean {
    return this.busyFlag;
  }

  /** Working directory of the coding tools; null when none is set. */
  get workingDir(): string | null {
    return this.#workingDir;
  }

  setWorkingDir(path: string | null): void {
    this.#workingDir = path;
  }

  /** Set by exit_app; interactive front ends exit once the answer is complete. */
  get exitRequested(): string | undefined {
    return this.#exitRequested;
  }

  requestExit(message: string): void {
    this.#exitRequested = message;
  }

  get mode(): ToolMode {
    return {
      codingMode: this.codingMode,
      nonInteractive: this.options.nonInteractive,
      readonly: this.options.readonly || this.#planning,
      planning: this.#planning,
    };
  }

  /** Plan mode: only tools that look are offered, and each message asks for a plan, until the user approves it. */
  get planning(): boolean {
    return this.#planning;
  }

  setPlanning(on: boolean): void {
    this.#planning = on;
  }

  get maxRounds(): number {
    return this.codingMode ? CODING_ROUNDS : INTERACTIVE_ROUNDS;
  }

  /** Names of every tool of the current mode, for `@tool` completion. */
  get toolNames(): string[] {
    return this.options.registry.names(this.mode);
  }

  get providerInfo(): { name: ProviderName; model: string } | undefined {
    return this.providers.info;
  }

  /** Whether the current model reads images (see readsImages in providers/vision.ts). */
  readsImages(): Promise<boolean> {
    return this.providers.readsImages(this.options.env);
  }

  get thinking(): ThinkingLevel | undefined {
    return this.#thinking;
  }

  /** Sets how hard the model thinks from the next request on; undefined: the provider's own default. */
  setThinking(level: ThinkingLevel | undefined): void {
    this.#thinking = level;
  }

  /** The active profile's chat log as loaded, plus this session's exchanges (front ends show the recent part). */
  get chatEntries(): readonly ChatLogEntry[] {
    return this.chatLog.entries;
  }

  subscribe(listener: AgentEventListener): () => void {
    return this.events.subscribe(listener);
  }

  /** Subscribes a listener that writes somewhere; `dispose()` waits for its pending writes. */
  subscribeDurable(sink: EventSink): void {
    this.events.subscribeDurable(sink);
  }

  /** Shows something to the person from outside a run (an MCP server that stopped, a failing hook). */
  notify(text: string, level: "info" | "warning" = "warning"): void {
    this.events.notice(text, level);
  }

  private emit(event: AgentEvent): void {
    this.events.emit(event);
  }

  /** The active profile's saved conversations; undefined when this session keeps none. */
  get sessions(): SessionStore | undefined {
    return this.store;
  }

  /**
   * Messages of this conversation, counted as `sessions` counts them (see countsAsMessage): the
   * chat-log lines seeded as context at start are not part of it.
   */
  get messageCount(): number {
    return this.journal?.messageCount ?? this.messages.filter(countsAsMessage).length;
  }

  /** File checkpoints of this conversation; undefined when it is not saved. */
  get checkpoints(): ConversationCheckpoints | undefined {
    return this.#checkpoints;
  }

  /** The user messages of the conversation, numbered as `messageCount` counts, with their place in `messages`. */
  userMessages(): NumberedUserMessage[] {
    return numberUserMessages(this.messages, this.messageCount);
  }

  /** Cuts the conversation back to just before user message `message` (`rewind`); false when it is not there. */
  async cutConversation(message: number): Promise<boolean> {
    if (this.busyFlag) throw new Error("Marvin is still answering: rewind after the answer.");
    const found = this.userMessages().find((entry) => entry.message === message);
    if (!found) return false;
    const removed = this.messages.splice(found.index).filter(countsAsMessage).length;
    this.journal?.recordRewind(removed);
    this.tools.restore(this.messages, this.mode);
    this.providers.markStale(); // a Copilot session holds the longer conversation
    await this.#checkpoints?.forgetFrom(message);
    return true;
  }

  /** The id under which this conversation is saved, if it is. */
  get conversationId(): string | undefined {
    return this.journal?.id;
  }

  /**
   * Loads the active profile. A new conversation starts empty: earlier chats reach the model only as the
   * system message's compact history, which the person can see with `sessions` and in the chat log.
   */
  async start(): Promise<void> {
    const active = await this.profiles.activeName();
    this.profileName = active.value;
    if (active.warning) this.notify(active.warning);
    for (const warning of this.spending.caps.warnings) this.notify(warning);
    const thinking = this.options.env.MARVIN_THINKING?.trim();
    if (thinking && !this.#thinking) {
      const levels = THINKING_LEVELS.join(", ");
      this.notify(`MARVIN_THINKING=${thinking} is not one of ${levels}: the model thinks as it does by default.`);
    }
    if (this.options.record) this.startJournal(this.options.record.id);
    if (this.options.nonInteractive) return;
    await this.profiles.ensure(this.profileName);
    await this.chatLog.load(this.profiles.paths(this.profileName).chatLog);
  }

  private startJournal(id: string | undefined): void {
    const paths = this.profiles.paths(this.profileName);
    this.store = new SessionStore(paths.sessions, maxSessionsSetting(this.options.env.MARVIN_MAX_SESSIONS));
    const source = {
      messages: this.messages,
      cwd: this.options.cwd ?? this.options.home,
      systemPrompt: () => this.frame.systemMessage,
      state: () => ({
        provider: this.providers.info?.name ?? null,
        model: this.providers.info?.model ?? null,
        codingMode: this.codingMode,
        workingDir: this.workingDir,
      }),
      notice: (text: string) => this.notify(text),
    };
    const store = this.store;
    const journal = new SessionJournal(store, source, id);
    this.journal = journal;
    this.#checkpoints = new ConversationCheckpoints(() => store.checkpointsDirOf(journal.id));
    this.subscribeDurable({ listener: this.journal.listener, flush: () => this.journal?.flush() ?? Promise.resolve() });
  }

  /**
   * Continues a stored conversation: its messages, coding mode and working directory (provider
   * and model are the caller's to restore). Returns what could not be restored, as notices.
   */
  async resume(stored: LoadedSession): Promise<string[]> {
    if (this.busyFlag) throw new Error("Marvin is still answering: resume after the answer.");
    const notices: string[] = [];
    if (stored.skippedLines > 0)
      notices.push(`Session ${stored.id}: skipped ${stored.skippedLines} damaged line(s) of ${stored.path}.`);
    this.messages.splice(0, this.messages.length, ...stored.messages);
    this.codingMode = stored.state.codingMode || this.options.nonInteractive;
    this.tools.restore(this.messages, this.mode);
    const dir = stored.state.workingDir;
    if (dir && !this.options.nonInteractive) {
      if (await isDirectory(dir)) this.#workingDir = dir;
      else notices.push(`The working directory of that session, ${dir}, is gone; none is set.`);
    }
    this.journal?.continueWith(stored);
    this.spending.newConversation();
    this.providers.markStale(); // a Copilot session holds the old conversation
    await this.options.extensions?.hooks.sessionResumed();
    return notices;
  }

  /** Starts a new conversation (`clear`): nothing of the old one goes to the model again. */
  async startNewConversation(): Promise<void> {
    if (this.busyFlag) throw new Error("Marvin is still answering: clear after the answer.");
    this.messages.length = 0;
    this.tools.restore(this.messages, this.mode);
    this.unsavedConversationKey = randomUUID();
    this.journal?.startNew();
    this.spending.newConversation();
    this.providers.markStale();
    await this.options.extensions?.hooks.sessionCleared();
  }

  /** Condenses the conversation now (`compact`), as the loop does when the context fills up. */
  compactNow(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const run = this.queue.then(async () => {
      await this.frameConversation();
      return this.compactor.compactInPlace(this.messages);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Puts the conversation's system message first and returns the context note for the next user message. */
  private async frameConversation(notifications: readonly string[] = []): Promise<string> {
    const input = await gatherSystemPromptInput({
      paths: this.profiles.paths(this.profileName),
      profileName: this.profileName,
      chatLog: this.chatLog,
      codingMode: this.codingMode,
      nonInteractive: this.options.nonInteractive,
      workingDir: this.workingDir,
      home: this.options.home,
      backgroundJobs: this.jobs.summaries(),
      notice: (text) => this.notify(text),
    });
    const note = { notifications, planning: this.#planning, now: this.options.now?.() ?? new Date() };
    return this.frame.apply(this.messages, input, note);
  }

  /** Runs one message; a message sent while busy waits for the current one to finish. */
  submit(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    const run = this.queue.then(() => this.run(text, attachments));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs one message on another provider (`!pro`), queued like `submit`; the session's own
   * provider is back in place for the next message.
   */
  submitOnce(text: string, createProvider: ProviderFactory): Promise<LoopResult> {
    const run = this.queue.then(() =>
      this.providers.borrow(
        createProvider,
        () => this.codingMode,
        () => this.run(text),
      ),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Cancels the in-flight request; the partial answer is kept. */
  abort(): void {
    this.controller?.abort(new Error("Cancelled by the user"));
  }

  toggleCodingMode(): boolean {
    this.codingMode = !this.codingMode;
    this.providers.markStale();
    return this.codingMode;
  }

  /** Replaces the provider (e.g. `!model`); the next request uses it. */
  useProvider(createProvider: ProviderFactory): Promise<LLMProvider> {
    return this.providers.use(createProvider, this.codingMode);
  }

  /** Makes `name` this session's profile; in an interactive session also the one the next session opens. */
  async switchProfile(name: string): Promise<{ created: boolean }> {
    // A sub-agent may work in another profile for itself, but never changes what the user's next session opens.
    const result = this.options.nonInteractive ? await this.profiles.ensure(name) : await this.profiles.setActive(name);
    this.profileName = name;
    await this.chatLog.load(this.profiles.paths(name).chatLog);
    this.providers.markStale(); // the Copilot session carries the old system message
    return result;
  }

  /**
   * `attachments` (files the message mentions, images) go with the text to the model, not in the chat log. Images to
   * a model that cannot read them are refused before anything is sent.
   */
  private async run(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    this.busyFlag = true;
    this.controller = new AbortController();
    try {
      const poll = this.options.pollNotifications;
      const profile = this.profiles.paths(this.profileName);
      const notify = (text: string, level: "info" | "warning") => this.notify(text, level);
      const notifications = poll ? await pollForNotifications(poll, profile, this.controller.signal, notify) : [];
      await this.options.extensions?.ready();
      await this.options.extensions?.hooks.runStarted(text);
      const context = await this.frameConversation(notifications);
      // After `!code` or a profile switch the slot builds the provider for the new mode first.
      const chat = await this.providers.chatFunction(this.codingMode);
      const provider = this.providers.info;
      if (provider && attachments.images?.length && !(await this.providers.readsImages(this.options.env)))
        return this.refused(imageRefusal(provider.model));
      if (this.#checkpoints) this.#checkpoints.message = this.messageCount + 1;
      this.messages.push(userMessage(text, attachments, context));
      if (!chat || !provider) return this.failedStart();
      const cacheKey = this.conversationId ?? this.unsavedConversationKey;
      const tuned = (chat: ChatStream): ChatStream =>
        this.spending.guard((request) =>
          chat({ ...request, cacheKey, ...(this.#thinking ? { thinking: this.#thinking } : {}) }),
        );
      const result = await runToolLoop(
        { messages: this.messages, maxRounds: this.maxRounds, signal: this.controller.signal },
        {
          chat: tuned(chat),
          ...(this.options.env.MARVIN_OVERFLOW_MODEL?.trim() ? { largerModel: () => this.largerModel(tuned) } : {}),
          providerName: provider.name,
          model: provider.model,
          tools: {
            schemas: () => this.tools.schemas(this.mode),
            execute: (call, args, signal, onProgress) => this.executeTool(call, args, signal, onProgress),
          },
          budget: this.budget,
          compact: (messages) => this.compactor.compact(messages),
          emit: (event) => this.emit(event),
        },
      );
      await this.persistExchange(text, result);
      return result;
    } finally {
      this.busyFlag = false;
      this.controller = undefined;
      await this.providers.settle();
    }
  }

  /** MARVIN_OVERFLOW_MODEL made the session's model, for a conversation the current one cannot hold. */
  private async largerModel(tuned: (chat: ChatStream) => ChatStream) {
    const model = this.options.env.MARVIN_OVERFLOW_MODEL?.trim();
    if (!model || this.providers.info?.model === model) return undefined;
    const provider = await this.providers.useModel(model, this.codingMode);
    const chat = await this.providers.chatFunction(this.codingMode);
    return chat ? { chat: tuned(chat), model: provider.model } : undefined;
  }

  private failedStart(): LoopResult {
    return this.refused(this.providers.failure);
  }

  /** Ends a run that sent nothing, saying why. */
  private refused(message: string): LoopResult {
    this.emit({ type: "error", message });
    this.emit({ type: "agent_end", reason: "error", text: "", rounds: 0 });
    return { reason: "error", text: "", rounds: 0, error: message };
  }

  private async persistExchange(text: string, result: LoopResult): Promise<void> {
    if (this.options.nonInteractive) return;
    const exchange = { text, answer: result.text, error: result.error };
    if (await this.chatLog.record(this.profiles.paths(this.profileName).chatLog, exchange))
      this.frame.chatLogAppended(this.chatLog.entries);
  }

  /**
   * Ends the session the one way every front end does: waits for durable listeners, adds this
   * session to the lifetime usage, then closes. Returns a warning to show, if any; never throws.
   */
  async dispose(): Promise<string | undefined> {
    await this.events.flush();
    const warning = await this.saveLifetimeUsage();
    await this.close();
    return warning;
  }

  /** Adds this session to the lifetime usage.json; returns a warning to show, if any. */
  private async saveLifetimeUsage(): Promise<string | undefined> {
    return this.usage
      .persistLifetime(configPaths(this.options.home).usage)
      .catch((error: unknown) => `Could not update usage.json: ${errorMessage(error)}`);
  }

  backupDirs(): string[] {
    return backupDirsOf(this.profiles, this.profileName, this.workingDir);
  }

  /** One text-only call (compaction, compact_history); its cost is recorded like any other. */
  async summarize(text: string, instruction: string): Promise<string> {
    const providerChat = await this.providers.chatFunction(this.codingMode);
    const provider = this.providers.info;
    if (!providerChat || !provider)
      throw new Error(`No LLM provider available to summarise: ${this.providers.failure}`);
    const chat = this.spending.guard(providerChat);
    const messages: Message[] = [
      { role: "system", content: instruction },
      { role: "user", content: text },
    ];
    const signal = this.controller?.signal;
    const response = await finalAnswer(chat({ messages, tools: [], signal, standalone: true }));
    await reportUsage(response, messages, {
      budget: this.budget,
      emit: (event) => this.emit(event),
      providerName: provider.name,
    });
    return response.content;
  }

  private executeTool(call: ToolCall, args: ToolArguments, signal: AbortSignal, onProgress: ToolContext["onProgress"]) {
    const name = call.function.name;
    const run = () => this.options.registry.run(name, args, this.toolContext(signal, onProgress));
    const hooks = this.options.extensions?.hooks;
    return hooks && !hooks.empty ? hooks.aroundTool({ id: call.id, name, input: argumentsValue(args) }, run) : run();
  }

  /** What a tool call in this session may see and do. */
  toolContext(signal: AbortSignal, onProgress: ToolContext["onProgress"] = () => undefined): ToolContext {
    const surroundings = {
      home: this.options.home,
      env: this.options.env,
      approvals: this.approvals,
    };
    return sessionToolContext(this, surroundings, signal, onProgress);
  }

  /** Ends the session: timers, job watching, language servers, processes run_command left running, the provider. */
  async close(): Promise<void> {
    this.timers.clear();
    this.jobs.cancelAll();
    await this.diagnostics.close();
    await stopLiveCommands();
    await this.options.extensions?.close();
    await this.providers.reset();
  }
}
