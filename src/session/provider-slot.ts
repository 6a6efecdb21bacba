import { type ChatStream, type Fallback, resilientChat } from "../providers/resilient-chat.js";
import type { LLMProvider, ProviderName } from "../providers/types.js";
import { readsImages } from "../providers/vision.js";
import type { Env } from "../shared/env.js";
import { errorMessage } from "../shared/error-message.js";

/** Builds the provider for the current mode (coding mode has longer timeouts), with another model when given one. */
export type ProviderFactory = (codingMode: boolean, model?: string) => Promise<LLMProvider>;

interface ProviderSlotOptions {
  create: ProviderFactory;
  /** The Copilot fallback, or undefined when there is none. */
  fallback?: Fallback;
  /** Seconds between retries of transient provider errors (tests shorten them). */
  transientBackoffSeconds?: readonly number[];
  /** Retry and fallback notices for the person. */
  notice: (text: string) => void;
}

/**
 * The session's LLM provider: created on first use, rebuilt after a mode or profile change,
 * replaced by `!model`, borrowed for one message by `!pro`.
 */
export class ProviderSlot {
  private provider: LLMProvider | undefined;
  private chat: ChatStream | undefined;
  private stale = false;
  /** Why the provider could not be created, reported as the run's error. */
  private startError: string | undefined;

  constructor(private readonly options: ProviderSlotOptions) {}

  get info(): { name: ProviderName; model: string } | undefined {
    return this.provider && { name: this.provider.name, model: this.provider.model };
  }

  /** Whether the current provider's model reads images (false before one is built; see readsImages). */
  async readsImages(env: Env): Promise<boolean> {
    return this.provider ? readsImages(this.provider, env) : false;
  }

  /** Why no provider could be started, once `chatFunction()` has failed. */
  get failure(): string {
    return this.startError ?? "No LLM provider could be started.";
  }

  /** The next request must use a freshly built provider (`!code`, a profile switch). */
  markStale(): void {
    this.stale = true;
  }

  /** The chat stream of the current provider, creating it when needed; undefined when it cannot be created. */
  async chatFunction(codingMode: boolean): Promise<ChatStream | undefined> {
    if (this.stale) await this.reset();
    if (this.chat) return this.chat;
    try {
      this.provider ??= await this.options.create(codingMode);
    } catch (error) {
      this.startError = errorMessage(error);
      return undefined;
    }
    this.chat = resilientChat(this.provider, {
      notice: this.options.notice,
      fallback: this.options.fallback,
      transientBackoffSeconds: this.options.transientBackoffSeconds,
    });
    return this.chat;
  }

  /** Replaces the provider (`!model`); the next request uses it. */
  async use(create: ProviderFactory, codingMode: boolean): Promise<LLMProvider> {
    const provider = await create(codingMode);
    await this.provider?.destroy();
    this.options.create = create;
    this.provider = provider;
    this.chat = undefined;
    return provider;
  }

  /** Moves to `model` of the same provider, for good (a conversation too long for the current one). */
  useModel(model: string, codingMode: boolean): Promise<LLMProvider> {
    const create = this.options.create;
    // A later move (`clear` back from the overflow model) names its own model.
    return this.use((mode, chosen) => create(mode, chosen ?? model), codingMode);
  }

  /** Runs `work` on a provider made by `create` (`!pro`); this slot's own provider is back afterwards. */
  async borrow<T>(create: ProviderFactory, codingMode: () => boolean, work: () => Promise<T>): Promise<T> {
    const saved = { provider: this.provider, chat: this.chat, create: this.options.create, stale: this.stale };
    const codingModeBefore = codingMode();
    this.stale = false; // the flag is about the saved provider, not the temporary one
    this.provider = undefined;
    this.chat = undefined;
    this.options.create = create;
    try {
      return await work();
    } finally {
      const temporary = this.provider as LLMProvider | undefined; // set while `work` ran
      await temporary?.destroy().catch(() => undefined);
      this.provider = saved.provider;
      this.chat = saved.chat;
      this.options.create = saved.create;
      if (codingMode() !== codingModeBefore || saved.stale) await this.reset();
    }
  }

  /** Drops the provider if it is stale; the next request builds a new one. */
  async settle(): Promise<void> {
    if (this.stale) await this.reset();
  }

  async reset(): Promise<void> {
    this.stale = false;
    const provider = this.provider;
    this.provider = undefined;
    this.chat = undefined;
    await provider?.destroy().catch(() => undefined);
  }
}
