import { test as base } from "vitest";
import { createToolContext } from "../../src/session/standalone-tool-context.js";
import { type LlmServer, type Script, startLlmServer } from "./llm-server.js";
import { LocalHttpServers } from "./local-http-server.js";
import { TempDirs } from "./test-session.js";
import { ToolHarnessPool } from "./tool-harness.js";

interface Fixtures {
  /** Makes more temporary directories; all are removed after the test. */
  tempDirs: TempDirs;
  /** A temporary home directory. */
  home: string;
  /** A temporary project directory, separate from `home`. */
  workspace: string;
  /** Starts a scripted LLM server; every server started is closed after the test. */
  llm: (script: Script[]) => Promise<LlmServer>;
  /** A standalone tool context over `home`, without a working dir; its timers and jobs end after the test. */
  toolContext: ReturnType<typeof createToolContext>;
  /** Opens tool harnesses (real sessions with every tool); all are closed after the test. */
  harnesses: ToolHarnessPool;
  /** Starts plain local HTTP servers (web services a tool talks to); all are closed after the test. */
  httpServers: LocalHttpServers;
}

/**
 * vitest's `test`, with the shared fixtures. Each is created only when a test names it
 * (`test("…", async ({ home, llm }) => …)`) and cleaned up after that test.
 */
export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  tempDirs: async ({}, use) => {
    const dirs = new TempDirs();
    await use(dirs);
    await dirs.cleanup();
  },
  home: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-home-")),
  workspace: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-project-")),
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  llm: async ({}, use) => {
    const servers: LlmServer[] = [];
    await use(async (script) => {
      const server = await startLlmServer(script);
      servers.push(server);
      return server;
    });
    await Promise.all(servers.map((server) => server.close()));
  },
  toolContext: async ({ home }, use) => {
    const context = createToolContext({ home });
    await use(context);
    context.close();
  },
  // Depends on tempDirs so that the harnesses close before their homes are removed.
  harnesses: async ({ tempDirs: _ }, use) => {
    const pool = new ToolHarnessPool();
    await use(pool);
    await pool.closeAll();
  },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  httpServers: async ({}, use) => {
    const servers = new LocalHttpServers();
    await use(servers);
    await servers.closeAll();
  },
});

export { describe, expect } from "vitest";
