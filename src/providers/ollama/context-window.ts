import type { ToolSchema } from "../../shared/tool-schema.js";
import { countTextTokens, type MessageTokenCounter } from "../token-counter.js";
import type { Message } from "../types.js";

/** Room left for the answer (reasoning included) on top of the request. */
const ANSWER_ROOM = 8_192;
/** The least window Marvin asks for: a system message and the tools already take several thousand tokens. */
const SMALLEST_WINDOW = 8_192;
/** Local models' tokenizers split text a little finer than the o200k count: a margin keeps the request inside. */
const TOKENIZER_MARGIN = 1.1;

function nextPowerOfTwo(value: number): number {
  return 2 ** Math.ceil(Math.log2(value));
}

/**
 * The `num_ctx` of one model on one server: its estimated request plus room for the answer, rounded up to a
 * power of two, never below what it was already (Ollama reloads a model whenever `num_ctx` changes) and never
 * above the model's own maximum. When that maximum is too small it says so, once.
 */
export class ContextWindow {
  private current = 0;
  private warned = false;

  /** The window for a request of `estimate` tokens, and a notice the first time the model cannot hold it. */
  size(estimate: number, model: string, modelMaximum: number | undefined): { numCtx: number; notice?: string } {
    const needed = estimate + ANSWER_ROOM;
    let window = Math.max(this.current, nextPowerOfTwo(Math.max(needed, SMALLEST_WINDOW)));
    let notice: string | undefined;
    if (modelMaximum !== undefined && window > modelMaximum) {
      window = modelMaximum;
      if (needed > modelMaximum && !this.warned) {
        this.warned = true;
        notice =
          `Ollama model '${model}' holds at most ${modelMaximum.toLocaleString("en-US")} tokens, but this ` +
          `conversation needs about ${needed.toLocaleString("en-US")} with room for the answer: Ollama will drop its ` +
          "oldest part. Choose a model with a larger window (OLLAMA_MODEL) or start a new conversation.";
      }
    }
    this.current = window;
    return { numCtx: window, ...(notice ? { notice } : {}) };
  }
}

const toolTokens = new WeakMap<readonly ToolSchema[], Promise<number>>();

/** Estimated tokens of a request: its messages and its tool declarations, with a margin for other tokenizers. */
export async function estimateRequestTokens(
  counter: MessageTokenCounter,
  messages: readonly Message[],
  tools: readonly ToolSchema[],
): Promise<number> {
  let forTools = toolTokens.get(tools);
  if (!forTools) {
    forTools = tools.length > 0 ? countTextTokens(JSON.stringify(tools)) : Promise.resolve(0);
    toolTokens.set(tools, forTools);
  }
  const total = (await counter.count(messages, 0)) + (await forTools);
  return Math.ceil(total * TOKENIZER_MARGIN);
}
