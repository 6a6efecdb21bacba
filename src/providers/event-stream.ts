import type { EventSourceMessage } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ProviderConfig } from "./descriptor.js";
import { cancelledFailure, cutFailure, networkFailure, notStreamedFailure, timeoutFailure } from "./failures.js";
import { isProviderError, type ProviderError } from "./provider-error.js";
import { RequestDeadline } from "./request-deadline.js";
import type { ProviderEvent } from "./types.js";

/*
 * One streamed answer over HTTP, the part every native adapter shares: POST the request with fetch, hold it to its
 * two time limits and the caller's cancel, read the body as server-sent events, and turn whatever goes wrong on the
 * way into a classified failure. What the events mean is the adapter's own EventReader.
 */

/** How one API's answer is read, event by event. */
export interface EventReader {
  /** The provider events one server-sent event gives rise to; a `done` or `error` among them (last) ends the stream. */
  read(message: EventSourceMessage): ProviderEvent[];
  /** The last event when the body ended without one: `done` when the answer was complete, else undefined (a cut). */
  end(): ProviderEvent | undefined;
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
}

/** The socket's own words for a failed connection (ECONNREFUSED, ENOTFOUND…): fetch hides them in `cause`. */
function connectionDetail(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? cause.message : undefined;
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
  /** Why the stream ended early: a limit, a cancel, a server out of reach, or a connection closed mid-answer. */
  const failure = (error?: unknown): ProviderEvent => {
    const partial = reader.hasOutput;
    if (deadline.timedOut) return { type: "error", error: timeoutFailure(config, deadline.timedOut, partial, error) };
    if (deadline.signal.aborted) return { type: "error", error: cancelledFailure(config, partial, error) };
    if (isProviderError(error)) return { type: "error", error };
    if (!answered) return { type: "error", error: networkFailure(config, connectionDetail(error), partial, error) };
    return { type: "error", error: cutFailure(config, partial, error) };
  };
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
    for await (const message of response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())) {
      deadline.touch();
      for (const event of reader.read(message)) {
        yield event;
        if (isEnd(event)) return;
      }
    }
    yield reader.end() ?? failure();
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
