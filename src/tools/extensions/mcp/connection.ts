import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { marvinVersion } from "../../../shared/version.js";
import type { JsonSchema } from "../../kit/json-schema.js";
import type { McpServerConfig } from "./config.js";
import type { McpCallResult } from "./result-text.js";

/** A tool as a server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

/** A started server: its tools, and calls to them. */
export interface McpConnection {
  readonly tools: McpToolInfo[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<McpCallResult>;
  close(): Promise<void>;
}

const STDERR_TAIL = 2_000;

/** The last lines a stdio server wrote to stderr: what a crash message quotes. */
class StderrTail {
  private text = "";

  add(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-STDERR_TAIL);
  }

  get lastLines(): string {
    return this.text.trim().split("\n").slice(-3).join(" | ");
  }
}

async function createTransport(config: McpServerConfig, env: Env, stderr: StderrTail): Promise<Transport> {
  const { transport } = config;
  if (transport.kind === "http") {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers } });
  }
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const stdio = new StdioClientTransport({
    command: transport.command,
    args: transport.args,
    // Marvin's secrets stay with Marvin: the server gets what the config hands it, and nothing else secret.
    env: { ...toolChildEnv(env), ...transport.env },
    ...(transport.cwd ? { cwd: transport.cwd } : {}),
    stderr: "pipe",
  });
  stdio.stderr?.on("data", (chunk: Buffer) => stderr.add(chunk));
  return stdio;
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...(page.tools as McpToolInfo[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Why a start failed, with what the server wrote to stderr when it said anything. */
function startFailure(error: unknown, stderr: StderrTail): Error {
  const message = errorMessage(error);
  const said = stderr.lastLines;
  return new Error(said ? `${message} (stderr: ${said})` : message);
}

/**
 * Starts one server: spawns it or opens its URL, initialises, lists its tools. The SDK is loaded
 * here, on first use, so that a start without MCP servers never pays for it. `onClose` hears of
 * a server that ends later (a crash); it is not called for `close()`.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  env: Env,
  onClose: (reason: string) => void,
): Promise<McpConnection> {
  const stderr = new StderrTail();
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "marvin", version: marvinVersion() });
  let closing = false;
  let connected = false;
  client.onclose = () => {
    if (!closing && connected) onClose(stderr.lastLines ? `it ended (stderr: ${stderr.lastLines})` : "it ended");
  };
  // Transport errors surface as rejected requests; the handler only keeps the SDK from logging them.
  client.onerror = () => undefined;
  try {
    const transport = await createTransport(config, env, stderr);
    await client.connect(transport, { timeout: config.startupTimeoutMs });
    const tools = await listAllTools(client, config.startupTimeoutMs);
    connected = true;
    return {
      tools,
      call: async (tool, args, signal, timeoutMs) =>
        (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: timeoutMs,
        })) as McpCallResult,
      close: async () => {
        closing = true;
        await client.close().catch(() => undefined);
      },
    };
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw startFailure(error, stderr);
  }
}
