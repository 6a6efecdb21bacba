import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";

/** One command as the Blender MCP add-on receives it. */
export interface BlenderCommand {
  type: string;
  params: Record<string, unknown>;
}

/** The add-on's reply to one command: `{"status": "success", "result": …}` or `{"status": "error", "message": …}`. */
export type BlenderReply = { status: "success"; result: unknown } | { status: "error"; message: string };

export interface BlenderAddonServer {
  port: number;
  /** Every command received, in order. */
  commands: BlenderCommand[];
  close(): Promise<void>;
}

interface Options {
  /** Sends each reply in this many pieces, a few milliseconds apart (the add-on's socket may split them). */
  pieces?: number;
}

/**
 * A stand-in for Blender with the Blender MCP add-on (github.com/ahujasid/blender-mcp, addon.py) on 127.0.0.1:
 * like the add-on, it reads bytes until they parse as one JSON command, answers with one JSON object and no
 * delimiter, and keeps the connection open for more.
 */
export async function startBlenderAddonServer(
  answer: (command: BlenderCommand) => BlenderReply | Promise<BlenderReply>,
  options: Options = {},
): Promise<BlenderAddonServer> {
  const commands: BlenderCommand[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    socket.on("data", async (data) => {
      buffer = Buffer.concat([buffer, data]);
      let command: BlenderCommand;
      try {
        command = JSON.parse(buffer.toString("utf8")) as BlenderCommand;
      } catch {
        return; // incomplete: wait for more, as the add-on does
      }
      buffer = Buffer.alloc(0);
      commands.push(command);
      await writeInPieces(socket, Buffer.from(JSON.stringify(await answer(command))), options.pieces ?? 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function writeInPieces(socket: Socket, bytes: Buffer, pieces: number): Promise<void> {
  const size = Math.ceil(bytes.length / pieces);
  for (let start = 0; start < bytes.length; start += size) {
    socket.write(bytes.subarray(start, start + size));
    if (start + size < bytes.length) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
