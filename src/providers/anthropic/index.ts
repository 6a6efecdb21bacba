import { AssemblingReader, type EventGrammar } from "../assembling-reader.js";
import type { ProviderConfig } from "../descriptor.js";
import { streamEvents } from "../event-stream.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import { httpErrorFailure, streamErrorFailure } from "./errors.js";
import { MessageAssembler } from "./message-assembler.js";
import { parseStreamEvent, type StreamEvent } from "./stream-events.js";
import { messagesRequest } from "./wire-request.js";

const API_VERSION = "2023-06-01";

/** Anthropic's stream events: an `error` event is the API's own failure. */
function messageGrammar(config: ProviderConfig): EventGrammar<StreamEvent> {
  return {
    parse: parseStreamEvent,
    failureOf: (event, partialOutput) =>
      event.type === "error" ? streamErrorFailure(config, event.error, partialOutput) : undefined,
  };
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
    return streamEvents(
      this.config,
      post,
      new AssemblingReader(this.config, new MessageAssembler(this.model), messageGrammar(this.config)),
      {
        httpError: (response) => httpErrorFailure(this.config, response),
        api: "Anthropic's API (ANTHROPIC_BASE_URL)",
      },
    );
  }

  async destroy(): Promise<void> {}
}
