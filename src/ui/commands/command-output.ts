import type { LoopResult } from "../../agent/loop.js";
import type { MessageAttachments } from "../../session/attachments.js";
import { errorMessage } from "../../shared/error-message.js";
import type { CodingOutcome } from "./coding-commands.js";
import type { CommandResult } from "./command-result.js";
import { providerFactory } from "./providers.js";
import type { CommandEnvironment, CommandHost } from "./types.js";

export const HANDLED: CommandResult = { type: "handled" };

/** Who typed a message: the person, `!pro` (one message on Copilot), or voice input. */
type Via = "session" | "copilot" | "voice";

/** How every command answers: a system message, a changed state, or a message for the model. */
export class CommandOutput {
  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
  ) {}

  say(text: string): CommandResult {
    this.host.system(text);
    return HANDLED;
  }

  async sayLater(text: Promise<string>): Promise<CommandResult> {
    return this.say(await text);
  }

  /** A system message after the prompt or status bar changed. */
  changed(text: string): CommandResult {
    this.host.stateChanged?.();
    return this.say(text);
  }

  /** Like `changed`, for a conversation put in place of the current one. */
  replaced(text: string): CommandResult {
    this.host.conversationReplaced?.();
    this.host.stateChanged?.();
    return this.say(text);
  }

  /** Shows what a command said, or sends what it asks to the model (plan mode may have changed either way). */
  follow(outcome: CodingOutcome): CommandResult {
    this.host.stateChanged?.();
    if ("say" in outcome) return this.say(outcome.say);
    if (outcome.note) this.host.system(outcome.note);
    return this.submit(outcome.submit);
  }

  submit(text: string, via: Via = "session", attachments?: MessageAttachments): CommandResult {
    return { type: "submitted", done: this.send(text, via, attachments) };
  }

  /** Sends a message to the model; settles, never rejecting, when its answer is complete. */
  send(text: string, via: Via, attachments?: MessageAttachments): Promise<LoopResult> {
    const { session } = this.environment;
    this.host.messageSubmitted?.(text, via);
    const run =
      via === "copilot"
        ? session.submitOnce(text, providerFactory("copilot", this.environment))
        : session.submit(text, attachments);
    return run.catch((error: unknown): LoopResult => {
      this.host.system(`Error: ${errorMessage(error)}`);
      return { reason: "error", text: "", rounds: 0, error: errorMessage(error) };
    });
  }
}
