import { randomUUID } from "node:crypto";
import { compactMessages, KEEP_RECENT_MESSAGES } from "../agent/compaction.js";
import { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent, AgentEventListener, EventSink } from "../agent/events.js";
import { type LoopResult, reportUsage, runToolLoop } from "../agent/loop.js";
import { finalAnswer } from "../providers/final-answer.js";
import type { ChatStream, Fallback } from "../providers/resilient-chat.js";
import { parseThinkingLevel, THINKING_LEVELS } from "../providers/thinking-level.js";
import type { LLMProvider, Message, ProviderName, ThinkingLevel, ToolCall } from "../providers/types.js";
import { withDeadline } from "../shared/deadline.js";
import type { Env } from "../shared/env.js";
import { errorMessage } from "../shared/error-message.js";
import { argumentsValue, type ToolArguments } from "../shared/tool-arguments.js";
import { appendChatLog, type ChatLogEntry, clockTime, loadChatLog } from "../state/chat-log.js";
import { configPaths, type ProfilePaths } from "../state/paths.js";
import { loadPreferences } from "../state/preferences.js";
import { ensurePrivateDir } from "../state/private-dir.js";
import { ProfileStore } from "../state/profiles.js";
import { loadSavedPlaces } from "../state/saved-places.js";
import { UsageTracker } from "../state/usage.js";
import { stopLiveCommands } from "../tools/coding/shell/live-commands.js";
import { CORE_TOOLS } from "../tools/families.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import { JobBoard } from "../tools/kit/job-board.js";
import type { ToolRegistry } from "../tools/kit/registry.js";
import { TimerStore } from "../tools/organiser/timers/timer-store.js";
import { ensureInsideDir, OWN_DIRS } from "../workspace/own-dirs.js";
import { isDirectory } from "../workspace/regular-file.js";
import { ConversationFrame } from "./conversation-frame.js";
import type { Extensions } from "./extensions.js";
import { SessionJournal } from "./history/journal.js";
import { countsAsMessage } from "./history/session-file.js";
import { type LoadedSession, maxSessionsSetting, SessionStore } from "./history/session-store.js";
import { usageRecorder } from "./listeners/usage-recorder.js";
import { loadProjectContext } from "./project-context.js";
import { type ProviderFactory, ProviderSlot } from "./provider-slot.js";
import { SpendingCaps } from "./spending-caps.js";
import { backupDirsOf } from "./standalone-tool-context.js";
import type { SystemPromptInput } from "./system-prompt.js";
import { type SessionView, sessionToolContext } from "./tool-context.js";
import { ToolOffer } from "./tool-offer.js";

export const INTERACTIVE_ROUNDS = 10;
export const CODING_ROUNDS = 50;
/** Chat-log entries the front ends show when an interactive session starts. */
export const RECENT_CHAT_ENTRIES = 20;

interface SessionOptions {
  home: string;
  env: Env;
  /** The directory Marvin was started in (stored with the conversation for `--continue`). */
  cwd?: string;
  /**
   * Keep the conversation in the profile's sessions folder. Interactive sessions do; a
   * non-interactive run only when given an id (`--session ID`).
   */
  record?: { id?: string };
  nonInteractive: boolean;
  codingMode: boolean;
  readonly: boolean;
  workingDir: string | null;
  registry: ToolRegistry;
  /** Builds the provider for the current mode; called lazily, again after a reset. */
  createProvider: ProviderFactory;
  /** The Copilot fallback, or undefined when there is none. */
  fallbackProvider?: Fallback;
  /** Asks the person to approve a shell command; absent → approved (non-interactive). */
  confirmCommand?: (command: string) => Promise<boolean>;
  /**
   * Session-level hook run on every submission (ntfy, seed 000 invariant 12): what arrived since
   * the last poll enters the conversation as a system message. `signal` ends it after a short wait.
   */
  pollNotifications?: (profile: ProfilePaths, signal: AbortSignal) => Promise<NotificationPoll>;
  budget?: ContextBudget;
  /** Hooks, custom tools and MCP servers (seed 003): awaited before each request, hooked around each tool call. */
  extensions?: Extensions;
  /** Seconds between retries of transient provider errors (tests shorten them). */
  transientBackoffSeconds?: readonly number[];
  now?: () => Date;
}

/** What one notification poll found: new notifications, and sources that could not be asked. */
interface NotificationPoll {
  notifications: string[];
  problems: string[];
  warning?: string;
}

/** The longest a submission waits for notifications before going on without them. */
const NOTIFICATION_POLL_MS = 3_000;

/**
 * State and lifecycle of one conversation (seed 000 §2.2): builds the system message,
 * runs the loop, persists history (interactive only), and fans events out to subscribers.
 * Front ends subscribe; they never reach into the loop.
 */
export class Session implements SessionView {
  readonly usage: UsageTracker;
  /** MARVIN_MAX_COST and MARVIN_MAX_DAILY_COST, checked before every LLM request. */
  readonly caps: SpendingCaps;
  readonly timers: TimerStore;
  readonly jobs = new JobBoard();
  readonly profiles: ProfileStore;
  readonly budget: ContextBudget;
  readonly messages: Message[] = [];
  codingMode: boolean;
  profileName = "main";
  #workingDir: string | null;
  #exitRequested: string | undefined;
  private readonly listeners = new Set<AgentEventListener>();
  /** Pending writes of durable listeners (audit log, ntfy), awaited by `dispose()`. */
  private readonly flushes = new Set<() => Promise<void>>();
  private readonly providers: ProviderSlot;
  private busyFlag = false;
  private controller: AbortController | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private chatLog: ChatLogEntry[] = [];
  private journal: SessionJournal | undefined;
  /** The system message in front of the conversation, and the context note of each new message. */
  private readonly frame = new ConversationFrame();
  private store: SessionStore | undefined;
  /** The tools this conversation offers the model: a core, then the families it loaded. */
  private readonly tools: ToolOffer;
  /** The prompt-cache key of a conversation that is not saved (a saved one uses its id). */
  private unsavedConversationKey = randomUUID();
  /** The session cost when the current conversation began (start, `clear`, `resume`). */
  private conversationStartCost = 0;
  /** How hard the model thinks (`MARVIN_THINKING`, `thinking`); undefined: the provider's own default. */
  #thinking: ThinkingLevel | undefined;

  constructor(private readonly options: SessionOptions) {
    this.codingMode = options.codingMode || options.nonInteractive;
    this.#workingDir = options.workingDir;
    this.usage = new UsageTracker(options.now);
    this.caps = new SpendingCaps(options.env, !options.nonInteractive);
    this.profiles = new ProfileStore(configPaths(options.home));
    this.budget = options.budget ?? new ContextBudget();
    this.#thinking = parseThinkingLevel(options.env.MARVIN_THINKING ?? "");
    this.providers = new ProviderSlot({
      create: options.createProvider,
      fallback: options.fallbackProvider,
      transientBackoffSeconds: options.transientBackoffSeconds,
      notice: (text) => this.emit({ type: "notice", level: "warning", text }),
    });
    this.timers = new TimerStore((name) =>
      this.emit({ type: "notice", level: "info", text: `⏰ Timer '${name}' is done.` }),
    );
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
      readonly: this.options.readonly,
    };
  }

  get maxRounds(): number {
    return this.codingMode ? CODING_ROUNDS : INTERACTIVE_ROUNDS;
  }

  get providerInfo(): { name: ProviderName; model: string } | undefined {
    return this.providers.info;
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
    return this.chatLog;
  }

  subscribe(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes a listener that writes somewhere; `dispose()` waits for its pending writes. */
  subscribeDurable(listener: EventSink): void {
    this.subscribe(listener.listener);
    this.flushes.add(listener.flush);
  }

  /** Shows something to the person from outside a run (an MCP server that stopped, a failing hook). */
  notify(text: string, level: "info" | "warning" = "warning"): void {
    this.emit({ type: "notice", level, text });
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break the run or the other subscribers.
      }
    }
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
    if (active.warning) this.emit({ type: "notice", level: "warning", text: active.warning });
    for (const warning of this.caps.warnings) this.emit({ type: "notice", level: "warning", text: warning });
    const thinking = this.options.env.MARVIN_THINKING?.trim();
    if (thinking && !this.#thinking) {
      const levels = THINKING_LEVELS.join(", ");
      const text = `MARVIN_THINKING=${thinking} is not one of ${levels}: the model thinks as it does by default.`;
      this.emit({ type: "notice", level: "warning", text });
    }
    if (this.options.record) this.startJournal(this.options.record.id);
    if (this.options.nonInteractive) return;
    await this.profiles.ensure(this.profileName);
    await this.loadChatLog();
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
      notice: (text: string) => this.emit({ type: "notice", level: "warning", text }),
    };
    this.journal = new SessionJournal(this.store, source, id);
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
    this.beginConversation();
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
    this.beginConversation();
    this.providers.markStale();
    await this.options.extensions?.hooks.sessionCleared();
  }

  /** What this conversation's requests have cost in this process (a resumed one's earlier spending is not known). */
  get conversationCost(): number {
    return this.usage.getSessionUsage().session_cost - this.conversationStartCost;
  }

  /** What today's requests have cost: the sessions that ended (usage.json) and this one. */
  async spentToday(): Promise<number> {
    const { value, warning } = await this.usage.spentToday(configPaths(this.options.home).usage);
    if (warning) this.emit({ type: "notice", level: "warning", text: warning });
    return value;
  }

  private beginConversation(): void {
    this.conversationStartCost = this.usage.getSessionUsage().session_cost;
    this.caps.newConversation();
  }

  /** Throws SpendingCapReached when a spending cap is reached; costs nothing when no cap is set. */
  private async checkSpending(): Promise<void> {
    if (!this.caps.active) return;
    await this.caps.check({ conversation: this.conversationCost, today: () => this.spentToday() });
  }

  /** `chat`, refused (SpendingCapReached thrown) before any request once a spending cap is reached. */
  private withinCaps(chat: ChatStream): ChatStream {
    const checkSpending = () => this.checkSpending();
    return async function* cappedChat(request) {
      await checkSpending();
      yield* chat(request);
    };
  }

  /** Condenses the conversation now (`compact`), as the loop does when the context fills up. */
  compactNow(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const run = this.queue.then(async () => {
      await this.frameConversation();
      if (this.messages.length <= KEEP_RECENT_MESSAGES + 1) return undefined;
      const before = await this.budget.exactTokens(this.messages);
      this.emit({ type: "compaction", phase: "start", tokensBefore: before });
      const compacted = await this.compact(this.messages);
      this.messages.splice(0, this.messages.length, ...compacted.messages);
      const after = await this.budget.exactTokens(this.messages);
      const backupPath = compacted.backupPath;
      this.emit({ type: "compaction", phase: "end", tokensBefore: before, tokensAfter: after, backupPath });
      return { tokensBefore: before, tokensAfter: after };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Condenses `messages`; the next message gets a system message built afresh (a summary changed its place). */
  private async compact(messages: readonly Message[]): Promise<{ messages: Message[]; backupPath?: string }> {
    // Past a cap the summary would be refused and a poorer one rewrite the conversation: stop here instead.
    await this.checkSpending();
    const compacted = await compactMessages(messages, {
      backupDir: await this.backupDirForWrite(),
      summarize: (transcript) => this.summarize(transcript, SUMMARY_INSTRUCTION),
    });
    if (compacted.backupPath) this.frame.invalidate();
    return compacted;
  }

  /** Puts the conversation's system message first and returns the context note for the next user message. */
  private async frameConversation(notifications: readonly string[] = []): Promise<string> {
    const input = await this.systemPromptInput();
    return this.frame.apply(this.messages, input, notifications, this.options.now?.() ?? new Date());
  }

  private async loadChatLog(): Promise<void> {
    const loaded = await loadChatLog(this.profiles.paths(this.profileName).chatLog);
    this.chatLog = loaded.value;
    if (loaded.warning) this.emit({ type: "notice", level: "warning", text: loaded.warning });
  }

  /** Runs one message; a message sent while busy waits for the current one to finish. */
  submit(text: string): Promise<LoopResult> {
    const run = this.queue.then(() => this.run(text));
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
    await this.loadChatLog();
    this.providers.markStale(); // the Copilot session carries the old system message
    return result;
  }

  private async run(text: string): Promise<LoopResult> {
    this.busyFlag = true;
    this.controller = new AbortController();
    try {
      const notifications = await this.pollNotifications(this.controller.signal);
      await this.options.extensions?.ready();
      await this.options.extensions?.hooks.runStarted(text);
      const context = await this.frameConversation(notifications);
      this.messages.push({ role: "user", content: text, context });
      // After `!code` or a profile switch the slot builds the provider for the new mode first.
      const chat = await this.providers.chatFunction(this.codingMode);
      const provider = this.providers.info;
      if (!chat || !provider) return this.failedStart();
      const cacheKey = this.conversationId ?? this.unsavedConversationKey;
      const tuned = (chat: ChatStream): ChatStream =>
        this.withinCaps((request) =>
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
          compact: (messages) => this.compact(messages),
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
    const message = this.providers.failure;
    this.emit({ type: "error", message });
    this.emit({ type: "agent_end", reason: "error", text: "", rounds: 0 });
    return { reason: "error", text: "", rounds: 0, error: message };
  }

  /** New notifications, each shown once; a failing source costs a short wait and a warning, never the turn. */
  private async pollNotifications(signal: AbortSignal): Promise<string[]> {
    if (!this.options.pollNotifications) return [];
    const warn = (text: string) => this.emit({ type: "notice", level: "warning", text });
    const deadline = withDeadline(signal, NOTIFICATION_POLL_MS);
    try {
      const poll = await this.options.pollNotifications(this.profiles.paths(this.profileName), deadline.signal);
      if (poll.warning) warn(poll.warning);
      for (const problem of poll.problems) warn(problem);
      for (const text of poll.notifications) this.emit({ type: "notice", level: "info", text: `🔔 ${text}` });
      return poll.notifications;
    } catch (error) {
      warn(`Could not check notifications: ${errorMessage(error)}`);
      return [];
    } finally {
      deadline.clear();
    }
  }

  private async systemPromptInput(): Promise<SystemPromptInput> {
    const paths = this.profiles.paths(this.profileName);
    const [preferences, places] = await Promise.all([loadPreferences(paths), loadSavedPlaces(paths.savedPlaces)]);
    for (const warning of [preferences.warning, places.warning])
      if (warning) this.emit({ type: "notice", level: "warning", text: warning });
    await this.loadChatLog(); // re-read: compact_history or another Marvin may have rewritten it
    const projectDir = this.codingMode && this.workingDir;
    const project = projectDir ? await loadProjectContext(projectDir, this.options.home) : undefined;
    for (const warning of project?.warnings ?? []) this.emit({ type: "notice", level: "warning", text: warning });
    return {
      profileName: this.profileName,
      preferences: preferences.value,
      savedPlaces: places.value,
      chatLog: this.chatLog,
      codingMode: this.codingMode,
      nonInteractive: this.options.nonInteractive,
      workingDir: this.workingDir,
      backgroundJobs: this.jobs.summaries(),
      ...(project ? { project: { ...project, warnings: [] } } : {}),
    };
  }

  private async persistExchange(text: string, result: LoopResult): Promise<void> {
    if (this.options.nonInteractive) return;
    const time = clockTime(this.options.now?.());
    const entries: ChatLogEntry[] = [{ role: "you", text, time }];
    if (result.text) entries.push({ role: "assistant", text: result.text, time });
    if (result.error) entries.push({ role: "system", text: `Error: ${result.error}`, time });
    try {
      const warning = await appendChatLog(this.profiles.paths(this.profileName).chatLog, entries);
      if (warning) this.emit({ type: "notice", level: "warning", text: warning });
      this.chatLog.push(...entries);
      this.frame.chatLogAppended(this.chatLog);
    } catch (error) {
      this.emit({ type: "notice", level: "warning", text: `Could not save the chat log: ${errorMessage(error)}` });
    }
  }

  /**
   * Ends the session the one way every front end does: waits for durable listeners, adds this
   * session to the lifetime usage, then closes. Returns a warning to show, if any; never throws.
   */
  async dispose(): Promise<string | undefined> {
    await Promise.all([...this.flushes].map((flush) => flush().catch(() => undefined)));
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

  /** Where a context backup goes, made owner-only right before it is written (it holds the conversation). */
  private async backupDirForWrite(): Promise<string> {
    const dir = await this.backupDir();
    await ensurePrivateDir(dir);
    return dir;
  }

  /** The working dir's `.marvin/logs`, checked through the sandbox, or the profile's logs when that leads out. */
  private async backupDir(): Promise<string> {
    const profileLogs = this.profiles.paths(this.profileName).logs;
    if (!this.workingDir) return profileLogs;
    try {
      return await ensureInsideDir(this.workingDir, OWN_DIRS.logs);
    } catch (error) {
      const text = `${errorMessage(error)} The context backup goes to ${profileLogs} instead.`;
      this.emit({ type: "notice", level: "warning", text });
      return profileLogs;
    }
  }

  /** One text-only call (compaction, compact_history); its cost is recorded like any other. */
  async summarize(text: string, instruction: string): Promise<string> {
    const providerChat = await this.providers.chatFunction(this.codingMode);
    const provider = this.providers.info;
    if (!providerChat || !provider)
      throw new Error(`No LLM provider available to summarise: ${this.providers.failure}`);
    const chat = this.withinCaps(providerChat);
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
      confirmCommand: this.options.confirmCommand,
    };
    return sessionToolContext(this, surroundings, signal, onProgress);
  }

  /** Ends the session: timers, job watching, processes run_command left running, the provider. */
  async close(): Promise<void> {
    this.timers.clear();
    this.jobs.cancelAll();
    await stopLiveCommands();
    await this.options.extensions?.close();
    await this.providers.reset();
  }
}

const SUMMARY_INSTRUCTION =
  "You compress conversations. Summarise the transcript below so the assistant can continue the work: keep the " +
  "user's goals, decisions, facts learned, file paths, commands run and their outcomes, and open tasks. Be dense; " +
  "no preamble.";
