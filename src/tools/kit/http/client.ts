import type { z } from "zod";
import type { Env } from "../../../shared/env.js";
import type { ToolContext } from "../define-tool.js";
import { exchange } from "./exchange.js";
import { planRequest, type RequestOptions, type Target } from "./request-plan.js";
import type { HttpResponse, ProgressCallback } from "./response.js";
import type { ExternalService, QueryParams } from "./service.js";

/** Downloads get longer than one API call: 10 minutes and 1 GB unless the call says otherwise. */
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
export const DOWNLOAD_MAX_BYTES = 1024 * 1024 * 1024;

export interface HttpClientOptions {
  env: Env;
  /** The tool's abort signal: cancels requests, bodies and waits between retries. */
  signal: AbortSignal;
  /** Origins treated like configured services: the private-address guard does not apply to them. */
  trustedOrigins?: readonly string[];
}

export interface DownloadOptions extends RequestOptions {
  onProgress?: ProgressCallback;
}

export interface HttpClient {
  /** GET `path` on a service and parse the answer through `schema`. */
  getJson<Schema extends z.ZodType>(
    service: ExternalService,
    path: string,
    query: QueryParams | undefined,
    schema: Schema,
    options?: RequestOptions,
  ): Promise<z.output<Schema>>;
  /** GET `path` on a service as text. */
  getText(service: ExternalService, path: string, query?: QueryParams, options?: RequestOptions): Promise<string>;
  /**
   * Any request; resolves with a 2xx answer whose body is still unread (read it with one of
   * HttpResponse's readers, or discard it). Non-2xx answers throw a ServiceError, except the
   * statuses in `options.passStatuses`, which resolve too.
   */
  send(target: Target, options?: RequestOptions): Promise<HttpResponse>;
  /** Streams the body into `file`; returns its size in bytes. */
  download(target: Target, file: string, options?: DownloadOptions): Promise<number>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const settings = { env: options.env, signal: options.signal, trustedOrigins: options.trustedOrigins ?? [] };
  // async, so that a bad target or setting rejects like every other failure instead of throwing.
  const run = async <T>(target: Target, request: RequestOptions, consume: (response: HttpResponse) => Promise<T>) =>
    exchange(planRequest(target, request, settings), options.signal, consume);
  const accepting = (type: string, request: RequestOptions = {}): RequestOptions => ({
    ...request,
    headers: { accept: type, ...request.headers },
  });
  return {
    getJson: (service, path, query, schema, request) =>
      run({ service, path, query }, accepting("application/json", request), (response) => response.json(schema)),
    getText: (service, path, query, request) =>
      run({ service, path, query }, request ?? {}, (response) => response.text()),
    send: (target, request = {}) => run(target, request, async (response) => response),
    download: (target, file, { onProgress, ...request } = {}) => {
      const limits = { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: DOWNLOAD_MAX_BYTES };
      return run(target, { ...limits, ...request }, (response) => response.saveTo(file, onProgress));
    },
  };
}

/** The HTTP client for a tool call: its settings come from `context.env`, cancellation from `context.signal`. */
export function http(context: Pick<ToolContext, "env" | "signal">): HttpClient {
  return createHttpClient({ env: context.env, signal: context.signal });
}
