import { connect, isIP, type Socket } from "node:net";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { ToolError } from "../../kit/define-tool.js";

/** Where the Blender MCP add-on listens (its sidebar's "Connect to MCP server" starts it). */
interface BlenderAddress {
  host: string;
  port: number;
}

const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_PORT = 9876;
const CONNECT_TIMEOUT_MS = 5_000;
/** Replies bigger than this are not the add-on's: stop reading instead of filling memory. */
const MAX_REPLY_BYTES = 20 * 1024 * 1024;

/** localhost, 127.0.0.0/8 and ::1: the add-on runs any Python it is sent, so Marvin talks to this machine only. */
function isLocalHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return isIP(bare) === 6 && (bare === "::1" || bare === "::ffff:127.0.0.1");
}

/** BLENDER_MCP_HOST and BLENDER_MCP_PORT, checked; another machine only with MARVIN_BLENDER_REMOTE=1. */
function blenderAddress(env: Env): BlenderAddress {
  const host = env.BLENDER_MCP_HOST?.trim() || DEFAULT_HOST;
  const portText = env.BLENDER_MCP_PORT?.trim() || String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65_535)
    throw new ToolError(`BLENDER_MCP_PORT is not a port number ('${portText}'): give 1–65535, or unset it for 9876.`);
  if (!isLocalHost(host) && env.MARVIN_BLENDER_REMOTE !== "1")
    throw new ToolError(
      `BLENDER_MCP_HOST is ${host}, not this machine. The Blender add-on runs any Python it is sent, so Marvin ` +
        "only talks to it on this machine; set MARVIN_BLENDER_REMOTE=1 if you really mean another one.",
    );
  return { host, port };
}

/** "127.0.0.1:9876", for messages. */
export function describeBlenderAddress(env: Env): string {
  const { host, port } = blenderAddress(env);
  return `${host}:${port}`;
}

function notRunning(where: string, reason: string): ToolError {
  return new ToolError(
    `Blender is not answering at ${where} (${reason}): start Blender with the Blender MCP add-on ` +
      '(github.com/ahujasid/blender-mcp) and click "Connect to MCP server" in its sidebar tab, or set ' +
      "BLENDER_MCP_HOST / BLENDER_MCP_PORT.",
  );
}

/** The add-on's reply: `{"status": "success", "result": …}` or `{"status": "error", "message": …}`. */
function unwrapReply(reply: unknown, type: string): unknown {
  if (typeof reply !== "object" || reply === null || !("status" in reply))
    throw new ToolError(`Blender sent a reply to '${type}' that is not the add-on's: ${JSON.stringify(reply)}`);
  const { status } = reply as { status: unknown };
  if (status === "error") {
    const message = (reply as { message?: unknown }).message;
    throw new ToolError(`Blender refused '${type}': ${typeof message === "string" ? message : "no reason given"}`);
  }
  return (reply as { result?: unknown }).result;
}

/** The whole reply once the bytes read so far parse as one JSON value (the add-on sends no delimiter). */
function parsedReply(buffer: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(buffer.toString("utf8")) };
  } catch {
    return undefined;
  }
}

/**
 * Sends one command to the Blender MCP add-on and returns its `result`: one JSON object
 * `{"type": …, "params": …}` on a fresh connection, the reply read until it parses as JSON.
 * Failures become ToolErrors the model can act on.
 */
export function sendBlenderCommand(
  env: Env,
  type: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const { host, port } = blenderAddress(env);
  const where = `${host}:${port}`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const socket: Socket = connect({ host: host.replace(/^\[|\]$/g, ""), port });
    const finish = (outcome: () => unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    const fail = (error: Error) =>
      finish(() => {
        throw error;
      });
    const onAbort = () => fail(new ToolError(`Stopped waiting for Blender's answer to '${type}'.`));
    signal.addEventListener("abort", onAbort, { once: true });
    const connectTimer = setTimeout(() => fail(notRunning(where, "no connection within 5 s")), CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(connectTimer);
      socket.write(JSON.stringify({ type, params }));
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received > MAX_REPLY_BYTES) return fail(new ToolError(`Blender's answer to '${type}' is over 20 MB.`));
      const reply = parsedReply(Buffer.concat(chunks));
      if (reply) finish(() => unwrapReply(reply.value, type));
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const refused = error.code === "ECONNREFUSED" || error.code === "EHOSTUNREACH" || error.code === "ENOTFOUND";
      fail(
        refused
          ? notRunning(where, error.code ?? "refused")
          : new ToolError(`Blender connection failed: ${errorMessage(error)}`),
      );
    });
    socket.on("close", () =>
      fail(new ToolError(`Blender closed the connection before answering '${type}' completely.`)),
    );
    if (signal.aborted) onAbort();
  });
}
