import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ProviderConfig } from "../descriptor.js";
import { interruptedFailure } from "../failures.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import { ProviderError } from "../provider-error.js";
import { RequestDeadline } from "../request-deadline.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import { httpErrorFailure, streamErrorFailure } from "./errors.js";
import { MessageAssembler } from "./message-assembler.js";
import { parseStreamEvent } from "./stream-events.js";
import { messagesRequest } from "./wire-request.js";

const API_VERSION = "2023-06-01";

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
  async *stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const deadline = new RequestDeadline(this.config, request.signal);
    const assembler = new MessageAssembler(this.model);
    let answered = false;
    try {
      const response = await fetch(`${this.config.baseUrl}/v1/messages`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": this.config.apiKey ?? "",
          "anthropic-version": API_VERSION,
        },
        body: JSON.stringify(messagesRequest(this.model, request)),
        signal: deadline.signal,
      });
      answered = true;
      deadline.touch();
      if (!response.ok) {
        yield { type: "error", error: await httpErrorFailure(this.config, response) };
        return;
      }
      const notStreamed = this.notAnEventStream(response);
      if (notStreamed) {
        yield { type: "error", error: notStreamed };
        return;
      }
      for await (const message of response
        .body!.pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())) {
        deadline.touch();
        const parsed = parseStreamEvent(message.data);
        if (parsed === undefined) continue;
        if ("problem" in parsed) {
          const what = `sent an event Marvin does not understand: ${parsed.problem}`;
          yield { type: "error", error: this.cut(what, assembler.hasOutput) };
          return;
        }
        if (parsed.event.type === "error") {
          yield { type: "error", error: streamErrorFailure(this.config, parsed.event.error, assembler.hasOutput) };
          return;
        }
        yield* assembler.apply(parsed.event);
        if (assembler.finished) break;
      }
      if (assembler.finished) yield { type: "done", response: assembler.result() };
      else yield { type: "error", error: this.failure(undefined, deadline, answered, assembler.hasOutput) };
    } catch (error) {
      yield { type: "error", error: this.failure(error, deadline, answered, assembler.hasOutput) };
    } finally {
      deadline.dispose();
    }
  }

  private notAnEventStream(response: Response): ProviderError | undefined {
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) return undefined;
    return new ProviderError(
      `${this.name} answered with '${type || "no content type"}' instead of an event stream; is ` +
        `${this.config.baseUrl} Anthropic's API (ANTHROPIC_BASE_URL)?`,
      { provider: this.name, kind: "bad_request", status: response.status },
    );
  }

  /** Why the stream ended early: a limit, a cancel, a server out of reach, or a connection closed mid-answer. */
  private failure(error: unknown, deadline: RequestDeadline, answered: boolean, partialOutput: boolean): ProviderError {
    return interruptedFailure(this.config, error, deadline, answered, partialOutput);
  }

  private cut(what: string, partialOutput: boolean, cause?: unknown): ProviderError {
    return new ProviderError(`The response stream from ${this.name} ${what}.`, {
      provider: this.name,
      kind: "stream_cut",
      partialOutput,
      cause,
    });
  }

  async destroy(): Promise<void> {}
}
