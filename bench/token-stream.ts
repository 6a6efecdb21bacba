// A local OpenAI-compatible SSE server pacing tokens by the wall clock, and what the TUI benchmark reads of the
// processes it streams to (/proc).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export const TOKENS = 5000;
export const TOKENS_PER_SECOND = 1000;
const TICK_MS = 5;
const PARAGRAPH_EVERY = 80;

const token = (index: number) => `w${String(index).padStart(5, "0")}`;
const CHUNK = { id: "bench", object: "chat.completion.chunk", created: 0, model: "bench-model" };
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ ...CHUNK, choices, ...extra })}\n\n`;
const sseChunk = (content: string) => chunk([{ index: 0, delta: { content }, finish_reason: null }]);
/** Like real OpenAI-compatible servers asked for `include_usage`: the token counts come last. */
const usage = { prompt_tokens: 1500, completion_tokens: TOKENS, total_tokens: 1500 + TOKENS };
const FINISH = [chunk([{ index: 0, delta: {}, finish_reason: "stop" }]), chunk([], { usage }), "data: [DONE]\n\n"].join(
  "",
);

export interface StreamServer {
  url: string;
  /** Readies the next stream: the returned array is for the reader to note when each token reached it. */
  start(): number[];
  /** Milliseconds from each token of the last stream leaving the server to reaching its reader. */
  gaps(): number[];
  close(): void;
}

export async function startStreamServer(): Promise<StreamServer> {
  let sentAt: number[] = [];
  let shownAt: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const started = performance.now();
      let next = 0;
      const timer = setInterval(() => {
        const due = Math.min(TOKENS, Math.floor(((performance.now() - started) / 1000) * TOKENS_PER_SECOND) + 1);
        for (; next < due; next += 1) {
          const separator = next === 0 ? "" : next % PARAGRAPH_EVERY === 0 ? "\n\n" : " ";
          response.write(sseChunk(separator + token(next)));
          sentAt[next] = performance.now();
        }
        if (next >= TOKENS) {
          clearInterval(timer);
          response.end(FINISH);
        }
      }, TICK_MS);
      response.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    start: () => {
      sentAt = new Array(TOKENS);
      shownAt = new Array(TOKENS);
      return shownAt;
    },
    gaps: () => sentAt.map((sent, index) => shownAt[index]! - sent).filter((gap) => Number.isFinite(gap)),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The first child of `pid`, from /proc; undefined when it has none (yet). */
export function childPid(pid: number): number | undefined {
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (children) return Number(children.split(" ")[0]);
  }
  return undefined;
}
