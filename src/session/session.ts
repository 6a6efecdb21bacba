import { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent, AgentEventListener, EventSink } from "../agent/events.js";
import type { LoopResult } from "../agent/loop.js";
import type { LLMProvider, Message, ProviderName, ThinkingLevel } from "../providers/types.js";
import { errorMessage } from "../shared/error-message.js";
import type { ChatLogEntry } from "../state/chat-log.js";
import { configPaths } from "../state/paths.js";
import { ProfileStore } from "../state/profiles.js";
import { UsageTracker } from "../state/usage.js";
import { CORE_TOOLS } from "../tools/families.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import { isDirectory } from "../workspace/regular-file.js";
import type { MessageAttachments } from "./attachments.js";
import { backupDirForWrite, backupDirsOf } from "./backup-dirs.js";
import { ChatLogKeeper } from "./chat-log-keeper.js";
import type { ConversationCheckpoints } from "./checkpoints/conversation-checkpoints.js";
import { Compactor } from "./compactor.js";
import { ConversationFrame } from "./conversation-frame.js";
import { ConversationRecord } from "./conversation-record.js";
import { ConversationSpending } from "./conversation-spending.js";
import { EventHub } from "./event-hub.js";
import { usageRecorder } from "./listeners/usage-recorder.js";
import { MessageRunner } from "./message-runner.js";
import { ModelAccess } from "./model-access.js";
import { type ProviderFactory, ProviderSlot } from "./provider-slot.js";
import type { NumberedUserMessage } from "./saved-sessions/session-file.js";
import { type LoadedSession, maxSessionsSetting, SessionStore } from "./saved-sessions/session-store.js";
import type { SessionOptions } from "./session-options.js";
import { SessionToolServices } from "./session-tool-services.js";
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
  /** Approvals, timers, background jobs, language servers: lent to the tools, closed with the session. */
  readonly services: SessionToolServices;
  readonly profiles: ProfileStore;
  readonly budget: ContextBudget;
  #codingMode: boolean;
  profileName = "main";
  #workingDir: string | null;
  #exitRequested: string | undefined;
  #planning = false;
  private readonly events = new EventHub();
  private readonly providers: ProviderSlot;
  private readonly chatLog: ChatLogKeeper;
  private readonly conversation = new ConversationRecord();
  private readonly model: ModelAccess;
  /** The system message in front of the conversation, and the context note of each new message. */
  private readonly frame = new ConversationFrame();
  /** The tools this conversation offers the model: a core, then the families it loaded. */
  private readonly tools: ToolOffer;
  private readonly compactor: Compactor;
  private readonly runner: MessageRunner;

  constructor(private readonly options: SessionOptions) {
    this.#codingMode = options.codingMode || options.nonInteractive;
    this.#workingDir = options.workingDir;
    this.usage = new UsageTracker(options.now);
    const notice = (text: string) => this.events.notice(text);
    const usagePath = configPaths(options.home).usage;
    this.spending = new ConversationSpending(this.usage, options.env, !options.nonInteractive, usagePath, notice);
    this.chatLog = new ChatLogKeeper(notice, options.now);
    this.profiles = new ProfileStore(configPaths(options.home));
    this.budget = options.budget ?? new ContextBudget();
    this.providers = new ProviderSlot({
      create: options.createProvider,
      fallback: options.fallbackProvider,
      transientBackoffSeconds: options.transientBackoffSeconds,
      notice,
    });
    this.model = new ModelAccess({
      providers: this.providers,
      spending: this.spending,
      budget: this.budget,
      env: options.env,
      codingMode: () => this.codingMode,
      emit: (event) => this.emit(event),
    });
    this.services = new SessionToolServices(options, (text, level) => this.events.notice(text, level));
    this.compactor = new Compactor({
      budget: this.budget,
      emit: (event) => this.emit(event),
      checkSpending: () => this.spending.check(),
      backupDir: () => backupDirForWrite(this.profiles, this.profileName, this.workingDir, notice),
      summarize: (text, instruction) => this.summarize(text, instruction),
      onCompacted: () => this.frame.invalidate(),
    });
    this.tools = new ToolOffer(options.registry, CORE_TOOLS, options.env.MARVIN_TOOLS?.trim().toLowerCase() === "all");
    this.subscribe(usageRecorder(this.usage));
    this.subscribe((event) => {
      if (event.type === "tool_end") this.tools.noteCall(event.name, event.input, this.mode);
    });
    if (options.extensions) this.subscribe(options.extensions.hooks.listener);
    this.runner = new MessageRunner({
      ...{ options, session: this, conversation: this.conversation, frame: this.frame, chatLog: this.chatLog },
      ...{ profiles: this.profiles, model: this.model, providers: this.providers, tools: this.tools },
      ...{
        compactor: this.compactor,
        budget: this.budget,
        jobs: this.services.jobs,
        emit: (event) => this.emit(event),
      },
    });
  }

  get busy(): boolean {
    return this.runner.busy;
  }

  /** The conversation: system message, user and assistant messages, tool calls and results. */
  get messages(): Message[] {
    return this.conversation.messages;
  }

  get codingMode(): boolean {
    return this.#codingMode;
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
    const { nonInteractive, readonly } = this.options;
    const planning = this.#planning;
    return { codingMode: this.codingMode, nonInteractive, readonly: readonly || planning, planning };
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
    return this.model.thinking;
  }

  /** Sets how hard the model thinks from the next request on; undefined: the provider's own default. */
  setThinking(level: ThinkingLevel | undefined): void {
    this.model.setThinking(level);
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
    return this.conversation.store;
  }

  /** Messages of this conversation, as `sessions` counts them (see countsAsMessage). */
  get messageCount(): number {
    return this.conversation.messageCount;
  }

  /** What the tools changed in files, per user message, for `rewind` and `undo`; undefined when not saved. */
  get checkpoints(): ConversationCheckpoints | undefined {
    return this.conversation.checkpoints;
  }

  /** The user messages of the conversation, numbered as `messageCount` counts, with their place in `messages`. */
  userMessages(): NumberedUserMessage[] {
    return this.conversation.userMessages();
  }

  /** Cuts the conversation back to just before user message `message` (`rewind`); false when it is not there. */
  async cutConversation(message: number): Promise<boolean> {
    if (this.busy) throw new Error("Marvin is still answering: rewind after the answer.");
    if (!(await this.conversation.cutBefore(message))) return false;
    this.tools.restore(this.messages, this.mode);
    this.providers.markStale(); // a Copilot session holds the longer conversation
    return true;
  }

  /** The id under which this conversation is saved, if it is. */
  get conversationId(): string | undefined {
    return this.conversation.id;
  }

  /**
   * Loads the active profile. A new conversation starts empty: earlier chats reach the model only as the
   * system message's compact history, which the person can see with `sessions` and in the chat log.
   */
  async start(): Promise<void> {
    const active = await this.profiles.activeName();
    this.profileName = active.value;
    const warnings = [active.warning, ...this.spending.caps.warnings, this.model.thinkingWarning];
    for (const warning of warnings) if (warning) this.notify(warning);
    if (this.options.record) this.saveConversation(this.options.record.id);
    if (this.options.nonInteractive) return;
    await this.profiles.ensure(this.profileName);
    await this.chatLog.load(this.profiles.paths(this.profileName).chatLog);
  }

  private saveConversation(id: string | undefined): void {
    const paths = this.profiles.paths(this.profileName);
    const store = new SessionStore(paths.sessions, maxSessionsSetting(this.options.env.MARVIN_MAX_SESSIONS));
    const source = {
      cwd: this.options.cwd ?? this.options.home,
      systemPrompt: () => this.frame.systemMessage,
      knownTokens: (messages: readonly Message[]) => this.budget.knownTokens(messages),
      state: () => ({
        provider: this.providers.info?.name ?? null,
        model: this.providers.info?.model ?? null,
        codingMode: this.codingMode,
        workingDir: this.workingDir,
      }),
      notice: (text: string) => this.notify(text),
    };
    this.subscribeDurable(this.conversation.save(store, source, id));
  }

  /**
   * Continues a stored conversation: its messages, coding mode and working directory (provider
   * and model are the caller's to restore). Returns what could not be restored, as notices.
   */
  async resume(stored: LoadedSession): Promise<string[]> {
    if (this.busy) throw new Error("Marvin is still answering: resume after the answer.");
    const notices: string[] = [];
    if (stored.skippedLines > 0)
      notices.push(`Session ${stored.id}: skipped ${stored.skippedLines} damaged line(s) of ${stored.path}.`);
    this.conversation.continueWith(stored);
    const counted = stored.tokenCount;
    if (counted) this.budget.rememberCount(stored.messages.slice(0, counted.messages), counted.tokens);
    this.#codingMode = stored.state.codingMode || this.options.nonInteractive;
    this.tools.restore(this.messages, this.mode);
    const dir = stored.state.workingDir;
    if (dir && !this.options.nonInteractive) {
      if (await isDirectory(dir)) this.#workingDir = dir;
      else notices.push(`The working directory of that session, ${dir}, is gone; none is set.`);
    }
    this.spending.newConversation();
    this.providers.markStale(); // a Copilot session holds the old conversation
    await this.options.extensions?.hooks.sessionResumed();
    return notices;
  }

  /** Starts a new conversation (`clear`): nothing of the old one goes to the model again. */
  async startNewConversation(): Promise<void> {
    if (this.busy) throw new Error("Marvin is still answering: clear after the answer.");
    this.conversation.startNew();
    this.tools.restore(this.messages, this.mode);
    this.spending.newConversation();
    this.providers.markStale();
    await this.options.extensions?.hooks.sessionCleared();
  }

  /** Condenses the conversation now (`compact`), as the loop does when the context fills up. */
  compactNow(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    return this.runner.compactNow();
  }

  /** Runs one message; a message sent while busy waits for the current one to finish. */
  submit(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    return this.runner.submit(text, attachments);
  }

  /** Runs one message on another provider (`!pro`), queued like `submit`. */
  submitOnce(text: string, createProvider: ProviderFactory): Promise<LoopResult> {
    return this.runner.submitOnce(text, createProvider);
  }

  /** Cancels the in-flight request; the partial answer is kept. */
  abort(): void {
    this.runner.abort();
  }

  toggleCodingMode(): boolean {
    this.#codingMode = !this.#codingMode;
    this.providers.markStale();
    return this.#codingMode;
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
   * Ends the session the one way every front end does: waits for durable listeners, adds this
   * session to the lifetime usage, then closes. Returns a warning to show, if any; never throws.
   */
  async dispose(): Promise<string | undefined> {
    await this.events.flush();
    const warning = await this.usage
      .persistLifetime(configPaths(this.options.home).usage)
      .catch((error: unknown) => `Could not update usage.json: ${errorMessage(error)}`);
    await this.close();
    return warning;
  }

  backupDirs(): string[] {
    return backupDirsOf(this.profiles, this.profileName, this.workingDir);
  }

  /** One text-only call (compaction, compact_history); its cost is recorded like any other. */
  summarize(text: string, instruction: string): Promise<string> {
    return this.model.summarize(text, instruction, this.runner.signal);
  }

  /** What a tool call in this session may see and do. */
  toolContext(signal: AbortSignal, onProgress: ToolContext["onProgress"] = () => undefined): ToolContext {
    return sessionToolContext(this, { home: this.options.home, env: this.options.env }, signal, onProgress);
  }

  /** Ends the session: timers, job watching, language servers, processes run_command left running, the provider. */
  async close(): Promise<void> {
    await this.services.close();
    await this.options.extensions?.close();
    await this.providers.reset();
  }
}
