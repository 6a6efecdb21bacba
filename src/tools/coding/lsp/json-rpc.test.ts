import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { JsonRpcConnection } from "./json-rpc.js";

/** Two connections talking to each other over in-memory streams, as a client and a server do over stdio. */
function pair() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  return {
    client: new JsonRpcConnection(toClient, toServer),
    server: new JsonRpcConnection(toServer, toClient),
    toClient,
  };
}

describe("JsonRpcConnection", () => {
  it("answers requests both ways, counting Content-Length in bytes (multibyte text)", async () => {
    const { client, server } = pair();
    server.onRequest("echo", (params) => ({ echoed: params }));
    client.onRequest("workspace/configuration", () => ["ü"]);
    const notes: unknown[] = [];
    client.onNotification("note", (params) => notes.push(params));
    expect(await client.request("echo", { text: "héllo ✓ 🎉" })).toEqual({ echoed: { text: "héllo ✓ 🎉" } });
    expect(await server.request("workspace/configuration", { items: [{}] })).toEqual(["ü"]);
    server.notify("note", { n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(notes).toEqual([{ n: 1 }]);
    await expect(client.request("unknown/method", null)).rejects.toThrow("Method not handled: unknown/method");
  });

  it("reassembles messages split at any byte and several in one chunk", async () => {
    const { client, toClient } = pair();
    const received: unknown[] = [];
    client.onNotification("n", (params) => received.push(params));
    const frame = (value: unknown) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "n", params: value }));
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    };
    const bytes = Buffer.concat([frame("ä"), frame(2), frame({ three: "✓" })]);
    for (const byte of bytes.subarray(0, 7)) toClient.write(Buffer.from([byte]));
    toClient.write(bytes.subarray(7));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(["ä", 2, { three: "✓" }]);
  });

  it("fails waiting requests when the other side goes away, and every later one at once", async () => {
    const fromServer = new PassThrough();
    const client = new JsonRpcConnection(fromServer, new PassThrough());
    const pending = client.request("slow", null);
    fromServer.destroy();
    await expect(pending).rejects.toThrow("Connection closed: the server closed its output");
    await expect(client.request("later", null)).rejects.toThrow("Connection closed");
  });
});
