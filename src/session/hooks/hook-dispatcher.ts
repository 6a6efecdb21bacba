import type { AgentEvent } from "../../agent/events.js";
import { errorMessage } from "../../shared/error-message.js";
import { raceTimeLimit } from "../../shared/time-limit.js";
import type { ToolOutcome } from "../../tools/kit/define-tool.js";
import type { HookAnswer, HookEvent, HookEventType, HookHandler } from "./hook-events.js";

/** Where the dispatcher reports and what `send` does; both must not throw. */
interface HookOutlets {
  notice(text: string): void;
  send(text: string): void;
}

type Settled = { answer: HookAnswer | undefined } | { failed: string };

/** A tool call about to run: its arguments as the agent loop decoded them. */
interface HookedCall {
  id: string;
  name: string;
  input: unknown;
}

/**
 * Runs hooks (seed 003 "HookRunner"): module hooks and command hooks alike are handlers of one
 * event type, run one after the other in the order they were added. A handler that throws, fails
 * or passes its time limit is reported once per failure and skipped, except on
 * `tool.execute.before`, where it blocks the call; the dispatcher never throws.
 */
export class HookDispatcher {
  private readonly handlers = new Map<HookEventType, HookHandler[]>();
  private outlets: HookOutlets = { notice: () => undefined, send: () => undefined };
  /** Lifecycle events heard from the loop run in order, after one another. */
  private lifecycle: Promise<void> = Promise.resolve();

  add(type: HookEventType, handler: HookHandler): void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler);
    this.handlers.set(type, list);
  }

  /** True when no hook is registered at all. */
  get empty(): boolean {
    return this.handlers.size === 0;
  }

  /** Where notices go and what `send` does, once the session exists. */
  connect(outlets: HookOutlets): void {
    this.outlets = outlets;
  }

  /** What module hooks' `send(text)` calls. */
  send(text: string): void {
    this.outlets.send(text);
  }

  /** Runs every handler of a lifecycle event; resolves when all have finished or been skipped. */
  async emit(event: HookEvent): Promise<void> {
    for (const handler of this.handlersFor(event)) await this.settle(handler, event);
  }

  /** For the session code: a session was resumed (`session.resume`). */
  sessionResumed(): Promise<void> {
    return this.emit({ type: "session.resume" });
  }

  /** For the session code: the conversation was cleared (`session.clear`). */
  sessionCleared(): Promise<void> {
    return this.emit({ type: "session.clear" });
  }

  /** A session listener: turns and the end of a run reach the hooks, in order, without holding up the loop. */
  readonly listener = (event: AgentEvent): void => {
    const hookEvent = this.fromAgentEvent(event);
    if (hookEvent && this.handlers.has(hookEvent.type))
      this.lifecycle = this.lifecycle.then(() => this.emit(hookEvent));
  };

  /** `agent.start`, awaited before the model is asked: a hook may still `send` or prepare. */
  async runStarted(prompt: string): Promise<void> {
    await this.lifecycle;
    await this.emit({ type: "agent.start", prompt });
  }

  /**
   * Runs one tool call between `tool.execute.before` (a block, or a handler that fails, answers the
   * model with the reason instead of running the tool) and `tool.execute.after` (each handler may
   * replace the result).
   */
  async aroundTool(call: HookedCall, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const tool = call.name;
    const base = { tool, callId: call.id, arguments: call.input };
    const before: HookEvent = { type: "tool.execute.before", ...base };
    for (const handler of this.handlersFor(before)) {
      // Fail closed: a check that could not say yes is a no.
      const settled = await this.settle(handler, before, `the ${tool} call was blocked`);
      if ("failed" in settled) {
        return {
          result:
            `${tool} was blocked: its check, the ${handler.label}, ${settled.failed}. A failing hook blocks the ` +
            "call; tell the user, who must fix the hook (or remove it) before this call can run.",
          isError: true,
        };
      }
      if (settled.answer?.block) {
        const reason = settled.answer.reason?.trim() || "no reason given";
        return { result: `${tool} was blocked by a hook (${handler.label}): ${reason}`, isError: true };
      }
    }
    let outcome = await run();
    const after = this.handlersFor({ type: "tool.execute.after", ...base, result: "", isError: false });
    for (const handler of after) {
      const event: HookEvent = {
        type: "tool.execute.after",
        ...base,
        result: outcome.result,
        isError: outcome.isError,
      };
      const settled = await this.settle(handler, event);
      const answer = "answer" in settled ? settled.answer : undefined;
      if (typeof answer?.result === "string")
        outcome = { ...outcome, result: answer.result, isError: answer.isError ?? outcome.isError };
    }
    return outcome;
  }

  private fromAgentEvent(event: AgentEvent): HookEvent | undefined {
    switch (event.type) {
      case "turn_start":
        return { type: "turn.start", turn: event.turn };
      case "turn_end":
        return { type: "turn.end", turn: event.turn };
      case "agent_end":
        return { type: "agent.end", reason: event.reason, text: event.text };
      default:
        return undefined;
    }
  }

  private handlersFor(event: HookEvent): HookHandler[] {
    const all = this.handlers.get(event.type) ?? [];
    if (!("tool" in event)) return all;
    return all.filter((handler) => !handler.matcher || handler.matcher.test(event.tool));
  }

  /** One handler, within its time limit; a failure is reported here, with `consequence`, and returned as such. */
  private async settle(handler: HookHandler, event: HookEvent, consequence = "skipped"): Promise<Settled> {
    const ran = (async (): Promise<Settled> => {
      try {
        const answer = await handler.run(event);
        return { answer: typeof answer === "object" && answer !== null ? answer : undefined };
      } catch (error) {
        return { failed: `failed: ${errorMessage(error)}` };
      }
    })();
    const settled = await raceTimeLimit(
      ran,
      handler.timeoutMs,
      (): Settled => ({
        failed: `did not finish within ${handler.timeoutMs / 1000} s`,
      }),
    );
    if ("failed" in settled)
      this.outlets.notice(`The ${handler.label} on ${event.type} ${settled.failed}; ${consequence}.`);
    return settled;
  }
}
