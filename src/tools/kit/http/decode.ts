import type { IncomingMessage } from "node:http";
import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream";
import { createBrotliDecompress, createUnzip } from "node:zlib";

/** What Marvin asks for in Accept-Encoding; decodedBody reads each of them. */
export const ACCEPTED_ENCODINGS = "gzip, deflate, br";

function decoderFor(encoding: string): Transform | undefined {
  // Unzip reads both gzip and zlib-wrapped deflate.
  if (encoding === "gzip" || encoding === "x-gzip" || encoding === "deflate") return createUnzip();
  if (encoding === "br") return createBrotliDecompress();
  return undefined;
}

/** The encodings of a Content-Encoding header, in the order they were applied. */
export function contentEncodings(response: IncomingMessage): string[] {
  const header = response.headers["content-encoding"] ?? "";
  return header
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "" && part !== "identity");
}

/**
 * The response body with its Content-Encoding undone. Throws (naming the encoding) when Marvin
 * cannot decode it. A failure anywhere in the chain surfaces on the returned stream.
 */
export function decodedBody(response: IncomingMessage): Readable {
  let stream: Readable = response;
  for (const encoding of contentEncodings(response).reverse()) {
    const decoder = decoderFor(encoding);
    if (!decoder) throw new UnsupportedEncodingError(encoding);
    pipeline(stream, decoder, () => {
      // The error, if any, is also raised on the decoder, where the reader sees it.
    });
    stream = decoder;
  }
  return stream;
}

/** True for zlib's and brotli's errors about data that does not decompress. */
export function isDecompressionError(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as NodeJS.ErrnoException;
  return typeof errno === "number" && /^(Z_|ERR__)/.test(code ?? "");
}

export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content encoding ${encoding}`);
  }
}
