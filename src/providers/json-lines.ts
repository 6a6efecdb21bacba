import type { EventSourceMessage } from "eventsource-parser";

/** A newline-delimited JSON body (Ollama's `/api/chat`), each non-empty line as the data of one message. */
export async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncIterable<EventSourceMessage> {
  let buffer = "";
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      if (line.trim()) yield { data: line };
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
    }
  }
  if (buffer.trim()) yield { data: buffer };
}
