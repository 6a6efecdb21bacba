import type { EventSourceMessage } from "eventsource-parser";
import type { ProviderConfig } from "./descriptor.js";
import type { EventReader } from "./event-stream.js";
import { garbledFailure } from "./failures.js";
import type { ProviderError } from "./provider-error.js";
import type { LLMResponse, ProviderEvent } from "./types.js";

/** Folds one API's typed stream events into provider events and, once the answer is finished, one response. */
interface StreamAssembler<Event> {
  apply(event: Event): ProviderEvent[];
  readonly finished: boolean;
  readonly hasOutput: boolean;
  result(): LLMResponse;
}

/** What one API's reader needs beyond its assembler. */
export interface EventGrammar<Event> {
  /** One event's data, checked: the event, undefined for a type not needed, or what is wrong with it. */
  parse(data: string): { event: Event } | { problem: string } | undefined;
  /** The failure an event reports (an API's `error` event), else undefined. */
  failureOf(event: Event, partialOutput: boolean): ProviderError | undefined;
}

/**
 * Reads a stream of typed JSON events (Anthropic's Messages, OpenAI's Responses): each event checked, a failure
 * event classified, the rest folded by the assembler. The answer is complete only with the API's own last event.
 */
export class AssemblingReader<Event> implements EventReader {
  constructor(
    private readonly config: ProviderConfig,
    private readonly assembler: StreamAssembler<Event>,
    private readonly grammar: EventGrammar<Event>,
  ) {}

  get hasOutput(): boolean {
    return this.assembler.hasOutput;
  }

  read(message: EventSourceMessage): ProviderEvent[] {
    const parsed = this.grammar.parse(message.data);
    if (parsed === undefined) return [];
    if ("problem" in parsed) {
      const what = `a stream event Marvin does not understand: ${parsed.problem}`;
      return [{ type: "error", error: garbledFailure(this.config, what, this.hasOutput) }];
    }
    const failure = this.grammar.failureOf(parsed.event, this.hasOutput);
    if (failure) return [{ type: "error", error: failure }];
    const events = this.assembler.apply(parsed.event);
    return this.assembler.finished ? [...events, { type: "done", response: this.assembler.result() }] : events;
  }

  end(): ProviderEvent[] {
    return []; // a body that ends before the API's last event is a cut
  }
}
