import type { ContextBudget } from "../agent/context-budget.js";
import type { AgentEventListener, EventSink } from "../agent/events.js";
import type { LoopResult } from "../agent/loop.js";
import type { LLMProvider, Message, ProviderName, ThinkingLevel } from "../providers/types.js";
import { errorMessage } from "../shared/error-message.js";
import { timeZoneWarning } from "../shared/time-zone.js";
import type { ChatLogEntry } from "../state/chat-log.js";
import { configPaths } from "../state/paths.js";
import type { ProfileStore } from "../state/profiles.js";
import type { UsageTracker } from "../state/usage.js";
import type { ToolContext, ToolMode } from "../tools/kit/define-tool.js";
import { isDirectory } from "../workspace/regular-file.js";
import type { MessageAttachments } from "./attachments.js";
import type { ConversationCheckpoints } from "./checkpoints/conversation-checkpoints.js";
import type { ConversationSpending } from "./conversation-spending.js";
import type { ProviderFactory } from "./provider-slot.js";
import type { NumberedUserMessage } from "./saved-sessions/session-file.js";
import type { LoadedSession, SessionStore } from "./saved-sessions/session-store.js";
import type { SessionOptions } from "./session-options.js";
import { buildSessionParts, type SessionParts, saveConversation } from "./session-parts.js";
import type { SessionToolServices } from "./session-tool-services.js";
import { type SessionView, sessionToolContext } from "./tool-context.js";

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
  readonly budget: ContextBudget;
  #codingMode: boolean;
  #workingDir: string | null;
  #exitRequested: string | undefined;
  #planning = false;
  private readonly parts: SessionParts;

  constructor(private readonly options: SessionOptions) {
    this.#codingMode = options.codingMode || options.nonInteractive;
    this.#workingDir = options.workingDir;
    this.parts = buildSessionParts(options, this);
    this.usage = this.parts.usage;
    this.spending = this.parts.spending;
    this.services = this.parts.services;
    this.budget = this.parts.budget;
  }

  get busy(): boolean {
    return this.parts.runner.busy;
  }

  /** The conversation: system message, user and assistant messages, tool calls and results. */
  get messages(): Message[] {
    return this.parts.conversation.messages;
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
    return this.parts.providers.info;
  }

  /** Whether the current model reads images (see readsImages in providers/vision.ts). */
  readsImages(): Promise<boolean> {
    return this.parts.providers.readsImages(this.options.env);
  }

  get thinking(): ThinkingLevel | undefined {
    return this.parts.model.thinking;
  }

  /** Sets how hard the model thinks from the next request on; undefined: the provider's own default. */
  setThinking(level: ThinkingLevel | undefined): void {
    this.parts.model.setThinking(level);
  }

  /** The active profile's chat log as loaded, plus this session's exchanges (front ends show the recent part). */
  get chatEntries(): readonly ChatLogEntry[] {
    return this.parts.profile.chatLog.entries;
  }

  subscribe(listener: AgentEventListener): () => void {
    return this.parts.events.subscribe(listener);
  }

  /** The active profile's name; profiles live in `profiles`. */
  get profileName(): string {
    return this.parts.profile.name;
  }

  get profiles(): ProfileStore {
    return this.parts.profile.store;
  }

  /** Subscribes a listener that writes somewhere; `dispose()` waits for its pending writes. */
  subscribeDurable(sink: EventSink): void {
    this.parts.events.subscribeDurable(sink);
  }

  /** Shows something to the person from outside a run (an MCP server that stopped, a failing hook). */
  notify(text: string, level: "info" | "warning" = "warning"): void {
    this.parts.events.notice(text, level);
  }

  /** The active profile's saved conversations; undefined when this session keeps none. */
  get sessions(): SessionStore | undefined {
    return this.parts.conversation.store;
  }

  /** Messages of this conversation, as `sessions` counts them (see countsAsMessage). */
  get messageCount(): number {
    return this.parts.conversation.messageCount;
  }

  /** What the tools changed in files, per user message, for `rewind` and `undo`; undefined when not saved. */
  get checkpoints(): ConversationCheckpoints | undefined {
    return this.parts.conversation.checkpoints;
  }

  /** The user messages of the conversation, numbered as `messageCount` counts, with their place in `messages`. */
  userMessages(): NumberedUserMessage[] {
    return this.parts.conversation.userMessages();
  }

  /** Cuts the conversation back to just before user message `message` (`rewind`); false when it is not there. */
  async cutConversation(message: number): Promise<boolean> {
    if (this.busy) throw new Error("Marvin is still answering: rewind after the answer.");
    if (!(await this.parts.conversation.cutBefore(message))) return false;
    this.parts.tools.restore(this.messages, this.mode);
    this.parts.providers.markStale(); // a Copilot session holds the longer conversation
    return true;
  }

  /** The id under which this conversation is saved, if it is. */
  get conversationId(): string | undefined {
    return this.parts.conversation.id;
  }

  /**
   * Loads the active profile. A new conversation starts empty: earlier chats reach the model only as the
   * system message's compact history, which the person can see with `sessions` and in the chat log.
   */
  async start(): Promise<void> {
    const warnings = [
      await this.parts.profile.open(),
      ...this.spending.caps.warnings,
      this.parts.model.thinkingWarning,
      timeZoneWarning(this.options.env),
    ];
    for (const warning of warnings) if (warning) this.notify(warning);
    if (this.options.record) saveConversation(this.parts, this.options, this, this.options.record.id);
    if (this.options.nonInteractive) return;
    await this.parts.profile.loadChatLog();
  }

  /**
   * Continues a stored conversation: its messages, coding mode, plan mode, thinking level and working
   * directory (provider and model are the caller's to restore). Returns what could not be restored, as notices.
   */
  async resume(stored: LoadedSession): Promise<string[]> {
    if (this.busy) throw new Error("Marvin is still answering: resume after the answer.");
    const notices: string[] = [];
    if (stored.skippedLines > 0)
      notices.push(`Session ${stored.id}: skipped ${stored.skippedLines} damaged line(s) of ${stored.path}.`);
    this.parts.conversation.continueWith(stored);
    const counted = stored.tokenCount;
    if (counted) this.budget.rememberCount(stored.messages.slice(0, counted.messages), counted.tokens);
    this.#codingMode = stored.state.codingMode || this.options.nonInteractive;
    const { thinking, planning } = stored.state;
    if (thinking !== undefined) this.setThinking(thinking ?? undefined);
    if (planning !== undefined) this.#planning = planning;
    this.parts.tools.restore(this.messages, this.mode);
    const dir = stored.state.workingDir;
    if (dir && !this.options.nonInteractive) {
      if (await isDirectory(dir)) this.#workingDir = dir;
      else notices.push(`The working directory of that session, ${dir}, is gone; none is set.`);
    }
    this.spending.newConversation();
    this.parts.providers.markStale(); // a Copilot session holds the old conversation
    await this.options.extensions?.hooks.sessionResumed();
    return notices;
  }

  /** Starts a new conversation (`clear`): nothing of the old one goes to the model again. */
  async startNewConversation(): Promise<void> {
    if (this.busy) throw new Error("Marvin is still answering: clear after the answer.");
    this.parts.conversation.startNew();
    this.parts.tools.restore(this.messages, this.mode);
    this.spending.newConversation();
    this.parts.providers.markStale();
    await this.parts.model.newConversation();
    await this.options.extensions?.hooks.sessionCleared();
  }

  /** Condenses the conversation now (`compact`), as the loop does when the context fills up. */
  compactNow(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    return this.parts.runner.compactNow();
  }

  /** Runs one message; a message sent while busy waits for the current one to finish. */
  submit(text: string, attachments: MessageAttachments = {}): Promise<LoopResult> {
    return this.parts.runner.submit(text, attachments);
  }

  /** Runs one message on another provider (`!pro`), queued like `submit`. */
  submitOnce(text: string, createProvider: ProviderFactory): Promise<LoopResult> {
    return this.parts.runner.submitOnce(text, createProvider);
  }

  /** Cancels the in-flight request; the partial answer is kept. */
  abort(): void {
    this.parts.runner.abort();
  }

  toggleCodingMode(): boolean {
    this.#codingMode = !this.#codingMode;
    this.parts.providers.markStale();
    return this.#codingMode;
  }

  /** Replaces the provider (e.g. `!model`); the next request uses it. */
  useProvider(createProvider: ProviderFactory): Promise<LLMProvider> {
    return this.parts.providers.use(createProvider, this.codingMode);
  }

  /** Makes `name` this session's profile; in an interactive session also the one the next session opens. */
  async switchProfile(name: string): Promise<{ created: boolean }> {
    // A sub-agent may work in another profile for itself, but never changes what the user's next session opens.
    const result = await this.parts.profile.switchTo(name, !this.options.nonInteractive);
    this.parts.providers.markStale(); // the Copilot session carries the old system message
    return result;
  }

  /**
   * Ends the session the one way every front end does: waits for durable listeners, adds this
   * session to the lifetime usage, then closes. Returns a warning to show, if any; never throws.
   */
  async dispose(): Promise<string | undefined> {
    await this.parts.events.flush();
    const warning = await this.usage
      .persistLifetime(configPaths(this.options.home).usage)
      .catch((error: unknown) => `Could not update usage.json: ${errorMessage(error)}`);
    await this.close();
    return warning;
  }

  backupDirs(): string[] {
    return this.parts.profile.backupDirs(this.workingDir);
  }

  /** One text-only call (compaction, compact_history); its cost is recorded like any other. */
  summarize(text: string, instruction: string): Promise<string> {
    return this.parts.model.summarize(text, instruction, this.parts.runner.signal);
  }

  /** What a tool call in this session may see and do. */
  toolContext(signal: AbortSignal, onProgress: ToolContext["onProgress"] = () => undefined): ToolContext {
    return sessionToolContext(this, { home: this.options.home, env: this.options.env }, signal, onProgress);
  }

  /** Ends the session: timers, job watching, language servers, processes run_command left running, the provider. */
  async close(): Promise<void> {
    await this.services.close();
    await this.options.extensions?.close();
    await this.parts.providers.reset();
  }
}
