import type { ServerResponse } from "node:http";
import type { Env } from "../../src/shared/env.js";
import { test as base } from "./fixtures.js";
import type { Handler, LocalHttpServer } from "./local-http-server.js";
import type { ToolHarness } from "./tool-harness.js";

/** Answers one request to a local stand-in for a web service, given the path and query asked for. */
export type Answer = (response: ServerResponse, path: string, query: URLSearchParams) => void;

/** The URL a local server was asked for, made whole so that its path and query can be read. */
export const urlOf = (url: string) => new URL(url, "http://fixture");

/** A local server answering with `handler`, and a session whose settings point at it (plus `env`). */
export type ServerFor = (handler: Handler, env?: Env) => Promise<{ server: LocalHttpServer; harness: ToolHarness }>;

interface ServiceFixtures {
  /** Starts a local server (closed after the test) answering every request as `answer` says. */
  serve: (answer: Answer) => Promise<LocalHttpServer>;
  /** Opens a session over `home` with every tool and these settings (closed after the test). */
  harnessWith: (env: Env) => Promise<ToolHarness>;
  /** `withServer(variable, handler, env)`: a local server answering with `handler`, in the setting `variable`. */
  withServer: (variable: string, ...rest: Parameters<ServerFor>) => ReturnType<ServerFor>;
}

/** The shared fixtures, plus `serve` and `harnessWith` for tests of tools that talk to a web service. */
export const test = base.extend<ServiceFixtures>({
  serve: async ({ httpServers }, use) =>
    use((answer) =>
      httpServers.start((request, response) => {
        const url = urlOf(request.url);
        answer(response, url.pathname, url.searchParams);
      }),
    ),
  harnessWith: async ({ harnesses, home }, use) => use((env) => harnesses.open({ home, env })),
  withServer: async ({ httpServers, harnessWith }, use) =>
    use(async (variable, handler, env = {}) => {
      const server = await httpServers.start(handler);
      return { server, harness: await harnessWith({ [variable]: server.origin, ...env }) };
    }),
});
