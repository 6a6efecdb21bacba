import type { EventSourceMessage } from "eventsource-parser";
import { httpErrorFailure, streamErrorFailure } from "../chat-completions/errors.js";
import type { ProviderConfig } from "../descriptor.js";
import { bearer, type EventReader, streamEvents } from "../event-stream.js";
import { garbledFailure } from "../failures.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import { ResponseAssembler } from "./response-assembler.js";
import { parseStreamEvent, type WireError } from "./stream-events.js";
import { responsesRequest } from "./wire-request.js";

/** Reads one streamed response: its events folded by the assembler, `response.failed` and `error` classified. */
class ResponseReader implements EventReader {
  private readonly assembler: ResponseAssembler;

  constructor(private readonly config: ProviderConfig) {
    this.assembler = new ResponseAssembler(config.model);
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
    const { event } = parsed;
    if (event.type === "response.failed") return [this.failure(event.response.error ?? { code: "failed" })];
    if (event.type === "error") return [this.failure(event)];
    const events = this.assembler.apply(event);
    return this.assembler.finished ? [...events, { type: "done", response: this.assembler.result() }] : events;
  }

  end(): ProviderEvent | undefined {
    return undefined; // a response is complete only with its response.completed (or .incomplete)
  }

  private failure(error: WireError): ProviderEvent {
    const said = { code: error.code ?? undefined, message: error.message ?? undefined };
    return { type: "error", error: streamErrorFailure(this.config, said, this.hasOutput) };
  }
}

/**
 * OpenAI through its Responses API, streamed over server-sent events: reasoning summaries shown, encrypted
 * reasoning carried through the tool loop (nothing stored at OpenAI), the conversation's prompt-cache key sent.
 */
export class ResponsesProvider implements LLMProvider {
  readonly name = "openai";
  readonly model: string;
  readonly local: boolean;

  constructor(private readonly config: ProviderConfig) {
    this.model = config.model;
    this.local = isLocalEndpoint(config);
  }

  /** The answer to `request` as provider events; never throws (see {@link ProviderEvent}). */
  stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const post = {
      url: `${this.config.baseUrl}/responses`,
      headers: bearer(this.config.apiKey),
      body: responsesRequest(this.model, request),
      signal: request.signal,
    };
    return streamEvents(this.config, post, new ResponseReader(this.config), {
      httpError: (response) => httpErrorFailure(this.config, response),
      api: "OpenAI's Responses API (OPENAI_BASE_URL)",
    });
  }

  async destroy(): Promise<void> {}
}
