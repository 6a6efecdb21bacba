import type { EventSourceMessage } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ProviderConfig } from "./descriptor.js";
import { interruptedFailure, notStreamedFailure } from "./failures.js";
import type { ProviderError } from "./provider-error.js";
import { RequestDeadline } from "./request-deadline.js";
import type { ProviderEvent } from "./types.js";

/*
 * One streamed answer over HTTP, the part every native adapter shares: POST the request with fetch, hold it to its
 * two time limits and the caller's cancel, read the body as server-sent events (or JSON lines), and turn whatever goes
 * wrong on the way into a classified failure. What the events mean is the adapter's own EventReader.
 */

/** How one API's answer is read, event by event. */
export interface EventReader {
  /** The provider events one server-sent event gives rise to; a `done` or `error` among them (last) ends the stream. */
  read(message: EventSourceMessage): ProviderEvent[];
  /** The events that close the answer when the body ended: ending in `done` when it was complete, none if it was cut. */
  end(): ProviderEvent[];
  /** True once answer text was passed on: a failure then says so, as retrying would repeat it. */
  readonly hasOutput: boolean;
}

interface StreamingPost {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

interface AnswerHandling {
  /** An HTTP error status, classified with what its body says. */
  httpError(response: Response): Promise<ProviderError>;
  /** The API expected and where its URL is set, said when a server answers with something else. */
  api: string;
  /**
   * A successful answer whose content type is not an event stream: its events, or undefined to read it as one all
   * the same. By default it is a failure.
   */
  notStreamed?(response: Response): Promise<ProviderEvent[]> | undefined;
  /** How the body is cut into messages: server-sent events unless said otherwise. */
  frames?(body: ReadableStream<Uint8Array>): AsyncIterable<EventSourceMessage>;
}

function serverSentEvents(body: ReadableStream<Uint8Array>): AsyncIterable<EventSourceMessage> {
  return body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
}

const isEnd = (event: ProviderEvent) => event.type === "done" || event.type === "error";

/** The events of one streamed request; never throws (see ProviderEvent). */
export async function* streamEvents(
  config: ProviderConfig,
  post: StreamingPost,
  reader: EventReader,
  handling: AnswerHandling,
): AsyncGenerator<ProviderEvent> {
  const deadline = new RequestDeadline(config, post.signal);
  let answered = false;
  const failure = (error?: unknown): ProviderEvent => ({
    type: "error",
    error: interruptedFailure(config, error, deadline, answered, reader.hasOutput),
  });
  try {
    const response = await fetch(post.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...post.headers },
      body: JSON.stringify(post.body),
      signal: deadline.signal,
    });
    answered = true;
    deadline.touch();
    if (!response.ok) {
      yield { type: "error", error: await handling.httpError(response) };
      return;
    }
    if (!isEventStream(response)) {
      const whole = handling.notStreamed
        ? handling.notStreamed(response)
        : Promise.resolve([{ type: "error", error: notStreamedFailure(config, response, handling.api) } as const]);
      if (whole) {
        yield* await whole;
        return;
      }
    }
    const frames = handling.frames ?? serverSentEvents;
    for await (const message of frames(response.body!)) {
      deadline.touch();
      for (const event of reader.read(message)) {
        yield event;
        if (isEnd(event)) return;
      }
    }
    const closing = reader.end();
    yield* closing;
    if (!closing.some(isEnd)) yield failure();
  } catch (error) {
    yield failure(error);
  } finally {
    deadline.dispose(); // a reader that stopped early leaves no request running
  }
}

/** The `Authorization` header of an API key; local servers often need none. */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").includes("text/event-stream");
}
