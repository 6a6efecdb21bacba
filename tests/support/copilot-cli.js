// A scripted stand-in for the Copilot CLI runtime, for tests: the @github/copilot-sdk
// starts it through COPILOT_CLI_PATH (a .js path is run with node) and talks to it with
// the real protocol — JSON-RPC 2.0 over stdio with Content-Length framing.
//
// Like the real runtime, it keeps each session's conversation: a reply's text may say
// "{earlier}", which becomes the earlier prompts of the same session joined by " | ".
// Replies come from the JSON file named by COPILOT_SCRIPT ({"replies": [...]}), in order
// across all sessions; each is {text, toolCalls?: [{name, arguments}], usage?, delayMs?}.
// A reply with toolCalls asks Marvin to run those tools first and waits for their results;
// delayMs holds the answer back (to cancel a turn while it runs).
// Every request received is appended as one JSON line to COPILOT_LOG.
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";

const PROTOCOL_VERSION = 3;
const scriptPath = process.env.COPILOT_SCRIPT;
const script = scriptPath ? JSON.parse(readFileSync(scriptPath, "utf8")) : { replies: [] };
let nextReply = 0;
/** sessionId → { prompts: string[] } */
const sessions = new Map();
/** requestId of a pending tool call → resolve(result) */
const pendingTools = new Map();

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function emit(sessionId, type, data) {
  const event = { id: randomUUID(), timestamp: new Date().toISOString(), parentId: null, type, data };
  send({ method: "session.event", params: { sessionId, event } });
}

async function runTurn(sessionId, prompt) {
  const session = sessions.get(sessionId);
  const earlier = session.prompts.join(" | ");
  session.prompts.push(prompt);
  const reply = script.replies[nextReply++] ?? { text: "(no scripted reply left)" };
  emit(sessionId, "assistant.turn_start", { turnId: randomUUID() });
  for (const call of reply.toolCalls ?? []) {
    const requestId = randomUUID();
    const result = new Promise((resolve) => pendingTools.set(requestId, resolve));
    const request = { requestId, toolName: call.name, arguments: call.arguments, toolCallId: `call_${requestId}` };
    emit(sessionId, "external_tool.requested", request);
    await result;
  }
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (!sessions.has(sessionId)) return; // deleted meanwhile (the turn was cancelled)
  const text = (reply.text ?? "").replaceAll("{earlier}", earlier);
  const messageId = randomUUID();
  const half = Math.ceil(text.length / 2);
  for (const part of [text.slice(0, half), text.slice(half)]) {
    if (part) emit(sessionId, "assistant.message_delta", { messageId, deltaContent: part });
  }
  emit(sessionId, "assistant.message", { messageId, content: text });
  const usage = reply.usage ?? { input: 100, output: 10 };
  emit(sessionId, "assistant.usage", { model: "scripted-model", inputTokens: usage.input, outputTokens: usage.output });
  emit(sessionId, "session.idle", {});
}

const handlers = {
  connect: () => ({ protocolVersion: PROTOCOL_VERSION }),
  ping: (params) => ({ message: params?.message ?? "", timestamp: Date.now(), protocolVersion: PROTOCOL_VERSION }),
  "auth.getStatus": () => ({ isAuthenticated: true, authType: "user", host: "https://github.com", login: "scripted" }),
  "session.create": (params) => {
    const sessionId = params.sessionId ?? randomUUID();
    sessions.set(sessionId, { prompts: [] });
    return { sessionId, capabilities: {} };
  },
  "session.send": (params) => {
    setImmediate(() => void runTurn(params.sessionId, params.prompt));
    return { messageId: randomUUID() };
  },
  "session.tools.handlePendingToolCall": (params) => {
    pendingTools.get(params.requestId)?.(params.result ?? params.error);
    pendingTools.delete(params.requestId);
    return { success: true };
  },
  "session.abort": () => ({}),
  "session.detach": () => ({ success: true }),
  "session.delete": (params) => {
    sessions.delete(params.sessionId);
    return { success: true };
  },
  "runtime.shutdown": () => {
    setImmediate(() => process.exit(0));
    return {};
  },
};

function handle(message) {
  if (message.method === undefined) return; // a response to something we sent: none expected
  const logPath = process.env.COPILOT_LOG;
  if (logPath) appendFileSync(logPath, `${JSON.stringify({ method: message.method, params: message.params })}\n`);
  const handler = handlers[message.method];
  if (message.id === undefined) return;
  if (!handler) {
    send({ id: message.id, error: { code: -32601, message: `Unhandled method ${message.method}` } });
    return;
  }
  send({ id: message.id, result: handler(message.params) });
}

let buffered = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  for (;;) {
    const headerEnd = buffered.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, headerEnd).toString("ascii"))?.[1]);
    if (buffered.length < headerEnd + 4 + length) return;
    const body = buffered.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
    buffered = buffered.subarray(headerEnd + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on("end", () => process.exit(0));
