import type { EventSourceMessage } from "eventsource-parser";
import type { ProviderConfig } from "../descriptor.js";
import { type EventReader, streamEvents } from "../event-stream.js";
import { garbledFailure } from "../failures.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import { httpErrorFailure, streamErrorFailure } from "./errors.js";
import { MessageAssembler } from "./message-assembler.js";
import { parseStreamEvent } from "./stream-events.js";
import { messagesRequest } from "./wire-request.js";

const API_VERSION = "2023-06-01";

/** Reads one streamed message: its events folded by the assembler, an `error` event classified. */
class MessageReader implements EventReader {
  private readonly assembler: MessageAssembler;

  constructor(private readonly config: ProviderConfig) {
    this.assembler = new MessageAssembler(config.model);
  }

  get hasOutput(): boolean {
    return this.assembler.hasOutput;
  }

  read(message: EventSourceMessage): ProviderEvent[] {
    const parsed = parseStreamEvent(message.data);
    if (parsed === undefined) return [];
    if ("problem" in parsed) {
      const what = `a stream event Marvin does not understand: ${parsed.problem}`;
      return [{ type: "error", error: garbledFailure(this.config, what, this.hasOutput) }];
    }
    if (parsed.event.type === "error") {
      return [{ type: "error", error: streamErrorFailure(this.config, parsed.event.error, this.hasOutput) }];
    }
    const events = this.assembler.apply(parsed.event);
    return this.assembler.finished ? [...events, { type: "done", response: this.assembler.result() }] : events;
  }

  end(): ProviderEvent | undefined {
    return undefined; // a message is complete only with its message_stop
  }
}

/** Claude through Anthropic's Messages API, streamed over server-sent events. */
export class AnthropicProvider implements LLMProvider {
  readonly name = "anthropic";
  readonly model: string;
  readonly local: boolean;

  constructor(private readonly config: ProviderConfig) {
    this.model = config.model;
    this.local = isLocalEndpoint(config);
  }

  /** The answer to `request` as provider events; never throws (see {@link ProviderEvent}). */
  stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const post = {
      url: `${this.config.baseUrl}/v1/messages`,
      headers: { "x-api-key": this.config.apiKey ?? "", "anthropic-version": API_VERSION },
      body: messagesRequest(this.model, request),
      signal: request.signal,
    };
    return streamEvents(this.config, post, new MessageReader(this.config), {
      httpError: (response) => httpErrorFailure(this.config, response),
      api: "Anthropic's API (ANTHROPIC_BASE_URL)",
    });
  }

  async destroy(): Promise<void> {}
}
