import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { raceTimeLimit } from "../../../shared/time-limit.js";
import type { ToolRegistry } from "../../kit/registry.js";
import type { McpServerConfig } from "./config.js";
import { connectMcpServer, type McpConnection } from "./connection.js";
import { mcpToolDef } from "./tool-def.js";

type ServerState = "starting" | "ready" | "failed" | "stopped";

/** What the `mcp` command shows of one server. */
interface McpServerStatus {
  name: string;
  source: McpServerConfig["source"];
  /** "stdio: npx -y server" or "http: https://…". */
  target: string;
  state: ServerState;
  /** Why it failed or stopped. */
  problem?: string;
  /** Registered tool names (`<server>__<tool>`). */
  tools: string[];
}

interface ServerEntry {
  config: McpServerConfig;
  state: ServerState;
  problem?: string;
  tools: string[];
  connection?: McpConnection;
  started: Promise<void>;
}

function targetOf(config: McpServerConfig): string {
  const { transport } = config;
  return transport.kind === "http"
    ? `http: ${transport.url}`
    : `stdio: ${[transport.command, ...transport.args].join(" ")}`;
}

/** `work` within `timeoutMs`, or a rejection; what it yields after the time is up goes to `discard`. */
function withinTime<T>(work: Promise<T>, timeoutMs: number, discard: (value: T) => void): Promise<T> {
  let timedOut = false;
  work.then(
    (value) => {
      if (timedOut) discard(value);
    },
    () => undefined,
  );
  return raceTimeLimit(work, timeoutMs, (): never => {
    timedOut = true;
    throw new Error(`no answer within ${timeoutMs / 1000} s`);
  });
}

/**
 * The MCP servers of a session. Each starts in the background; its tools join the registry as
 * `<server>__<tool>` once it has listed them. A server that fails to start, does not answer in
 * time, or ends later costs a notice (and its tools answer with an error), never a failed turn.
 */
export class McpServers {
  private readonly servers = new Map<string, ServerEntry>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly env: Env,
    /** Where notices go; must not throw. */
    private readonly notice: (text: string) => void,
  ) {}

  /** Starts the servers not started yet; returns at once. */
  start(configs: readonly McpServerConfig[]): void {
    for (const config of configs) {
      if (this.servers.has(config.name)) continue;
      const entry: ServerEntry = { config, state: "starting", tools: [], started: Promise.resolve() };
      this.servers.set(config.name, entry);
      entry.started = this.connect(entry);
    }
  }

  /** Resolves once every server has started or failed (each within its startup timeout). */
  async settled(): Promise<void> {
    await Promise.all([...this.servers.values()].map((entry) => entry.started));
  }

  status(): McpServerStatus[] {
    return [...this.servers.values()].map(({ config, state, problem, tools }) => ({
      name: config.name,
      source: config.source,
      target: targetOf(config),
      state,
      ...(problem ? { problem } : {}),
      tools,
    }));
  }

  /** Stops every server (stdio children end with their stdin). */
  async close(): Promise<void> {
    const running = [...this.servers.values()];
    for (const entry of running) entry.state = "stopped";
    await Promise.all(running.map((entry) => entry.connection?.close()));
  }

  private async connect(entry: ServerEntry): Promise<void> {
    const { config } = entry;
    try {
      const connection = await withinTime(
        connectMcpServer(config, this.env, (reason) => this.ended(entry, reason)),
        config.startupTimeoutMs,
        (late) => void late.close(),
      );
      if (entry.state === "stopped") return void (await connection.close());
      entry.connection = connection;
      entry.state = "ready";
      this.register(entry, connection);
    } catch (error) {
      if (entry.state === "stopped") return;
      entry.state = "failed";
      entry.problem = errorMessage(error);
      this.notice(
        `MCP server '${config.name}' could not start (${entry.problem}); its tools are left out. Check its entry ` +
          `in ${config.source === "user" ? "~/.config/local-finder/mcp.json" : ".marvin/mcp.json"}.`,
      );
    }
  }

  private register(entry: ServerEntry, connection: McpConnection): void {
    const handle = {
      name: entry.config.name,
      toolTimeoutMs: entry.config.toolTimeoutMs,
      call: (tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number) => {
        if (entry.state !== "ready")
          throw new Error(
            `MCP server ${entry.config.name} is not running (${entry.problem ?? entry.state}); its tools are ` +
              "unavailable until Marvin starts again.",
          );
        return connection.call(tool, args, signal, timeoutMs);
      },
    };
    const family = { name: `mcp-${entry.config.name}`, summary: `tools of the MCP server '${entry.config.name}'` };
    for (const tool of connection.tools) {
      const def = mcpToolDef(handle, tool);
      if (this.registry.has(def.name)) {
        this.notice(`MCP tool ${def.name} is left out: a tool of that name exists already.`);
        continue;
      }
      this.registry.register(def, family);
      entry.tools.push(def.name);
    }
  }

  private ended(entry: ServerEntry, reason: string): void {
    if (entry.state === "stopped") return;
    entry.state = "failed";
    entry.problem = reason;
    this.notice(`MCP server '${entry.config.name}' stopped: ${reason}. Its tools answer with an error from now on.`);
  }
}
