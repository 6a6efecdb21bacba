import type { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent } from "../agent/events.js";
import { reportUsage } from "../agent/loop.js";
import { finalAnswer } from "../providers/final-answer.js";
import type { ChatStream } from "../providers/resilient-chat.js";
import { parseThinkingLevel, THINKING_LEVELS } from "../providers/thinking-level.js";
import type { Message, ThinkingLevel } from "../providers/types.js";
import type { Env } from "../shared/env.js";
import type { ConversationSpending } from "./conversation-spending.js";
import type { ProviderSlot } from "./provider-slot.js";

interface ModelAccessOptions {
  providers: ProviderSlot;
  spending: ConversationSpending;
  budget: ContextBudget;
  env: Env;
  codingMode: () => boolean;
  emit: (event: AgentEvent) => void;
}

/** The model a run talks to, with everything the loop needs to know of it. */
interface ConversationModel {
  chat: ChatStream;
  providerName: string;
  model: string;
  largerModel?: () => Promise<{ chat: ChatStream; model: string } | undefined>;
}

/**
 * How a session reaches its model: through the provider slot, with the spending caps, the
 * thinking level and the conversation's prompt-cache key on every request.
 */
export class ModelAccess {
  /** How hard the model thinks (`MARVIN_THINKING`, `thinking`); undefined: the provider's own default. */
  #thinking: ThinkingLevel | undefined;
  /** The model MARVIN_OVERFLOW_MODEL replaced, while the overflow model is still in use; `clear` goes back to it. */
  #beforeOverflow: { model: string; overflow: string } | undefined;

  constructor(private readonly options: ModelAccessOptions) {
    this.#thinking = parseThinkingLevel(options.env.MARVIN_THINKING ?? "");
  }

  get thinking(): ThinkingLevel | undefined {
    return this.#thinking;
  }

  setThinking(level: ThinkingLevel | undefined): void {
    this.#thinking = level;
  }

  /** What to tell the person about a MARVIN_THINKING the session did not understand. */
  get thinkingWarning(): string | undefined {
    const setting = this.options.env.MARVIN_THINKING?.trim();
    if (!setting || this.#thinking) return undefined;
    const levels = THINKING_LEVELS.join(", ");
    return `MARVIN_THINKING=${setting} is not one of ${levels}: the model thinks as it does by default.`;
  }

  /** The model for the next run, built first if the mode or profile changed; undefined when none can be. */
  async forConversation(cacheKey: string): Promise<ConversationModel | undefined> {
    const chat = await this.options.providers.chatFunction(this.options.codingMode());
    const provider = this.options.providers.info;
    if (!chat || !provider) return undefined;
    const tuned = (chat: ChatStream): ChatStream =>
      this.options.spending.guard((request) =>
        chat({ ...request, cacheKey, ...(this.#thinking ? { thinking: this.#thinking } : {}) }),
      );
    const overflowModel = this.options.env.MARVIN_OVERFLOW_MODEL?.trim();
    const larger = overflowModel ? { largerModel: () => this.largerModel(overflowModel, tuned) } : {};
    return { chat: tuned(chat), providerName: provider.name, model: provider.model, ...larger };
  }

  /** MARVIN_OVERFLOW_MODEL made the session's model, for a conversation the current one cannot hold. */
  private async largerModel(model: string, tuned: (chat: ChatStream) => ChatStream) {
    const { providers, codingMode } = this.options;
    const before = providers.info?.model;
    if (before === model) return undefined;
    const provider = await providers.useModel(model, codingMode());
    if (before !== undefined) this.#beforeOverflow ??= { model: before, overflow: provider.model };
    const chat = await providers.chatFunction(codingMode());
    return chat ? { chat: tuned(chat), model: provider.model } : undefined;
  }

  /** A new conversation (`clear`) goes back to the model the overflow replaced, unless another was chosen since. */
  async newConversation(): Promise<void> {
    const previous = this.#beforeOverflow;
    this.#beforeOverflow = undefined;
    if (!previous || this.options.providers.info?.model !== previous.overflow) return;
    await this.options.providers.useModel(previous.model, this.options.codingMode());
  }

  /** One text-only call (compaction, compact_history); its cost is recorded like any other. */
  async summarize(text: string, instruction: string, signal: AbortSignal | undefined): Promise<string> {
    const { providers, spending, budget, emit } = this.options;
    const providerChat = await providers.chatFunction(this.options.codingMode());
    const provider = providers.info;
    if (!providerChat || !provider) throw new Error(`No LLM provider available to summarise: ${providers.failure}`);
    const messages: Message[] = [
      { role: "system", content: instruction },
      { role: "user", content: text },
    ];
    const response = await finalAnswer(spending.guard(providerChat)({ messages, tools: [], signal, standalone: true }));
    await reportUsage(response, messages, { budget, emit, providerName: provider.name });
    return response.content;
  }
}
