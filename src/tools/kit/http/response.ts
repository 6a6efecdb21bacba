import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { basename, dirname, join } from "node:path";
import type { z } from "zod";
import { errorMessage } from "../../../shared/error-message.js";
import { preview } from "../../../shared/truncate.js";
import { contentEncodings, decodedBody, isDecompressionError, UnsupportedEncodingError } from "./decode.js";
import { badAnswer, describeBytes, failedStatus, type Peer, tooLarge } from "./failures.js";
import { ServiceError } from "./service-error.js";

/** Called as body bytes arrive; `totalBytes` is known when the server declared an unencoded length. */
export type ProgressCallback = (receivedBytes: number, totalBytes: number | undefined) => void;

interface ResponseSettings {
  peer: Peer;
  maxBytes: number;
  /** Turns a stream error (abort, timeout, reset) into the ServiceError that says what happened. */
  explain: (error: unknown) => ServiceError;
}

const ERROR_EXCERPT_BYTES = 16 * 1024;
const MESSAGE_FIELDS = ["message", "error_message", "error_description", "error", "detail", "reason", "title"];

function charsetOf(contentType: string | undefined): string {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1]?.toLowerCase() ?? "utf-8";
}

function decodeText(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/** The human-readable message field of a JSON error body, if it has one. */
function errorMessageOf(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  for (const field of MESSAGE_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === "string" && value.trim()) return preview(value, 200);
    if (typeof value === "object" && value !== null) {
      const nested = (value as Record<string, unknown>).message;
      if (typeof nested === "string" && nested.trim()) return preview(nested, 200);
    }
  }
  return undefined;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.join(".") || "(the whole answer)"}: ${issue.message}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}.`;
}

/**
 * An answer whose head has arrived. The body is read once, through one of the readers, each
 * capped at the request's byte limit and covered by its timeout; an unread body must be discarded.
 */
export class HttpResponse {
  private consumed = false;

  constructor(
    private readonly raw: IncomingMessage,
    /** The final URL, after redirects. */
    readonly url: string,
    private readonly settings: ResponseSettings,
  ) {}

  get status(): number {
    return this.raw.statusCode ?? 0;
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  /** The media type without parameters, lower case ("application/json"); "" when not given. */
  get contentType(): string {
    return (this.raw.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  }

  /** The decoded body as it streams in; stops with a ServiceError once it passes the byte cap. */
  async *chunks(onProgress?: ProgressCallback): AsyncGenerator<Buffer> {
    if (this.consumed) throw new Error("HttpResponse body read twice");
    this.consumed = true;
    const { peer, maxBytes, explain } = this.settings;
    const declared = Number(this.raw.headers["content-length"]);
    const total = Number.isFinite(declared) && contentEncodings(this.raw).length === 0 ? declared : undefined;
    let finished = false;
    try {
      if (total !== undefined && total > maxBytes) throw tooLarge(peer, maxBytes);
      let received = 0;
      for await (const chunk of decodedBody(this.raw) as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > maxBytes) throw tooLarge(peer, maxBytes);
        onProgress?.(received, total);
        yield chunk;
      }
      finished = true;
    } catch (error) {
      if (error instanceof UnsupportedEncodingError) {
        throw badAnswer(peer, `it is compressed as '${error.encoding}', which Marvin cannot read.`);
      }
      if (isDecompressionError(error)) throw badAnswer(peer, "its compressed answer is damaged and does not unpack.");
      throw explain(error);
    } finally {
      if (!finished) this.raw.destroy();
    }
  }

  async bytes(onProgress?: ProgressCallback): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks(onProgress)) parts.push(chunk);
    return Buffer.concat(parts);
  }

  /** The body as text, in the charset the Content-Type names (UTF-8 otherwise). */
  async text(): Promise<string> {
    return decodeText(await this.bytes(), charsetOf(this.raw.headers["content-type"]));
  }

  /** The body parsed as JSON and checked against `schema`. */
  async json<Schema extends z.ZodType>(schema: Schema): Promise<z.output<Schema>> {
    const text = await this.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const kind = this.contentType.includes("html") ? "a web page" : `'${preview(text, 60)}'`;
      throw badAnswer(this.settings.peer, `it sent ${kind} where JSON was expected.`);
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) throw badAnswer(this.settings.peer, describeIssues(checked.error.issues));
    return checked.data;
  }

  /**
   * Streams the body into `file` (through a temporary file beside it, renamed at the end, so a
   * failed download leaves nothing behind) and returns the number of bytes written.
   */
  async saveTo(file: string, onProgress?: ProgressCallback): Promise<number> {
    const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString("hex")}.part`);
    let written = 0;
    try {
      const handle = await open(temporary, "wx");
      try {
        for await (const chunk of this.chunks(onProgress)) {
          await handle.write(chunk);
          written += chunk.length;
        }
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
      return written;
    } catch (error) {
      this.discard();
      await rm(temporary, { force: true });
      if (error instanceof ServiceError) throw error;
      const { name } = this.settings.peer;
      const reason = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
      const arrived = `${describeBytes(written)} had arrived`;
      const message = `Could not save the download from ${name} to ${file} (${reason}); ${arrived}.`;
      throw new ServiceError(message, { service: name, kind: "file", cause: error });
    }
  }

  /** Closes the connection without reading the body. */
  discard(): void {
    this.consumed = true;
    if (!this.raw.complete) this.raw.destroy();
  }

  /** The ServiceError for this (non-2xx) answer, quoting the error body's message field if any. */
  async failure(waitMs?: number): Promise<ServiceError> {
    let excerpt: string | undefined;
    let body: string | undefined;
    try {
      const parts: Buffer[] = [];
      let size = 0;
      for await (const chunk of this.chunks()) {
        parts.push(chunk);
        size += chunk.length;
        if (size >= ERROR_EXCERPT_BYTES) break;
      }
      body = decodeText(Buffer.concat(parts), charsetOf(this.raw.headers["content-type"]));
      excerpt = errorMessageOf(body);
    } catch {
      excerpt = undefined;
    }
    this.discard();
    return failedStatus(this.settings.peer, this.status, { excerpt, body }, waitMs);
  }
}
