import { ContextBudget } from "../agent/context-budget.js";
import type { Message } from "../providers/types.js";
import { configPaths } from "../state/paths.js";
import { UsageTracker } from "../state/usage.js";
import { CORE_TOOLS } from "../tools/families.js";
import { ActiveProfile } from "./active-profile.js";
import { Compactor } from "./compactor.js";
import { ConversationFrame } from "./conversation-frame.js";
import { ConversationRecord } from "./conversation-record.js";
import { ConversationSpending } from "./conversation-spending.js";
import { EventHub } from "./event-hub.js";
import { usageRecorder } from "./listeners/usage-recorder.js";
import { MessageRunner, type RunnerSession } from "./message-runner.js";
import { ModelAccess } from "./model-access.js";
import { ProviderSlot } from "./provider-slot.js";
import { maxSessionsSetting, SessionStore } from "./saved-sessions/session-store.js";
import type { SessionOptions } from "./session-options.js";
import { SessionToolServices } from "./session-tool-services.js";
import { ToolOffer } from "./tool-offer.js";

/** What a Session is made of, wired together. */
export interface SessionParts {
  events: EventHub;
  usage: UsageTracker;
  /** What the conversation and today have cost; MARVIN_MAX_COST and MARVIN_MAX_DAILY_COST. */
  spending: ConversationSpending;
  /** Approvals, timers, background jobs, language servers: lent to the tools, closed with the session. */
  services: SessionToolServices;
  profile: ActiveProfile;
  budget: ContextBudget;
  providers: ProviderSlot;
  model: ModelAccess;
  conversation: ConversationRecord;
  /** The system message in front of the conversation, and the context note of each new message. */
  frame: ConversationFrame;
  /** The tools this conversation offers the model: a core, then the families it loaded. */
  tools: ToolOffer;
  runner: MessageRunner;
}

/** Builds the parts of `session`, the listeners every session has subscribed. */
export function buildSessionParts(options: SessionOptions, session: RunnerSession): SessionParts {
  const events = new EventHub();
  const emit = events.emit.bind(events);
  const notice = (text: string) => events.notice(text);
  const usage = new UsageTracker(options.now);
  const usagePath = configPaths(options.home).usage;
  const spending = new ConversationSpending(usage, options.env, !options.nonInteractive, usagePath, notice);
  const profile = new ActiveProfile(options.home, notice, options.now);
  const budget = options.budget ?? new ContextBudget();
  const providers = new ProviderSlot({
    create: options.createProvider,
    fallback: options.fallbackProvider,
    transientBackoffSeconds: options.transientBackoffSeconds,
    notice,
  });
  const model = new ModelAccess({
    ...{ providers, spending, budget, env: options.env, emit },
    codingMode: () => session.codingMode,
  });
  const services = new SessionToolServices(options, (text, level) => events.notice(text, level));
  const conversation = new ConversationRecord();
  const frame = new ConversationFrame();
  const compactor = new Compactor({
    budget,
    emit,
    checkSpending: () => spending.check(),
    backupDir: () => profile.backupDirForWrite(session.workingDir),
    summarize: (text, instruction) => model.summarize(text, instruction, runner.signal),
    onCompacted: () => frame.invalidate(),
  });
  const tools = new ToolOffer(options.registry, CORE_TOOLS, options.env.MARVIN_TOOLS?.trim().toLowerCase() === "all");
  events.subscribe(usageRecorder(usage));
  events.subscribe((event) => {
    if (event.type === "tool_end") tools.noteCall(event.name, event.input, session.mode);
  });
  if (options.extensions) events.subscribe(options.extensions.hooks.listener);
  const runner: MessageRunner = new MessageRunner({
    ...{ options, session, conversation, frame, chatLog: profile.chatLog, profiles: profile.store, model },
    ...{ providers, tools, compactor, budget, jobs: services.jobs, emit },
  });
  return { events, usage, spending, services, profile, budget, providers, model, conversation, frame, tools, runner };
}

/** Keeps the conversation in the active profile's sessions folder as it happens, under `id` or a new one. */
export function saveConversation(
  parts: SessionParts,
  options: SessionOptions,
  session: RunnerSession,
  id: string | undefined,
): void {
  const { profile, frame, providers, budget, model } = parts;
  const store = new SessionStore(profile.paths.sessions, maxSessionsSetting(options.env.MARVIN_MAX_SESSIONS));
  const source = {
    cwd: options.cwd ?? options.home,
    systemPrompt: () => frame.systemMessage,
    knownTokens: (messages: readonly Message[]) => budget.knownTokens(messages),
    state: () => ({
      provider: providers.info?.name ?? null,
      model: providers.info?.model ?? null,
      codingMode: session.codingMode,
      workingDir: session.workingDir,
      thinking: model.thinking ?? null,
      planning: session.planning,
    }),
    notice: (text: string) => session.notify(text),
  };
  parts.events.subscribeDurable(parts.conversation.save(store, source, id));
}
