import { AssemblingReader, type EventGrammar } from "../assembling-reader.js";
import { httpErrorFailure, streamErrorFailure } from "../chat-completions/errors.js";
import type { ProviderConfig } from "../descriptor.js";
import { bearer, streamEvents } from "../event-stream.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import type { ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import type { ResponsesProviderName } from "./replay.js";
import { ResponseAssembler } from "./response-assembler.js";
import { parseStreamEvent, type StreamEvent, type WireError } from "./stream-events.js";
import { responsesRequest } from "./wire-request.js";

/** The Responses API's stream events: `response.failed` and `error` are its own failures. */
function responseGrammar(config: ProviderConfig): EventGrammar<StreamEvent> {
  const failure = (error: WireError, partialOutput: boolean) => {
    const said = { code: error.code ?? undefined, message: error.message ?? undefined };
    return streamErrorFailure(config, said, partialOutput);
  };
  return {
    parse: parseStreamEvent,
    failureOf: (event, partialOutput) => {
      if (event.type === "response.failed") return failure(event.response.error ?? { code: "failed" }, partialOutput);
      return event.type === "error" ? failure(event, partialOutput) : undefined;
    },
  };
}

/** Where a Responses API lives and how to talk to it. */
interface ResponsesEndpoint {
  url: string;
  headers: Record<string, string>;
  /** The API expected and where its URL is set, said when a server answers with something else. */
  api: string;
  /** An HTTP error answer, classified; default: OpenAI's error shape. */
  httpError?(response: Response): Promise<ProviderError>;
}

/** One request to a Responses API as provider events; never throws (see {@link ProviderEvent}). */
export function streamResponses(
  config: ProviderConfig & { name: ResponsesProviderName },
  endpoint: ResponsesEndpoint,
  request: ChatRequest,
): AsyncGenerator<ProviderEvent> {
  const post = {
    url: endpoint.url,
    headers: endpoint.headers,
    body: responsesRequest(config.model, request, config.name),
    signal: request.signal,
  };
  const assembler = new ResponseAssembler(config.model, config.name);
  return streamEvents(config, post, new AssemblingReader(config, assembler, responseGrammar(config)), {
    httpError: endpoint.httpError ?? ((response) => httpErrorFailure(config, response)),
    api: endpoint.api,
  });
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
    const endpoint = {
      url: `${this.config.baseUrl}/responses`,
      headers: bearer(this.config.apiKey),
      api: "OpenAI's Responses API (OPENAI_BASE_URL)",
    };
    return streamResponses({ ...this.config, name: "openai" }, endpoint, request);
  }

  async destroy(): Promise<void> {}
}
